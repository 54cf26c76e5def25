// The gallery's shapes (SPEC §3) and its calls (SPEC §7 Gallery): listing, one item, tags, like, delete, report, edit, and image URLs.
import { api, API_URL } from '../../lib/api';
import type { GalleryItem, GalleryPage, Tag } from '../../lib/types';
import { DEFAULT_GALLERY_SORT, type GallerySort, type GalleryTypeName } from '../../lib/gallery-rules';

export type { GalleryItem, GalleryPage, Tag };

/** What GET /api/gallery/user/{uuid} answers. */
export interface UserGallery {
  user: { username: string; uuid: string };
  gallery: GalleryPage;
}

/** The listing's filters, as the sidebar and the URL hold them. */
export interface GalleryFilters {
  title: string;
  sort: GallerySort;
  types: GalleryTypeName[];
  tags: string[];
}

/** No filters: every texture, most liked first. */
export const EMPTY_FILTERS: GalleryFilters = { title: '', sort: DEFAULT_GALLERY_SORT, types: [], tags: [] };

/** The 320 × 180 front-and-back preview of an item. */
export function previewUrl(hash: string): string {
  return `${API_URL}/api/gallery/${hash}/preview`;
}

/** The scaled-up texture map of an item. */
export function mapUrl(hash: string): string {
  return `${API_URL}/api/gallery/${hash}/preview/map`;
}

/** The download link of an item (counts a download). */
export function downloadUrl(hash: string): string {
  return `${API_URL}/api/gallery/${hash}/download`;
}

/** A texture path of the API (`/textures/<hash>`) as a full URL. */
export function textureUrl(path: string): string {
  return `${API_URL}${path}`;
}

/** The page of one item. */
export function itemHref(hash: string): string {
  return `/gallery/${hash}`;
}

/** The page of one player's uploads. */
export function userGalleryHref(uuid: string): string {
  return `/gallery/${uuid}`;
}

/** Whether an item is ears (type 1) rather than a cape (0 or 2). */
export function isEars(item: Pick<GalleryItem, 'type'>): boolean {
  return item.type !== 0 && item.type !== 2;
}

/** A short name for an item's kind. */
export function kindLabel(item: Pick<GalleryItem, 'type' | 'animated'>): string {
  if (isEars(item)) return 'Ears';
  return item.animated || item.type === 2 ? 'Animated cape' : 'Cape';
}

let tagsPromise: Promise<Tag[]> | null = null;

/** The gallery's tags (loaded once per page; a failure is retried on the next call). */
export function fetchTags(): Promise<Tag[]> {
  tagsPromise ??= api<Tag[]>('/api/gallery/tags').catch((error: unknown) => {
    tagsPromise = null;
    throw error;
  });
  return tagsPromise;
}

/** One page of the listing for the given filters. */
export function fetchGalleryPage(filters: GalleryFilters, page: number, signal?: AbortSignal): Promise<GalleryPage> {
  const query: Record<string, string | number> = { page, sortBy: filters.sort };
  const title = filters.title.trim();
  if (title) query.title = title;
  if (filters.types.length > 0) query.type = JSON.stringify(filters.types);
  if (filters.tags.length > 0) query.tags = JSON.stringify(filters.tags);
  return api<GalleryPage>('/api/gallery/get', { query, signal });
}

/** One page of a player's uploads, with the player's name. */
export function fetchUserGallery(uuid: string, page: number, signal?: AbortSignal): Promise<UserGallery> {
  return api<UserGallery>(`/api/gallery/user/${uuid}`, { query: { page }, signal });
}

/** One item by hash. */
export function fetchItem(hash: string, signal?: AbortSignal): Promise<GalleryItem> {
  return api<GalleryItem>(`/api/gallery/${hash}`, { signal });
}

/** Likes or unlikes an item; answers the new state and count. */
export function likeItem(hash: string): Promise<{ liked: boolean; total_user_likes: number }> {
  return api('/api/gallery/like', { method: 'POST', body: { hash } });
}

/** Deletes an item (its author or an admin). */
export function deleteItem(hash: string): Promise<{ success: boolean }> {
  return api('/api/gallery/delete', { method: 'POST', body: { hash } });
}

/** Reports an item; the terms box must be ticked. */
export function reportItem(hash: string): Promise<{ success: boolean }> {
  return api('/api/gallery/report', { method: 'POST', body: { hash, tac: true } });
}

/** Changes an item's title and tags; answers the updated item. */
export function editItem(hash: string, title: string, tags: string[]): Promise<{ success: boolean; item: GalleryItem }> {
  return api('/api/gallery/edit', { method: 'POST', body: { hash, title, tags: JSON.stringify(tags) } });
}
