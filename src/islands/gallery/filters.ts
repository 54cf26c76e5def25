// The listing's filters in the URL query (?title=&sort=&type=cape,ears&tags=anime,space), so a reload or Back keeps them.
import { DEFAULT_GALLERY_SORT, filterTitleInput, GALLERY_SORTS, GALLERY_TITLE_MAX, GALLERY_TYPES, type GallerySort, type GalleryTypeName } from '../../lib/gallery-rules';
import { EMPTY_FILTERS, type GalleryFilters } from './gallery-api';

/** The sort options with their labels, in the order the select lists them. */
export const SORT_LABELS: Record<GallerySort, string> = {
  likes_desc: 'Most liked',
  likes_asc: 'Least liked',
  downloads_desc: 'Most downloaded',
  downloads_asc: 'Least downloaded',
  name_asc: 'Name A–Z',
  name_desc: 'Name Z–A',
  uploaded_desc: 'Newest',
  uploaded_asc: 'Oldest',
};

/** The type filters with their labels. */
export const TYPE_LABELS: Record<GalleryTypeName, string> = { cape: 'Capes', ears: 'Ears', animated: 'Animated capes' };

function list(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Cleans what a user typed into the title search or title box: allowed characters only, at most 20. */
export function cleanTitle(value: string): string {
  return filterTitleInput(value).slice(0, GALLERY_TITLE_MAX);
}

/** Reads the filters from a query string; anything unknown is dropped. */
export function filtersFromSearch(search: string): GalleryFilters {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  const types = list(params.get('type')).filter((name): name is GalleryTypeName => name in GALLERY_TYPES);
  const tags = list(params.get('tags')).filter((key) => /^[a-z0-9_-]{1,40}$/.test(key));
  return {
    title: cleanTitle(params.get('title') ?? ''),
    sort: (GALLERY_SORTS as readonly string[]).includes(sort ?? '') ? (sort as GallerySort) : DEFAULT_GALLERY_SORT,
    types: [...new Set(types)],
    tags: [...new Set(tags)],
  };
}

/** Writes the filters as a query string (empty for no filters, defaults left out). */
export function searchFromFilters(filters: GalleryFilters): string {
  const params = new URLSearchParams();
  if (filters.title.trim()) params.set('title', filters.title.trim());
  if (filters.sort !== DEFAULT_GALLERY_SORT) params.set('sort', filters.sort);
  if (filters.types.length > 0) params.set('type', filters.types.join(','));
  if (filters.tags.length > 0) params.set('tags', filters.tags.join(','));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Whether any filter narrows the listing (the sort alone does not). */
export function hasNarrowingFilters(filters: GalleryFilters): boolean {
  return filters.title.trim() !== '' || filters.types.length > 0 || filters.tags.length > 0;
}

/** The filters with nothing narrowing them, keeping the sort. */
export function clearedFilters(filters: GalleryFilters): GalleryFilters {
  return { ...EMPTY_FILTERS, sort: filters.sort };
}
