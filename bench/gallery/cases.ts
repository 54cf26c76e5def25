// The gallery bench's cases: the queries it times, the filter each stands for, and the check of each answer against
// the generated data.
import {
  GALLERY_COUNT_CAP,
  GALLERY_PER_PAGE,
  GALLERY_SORTS,
  GALLERY_TYPES,
  type GallerySort,
  type GalleryTypeName,
} from '../../src/lib/gallery-rules.ts';
import type { GalleryQuery } from '../../server/gallery/queries.ts';
import { ITEMS } from './settings.ts';
import { TAG_POPULARITY, type Dataset } from './dataset.ts';

/** A timed case: a query of GET /api/gallery/get (or another path) for each sample. */
export interface Case {
  name: string;
  /** Part of the goal (p95 ≤ 25 ms); other cases are shown for information. */
  goal: boolean;
  /** The query parameters of sample k. */
  params: (k: number) => Record<string, string>;
  /** Another path than /api/gallery/get (the baseline); its answer is not checked. */
  path?: string;
  /** Fewer samples than SAMPLES (for the slow extra cases). */
  samples?: number;
}

/** Picks the search terms from the generated titles: mid-frequency fragments, rare whole words, 3-letter fragments. */
export function searchTerms(data: Dataset) {
  const byFrequency = new Map<string, number>();
  for (const title of data.titlesLower)
    for (const w of title.split(/[ _0-9]+/)) if (w) byFrequency.set(w, (byFrequency.get(w) ?? 0) + 1);
  const ranked = [...byFrequency.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  const mid = ranked
    .slice(25, 60)
    .filter((w) => w.length >= 6)
    .slice(0, 4)
    .map((w) => w.slice(1, 1 + Math.min(5, w.length - 1)));
  const rare = ranked
    .slice(-30)
    .filter((w) => w.length >= 5)
    .slice(0, 4);
  const three = ['ing', 'ark', 'ter', 'sta'];
  return { mid, rare, three, two: ['ra', 'ne', 'ko', 'sh'] };
}

/**
 * The timed cases: the baseline, the first page of each sort, title searches, tag and type filters, deep pages and
 * combinations.
 */
export function buildCases(data: Dataset, terms: ReturnType<typeof searchTerms>): Case[] {
  const cases: Case[] = [];
  cases.push({ name: '(baseline) GET /api/gallery/tags', goal: false, path: '/api/gallery/tags', params: () => ({}) });
  for (const sort of GALLERY_SORTS)
    cases.push({ name: `first page, ${sort}`, goal: true, params: () => ({ page: '1', sortBy: sort }) });
  const title = (list: string[]) => (k: number) => ({ page: '1', sortBy: 'likes_desc', title: list[k % list.length] });
  cases.push({
    name: `title, 4-6 letters of a mid word (${terms.mid.join('/')})`,
    goal: true,
    params: title(terms.mid),
  });
  cases.push({ name: `title, rare whole word (${terms.rare.join('/')})`, goal: true, params: title(terms.rare) });
  cases.push({ name: `title, 3 letters (${terms.three.join('/')})`, goal: true, params: title(terms.three) });
  const popular = TAG_POPULARITY[0];
  const rare = TAG_POPULARITY[TAG_POPULARITY.length - 1];
  const mid = TAG_POPULARITY[6];
  cases.push({
    name: `tag ${popular} (most used)`,
    goal: true,
    params: () => ({ page: '1', sortBy: 'likes_desc', tags: JSON.stringify([popular]) }),
  });
  cases.push({
    name: `tag ${rare} (least used)`,
    goal: true,
    params: () => ({ page: '1', sortBy: 'likes_desc', tags: JSON.stringify([rare]) }),
  });
  cases.push({
    name: 'type ears',
    goal: true,
    params: () => ({ page: '1', sortBy: 'likes_desc', type: JSON.stringify(['ears']) }),
  });
  cases.push({
    name: 'type animated',
    goal: true,
    params: () => ({ page: '1', sortBy: 'likes_desc', type: JSON.stringify(['animated']) }),
  });
  cases.push({
    name: 'type cape+animated',
    goal: true,
    params: () => ({ page: '1', sortBy: 'likes_desc', type: JSON.stringify(['cape', 'animated']) }),
  });
  cases.push({ name: 'page 500, likes_desc', goal: true, params: () => ({ page: '500', sortBy: 'likes_desc' }) });
  cases.push({ name: 'page 500, uploaded_desc', goal: true, params: () => ({ page: '500', sortBy: 'uploaded_desc' }) });
  cases.push({
    name: `tag ${mid} + animated, downloads_desc`,
    goal: true,
    params: () => ({
      page: '1',
      sortBy: 'downloads_desc',
      tags: JSON.stringify([mid]),
      type: JSON.stringify(['animated']),
    }),
  });
  cases.push({
    name: `tag ${rare} + ears, uploaded_desc`,
    goal: true,
    params: () => ({
      page: '1',
      sortBy: 'uploaded_desc',
      tags: JSON.stringify([rare]),
      type: JSON.stringify(['ears']),
    }),
  });
  // Beyond the list, for information.
  cases.push({
    name: `(extra) title, 2 letters (${terms.two.join('/')})`,
    goal: false,
    samples: 20,
    params: title(terms.two),
  });
  cases.push({
    name: `(extra) two tags ${popular}+${mid}, 5 samples`,
    goal: false,
    samples: 5,
    params: () => ({ page: '1', sortBy: 'likes_desc', tags: JSON.stringify([popular, mid]) }),
  });
  cases.push({
    name: `(extra) author's items (user=…)`,
    goal: false,
    params: () => ({ page: '1', sortBy: 'uploaded_desc', user: data.userUuids[data.authors[data.hidden.indexOf(0)]] }),
  });
  return cases;
}

/** The filter the route builds from the query parameters (mirrors server/routes/gallery.ts). */
export function toFilter(params: Record<string, string>): GalleryQuery {
  const types = params.type
    ? (JSON.parse(params.type) as GalleryTypeName[]).map((name) => GALLERY_TYPES[name])
    : undefined;
  return {
    page: Number(params.page ?? 1),
    sort: (params.sortBy ?? 'likes_desc') as GallerySort,
    title: params.title?.trim().toLowerCase() || undefined,
    types,
    tags: params.tags ? (JSON.parse(params.tags) as string[]) : undefined,
    author: params.user || undefined,
  };
}

/** The expected total of a filter, counted from the in-memory data set. */
export function expectedTotal(data: Dataset, filter: GalleryQuery, cache: Map<string, number>): number {
  const key = JSON.stringify({ ...filter, page: 0, sort: '' });
  const known = cache.get(key);
  if (known !== undefined) return known;
  const typeSet = filter.types && filter.types.length > 0 ? new Set(filter.types) : null;
  let tagMask = 0;
  for (const tag of filter.tags ?? []) tagMask |= 1 << TAG_POPULARITY.indexOf(tag);
  const author = filter.author ? data.userUuids.indexOf(filter.author) : -1;
  let total = 0;
  for (let i = 0; i < ITEMS; i++) {
    if (data.hidden[i]) continue;
    if (typeSet && !typeSet.has(data.types[i])) continue;
    if ((data.tagMasks[i] & tagMask) !== tagMask) continue;
    if (filter.author && data.authors[i] !== author) continue;
    if (filter.title && !data.titlesLower[i].includes(filter.title)) continue;
    total++;
  }
  cache.set(key, total);
  return total;
}

/** The fields of a gallery answer item the check reads. */
interface ApiItem {
  hash: string;
  title: string;
  total_user_likes: number;
  downloads: number;
  createdAt: string;
}

/**
 * Checks one answer: status, page size, total (a search's total capped at GALLERY_COUNT_CAP) and order; returns a
 * problem or null.
 */
export function checkAnswer(status: number, body: unknown, filter: GalleryQuery, expected: number): string | null {
  if (status !== 200) return `status ${status}: ${JSON.stringify(body).slice(0, 200)}`;
  const page = body as {
    data: ApiItem[];
    total: number;
    total_capped: boolean;
    per_page: number;
    current_page: number;
  };
  const search = Boolean(filter.title) || (filter.tags?.length ?? 0) >= 2;
  const capped = search && expected > GALLERY_COUNT_CAP;
  const total = capped ? GALLERY_COUNT_CAP : expected;
  if (page.total !== total || page.total_capped !== capped)
    return `total ${page.total} (capped ${page.total_capped}), expected ${total} (capped ${capped})`;
  const size = Math.max(0, Math.min(GALLERY_PER_PAGE, expected - (filter.page - 1) * GALLERY_PER_PAGE));
  if (page.data.length !== size) return `${page.data.length} items, expected ${size}`;
  const [field, direction] = filter.sort.split('_');
  const value = (item: ApiItem) =>
    field === 'likes'
      ? item.total_user_likes
      : field === 'downloads'
        ? item.downloads
        : field === 'name'
          ? item.title.toLowerCase()
          : Date.parse(item.createdAt);
  for (let k = 1; k < page.data.length; k++) {
    const a = value(page.data[k - 1]);
    const b = value(page.data[k]);
    if (direction === 'asc' ? a > b : a < b) return `items out of ${filter.sort} order at ${k}`;
  }
  if (filter.title && page.data.some((item) => !item.title.toLowerCase().includes(filter.title!)))
    return 'an item does not match the title';
  return null;
}
