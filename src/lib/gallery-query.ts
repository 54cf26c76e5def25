// The gallery listing's filters: one canonical shape for the page, the API call and the server, and the two ways it is
// written (the page's own URL, `?type=cape,ears`, and the API query, `type=["cape","ears"]`).
import {
  cleanTitle,
  DEFAULT_GALLERY_SORT,
  GALLERY_SORTS,
  GALLERY_TYPES,
  type GallerySort,
  type GalleryTypeName,
} from './gallery-rules';

/** Longest tag key. */
export const GALLERY_TAG_KEY_MAX = 40;
/** What a tag key looks like: lowercase letters, digits, underscores and dashes. */
export const GALLERY_TAG_KEY_PATTERN = new RegExp(`^[a-z0-9_-]{1,${GALLERY_TAG_KEY_MAX}}$`);
/** Most tags on one item. */
export const GALLERY_TAGS_MAX = 10;

/** The listing's filters, as the sidebar holds them and the server receives them. */
export interface GalleryFilters {
  title: string;
  sort: GallerySort;
  types: GalleryTypeName[];
  tags: string[];
}

/** No filters: every texture, most liked first. */
export const EMPTY_FILTERS: GalleryFilters = { title: '', sort: DEFAULT_GALLERY_SORT, types: [], tags: [] };

/** GET /api/gallery/get's query parameters: lists as JSON text, unset filters left out. */
export interface GalleryListParams {
  page: number;
  sortBy: GallerySort;
  title?: string;
  type?: string;
  tags?: string;
  user?: string;
}

/** The values of a list without repeats, in first-seen order. */
export function uniqueValues<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** The API query for one page of the listing. */
export function galleryListParams(filters: GalleryFilters, page: number): GalleryListParams {
  const params: GalleryListParams = { page, sortBy: filters.sort };
  const title = filters.title.trim();
  if (title) params.title = title;
  if (filters.types.length > 0) params.type = JSON.stringify(filters.types);
  if (filters.tags.length > 0) params.tags = JSON.stringify(filters.tags);
  return params;
}

function commaList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Reads the filters from the page's query string (`?title=&sort=&type=cape,ears&tags=anime,space`); anything unknown is
 * dropped.
 */
export function filtersFromSearch(search: string): GalleryFilters {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  const types = commaList(params.get('type')).filter((name): name is GalleryTypeName => name in GALLERY_TYPES);
  return {
    title: cleanTitle(params.get('title') ?? ''),
    sort: (GALLERY_SORTS as readonly string[]).includes(sort ?? '') ? (sort as GallerySort) : DEFAULT_GALLERY_SORT,
    types: uniqueValues(types),
    tags: uniqueValues(commaList(params.get('tags')).filter((key) => GALLERY_TAG_KEY_PATTERN.test(key))),
  };
}

/** Writes the filters as the page's query string (empty for no filters, defaults left out). */
export function searchFromFilters(filters: GalleryFilters): string {
  const params = new URLSearchParams();
  if (filters.title.trim()) params.set('title', filters.title.trim());
  if (filters.sort !== DEFAULT_GALLERY_SORT) params.set('sort', filters.sort);
  if (filters.types.length > 0) params.set('type', filters.types.join(','));
  if (filters.tags.length > 0) params.set('tags', filters.tags.join(','));
  const text = params.toString();
  return text ? `?${text}` : '';
}
