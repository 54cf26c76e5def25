// The gallery's shapes and its calls: listing, one item, tags, like, delete, report, edit, and image URLs.
import { apiCall, apiUrl, API_URL, type ApiAnswer } from '../../lib/client/api';
import type { GalleryItem, GalleryPage, Tag } from '../../lib/schemas/types';
import type { ReportGrounds } from '../../lib/report-rules';
import { galleryListParams, type GalleryFilters } from '../../lib/gallery-query';

export type { GalleryItem, GalleryPage, Tag };

/** The 320 × 180 front-and-back preview of an item. */
export function previewUrl(hash: string): string {
  return apiUrl('galleryPreview', { hash });
}

/** The scaled-up texture map of an item. */
export function mapUrl(hash: string): string {
  return apiUrl('galleryMap', { hash });
}

/** The download link of an item (counts a download). */
export function downloadUrl(hash: string): string {
  return apiUrl('galleryDownload', { hash });
}

/** A texture path of the API (`/textures/<hash>`) as a full URL. */
export function textureUrl(path: string): string {
  return `${API_URL}${path}`;
}

/** The page of one item. */
export function itemHref(hash: string): string {
  return `/gallery/${hash}`;
}

/** Where the upload page leaves word that the picture it sent was already in the gallery, for that texture's page. */
const ALREADY_SHARED_KEY = 'gallery-already-shared';

/** Notes that `hash` is the gallery item a picture the player just sent already was (the upload page opens it next). */
export function rememberAlreadyShared(hash: string): void {
  sessionStorage.setItem(ALREADY_SHARED_KEY, hash);
}

/** Whether the player just sent the picture of `hash` and found it already shared; says so once. */
export function takeAlreadyShared(hash: string): boolean {
  const shared = sessionStorage.getItem(ALREADY_SHARED_KEY) === hash;
  if (shared) sessionStorage.removeItem(ALREADY_SHARED_KEY);
  return shared;
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
  tagsPromise ??= apiCall('galleryTags').catch((error: unknown) => {
    tagsPromise = null;
    throw error;
  });
  return tagsPromise;
}

/** One page of the listing for the given filters. */
export function fetchGalleryPage(filters: GalleryFilters, page: number, signal?: AbortSignal): Promise<GalleryPage> {
  return apiCall('galleryList', { query: { ...galleryListParams(filters, page) }, signal });
}

/** One page of a player's uploads, with the player's name. */
export function fetchUserGallery(uuid: string, page: number, signal?: AbortSignal): Promise<ApiAnswer<'userGallery'>> {
  return apiCall('userGallery', { params: { uuid }, query: { page }, signal });
}

/** One item by hash. */
export function fetchItem(hash: string, signal?: AbortSignal): Promise<GalleryItem> {
  return apiCall('galleryItem', { params: { hash }, signal });
}

/** Likes or unlikes an item; answers the new state and count. */
export function likeItem(hash: string): Promise<ApiAnswer<'likeItem'>> {
  return apiCall('likeItem', { body: { hash } });
}

/** Puts an item's cape or ears on the logged-in player; answers the slot and the item's wears. */
export function wearItem(hash: string): Promise<ApiAnswer<'wearItem'>> {
  return apiCall('wearItem', { body: { hash } });
}

/** "Wear this cape" or "Wear these ears", by the item's kind. */
export function wearLabel(item: Pick<GalleryItem, 'type'>): string {
  return isEars(item) ? 'Wear these ears' : 'Wear this cape';
}

/** The wear button of an item the player wears now. */
export function wearingLabel(item: Pick<GalleryItem, 'type'>): string {
  return isEars(item) ? "You're wearing these ears" : "You're wearing this cape";
}

/** What a player is told once an item is on: what players with the mod now see. */
export function wornMessage(item: Pick<GalleryItem, 'type'>): string {
  return isEars(item)
    ? "You're wearing these ears now: players with the mod see them."
    : "You're wearing this cape now: players with the mod see it.";
}

/**
 * Deletes an item: its author without a reason, or a moderator someone else's item with a reason's key (which takes the
 * picture off every player wearing it).
 */
export function deleteItem(hash: string, reason?: string): Promise<ApiAnswer<'deleteItem'>> {
  return apiCall('deleteItem', { body: reason === undefined ? { hash } : { hash, reason } });
}

/** How many players wear an item's picture now (a moderator's Delete takes it off them); told to moderators only. */
export async function fetchWearerCount(hash: string, signal?: AbortSignal): Promise<number> {
  const { wearers } = await fetchItem(hash, signal);
  if (wearers === undefined) throw new Error('The answer has no wearer count: only moderators are told it.');
  return wearers;
}

/** Reports an item with its reason and note; the terms box must be ticked. */
export function reportItem(hash: string, grounds: ReportGrounds): Promise<ApiAnswer<'reportItem'>> {
  return apiCall('reportItem', { body: { hash, tac: true, reason: grounds.reasonKey, note: grounds.note } });
}

/** Changes an item's title and tags; answers the updated item. */
export function editItem(hash: string, title: string, tags: string[]): Promise<ApiAnswer<'editItem'>> {
  return apiCall('editItem', { body: { hash, title, tags: JSON.stringify(tags) } });
}
