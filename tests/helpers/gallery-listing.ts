// Shared pieces of the gallery listing API suites: the page and seed shapes, the listing query string and the order a
// sort must give.
import type { GallerySort } from '../../src/lib/gallery-rules.ts';
import type { Item } from './gallery.ts';

/** One page of GET /api/gallery/get. */
export interface Page {
  data: Item[];
  total: number;
  total_capped: boolean;
  per_page: number;
  current_page: number;
}

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
