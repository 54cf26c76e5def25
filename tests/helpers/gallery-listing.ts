// Shared pieces of the gallery listing API suites: the page and seed shapes, the fields of an item, the listing query
// string, the order a sort must give, and asking for one page or every page of a listing.
import { expect } from 'vitest';
import type { GallerySort } from '../../src/lib/gallery-rules.ts';
import type { CookieJar } from './cookie-jar.ts';
import type { Item } from './gallery.ts';

/** One page of GET /api/gallery/get. */
export interface Page {
  data: Item[];
  total: number;
  total_capped: boolean;
  per_page: number;
  current_page: number;
}

/** The fields of a gallery item (the documented ones plus animated, texture and animated_texture). */
export const ITEM_FIELDS = [
  'animated',
  'animated_texture',
  'author',
  'author_name',
  'createdAt',
  'downloads',
  'hash',
  'tags',
  'texture',
  'title',
  'total_user_likes',
  'type',
  'user_liked',
  'user_wears',
  'wears',
  'whitelisted',
].sort();

/** One seeded item, as the test knows it. */
export interface Seed {
  hash: string;
  title: string;
  author: string;
  type: number;
  tags: string[];
  likes: number;
  downloads: number;
  createdAt: number;
}

/** The parameters of a listing request. */
export type Params = Record<string, string | number | string[] | undefined>;

/** The query string of a listing request; lists go as JSON like the site sends them. */
export function query(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Compares two sort keys: -1, 0 or 1. */
export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The hashes of the seeds in the order a sort must give (ties broken by hash in the same direction). */
export function ordered(seeds: Seed[], sort: GallerySort): string[] {
  const [field, direction] = sort.split('_') as ['likes' | 'downloads' | 'name' | 'uploaded', 'asc' | 'desc'];
  const key = (seed: Seed) =>
    field === 'likes'
      ? seed.likes
      : field === 'downloads'
        ? seed.downloads
        : field === 'name'
          ? seed.title.toLowerCase()
          : seed.createdAt;
  const sorted = [...seeds].sort((a, b) => compare(key(a), key(b)) || compare(a.hash, b.hash));
  if (direction === 'desc') sorted.reverse();
  return sorted.map((seed) => seed.hash);
}

/** One page of the listing as `jar` asks for it; the answer must be 200. */
export async function getPage(jar: CookieJar, params: Params = {}): Promise<Page> {
  const response = await jar.get(`/api/gallery/get${query(params)}`);
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body as Page;
}

/**
 * Every page of a listing (checking per_page, current_page and a constant total on each); returns hashes and the
 * total.
 */
export async function getAll(jar: CookieJar, params: Params = {}): Promise<{ hashes: string[]; total: number }> {
  const hashes: string[] = [];
  let total = -1;
  for (let page = 1; page < 20; page++) {
    const body = await getPage(jar, { ...params, page });
    expect(body.per_page).toBe(24);
    expect(body.current_page).toBe(page);
    if (total === -1) total = body.total;
    expect(body.total, `the total on page ${page}`).toBe(total);
    expect(body.data.length).toBeLessThanOrEqual(24);
    hashes.push(...body.data.map((item) => item.hash));
    if (body.data.length < 24) break;
  }
  return { hashes, total };
}
