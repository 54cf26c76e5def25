// The listing's filter labels and helpers (the filters themselves, and how the URL and the API write them, are in
// lib/gallery-query).
import type { GallerySort, GalleryTypeName } from '../../lib/gallery-rules';
import { EMPTY_FILTERS, type GalleryFilters } from '../../lib/gallery-query';

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

/** Whether any filter narrows the listing (the sort alone does not). */
export function hasNarrowingFilters(filters: GalleryFilters): boolean {
  return filters.title.trim() !== '' || filters.types.length > 0 || filters.tags.length > 0;
}

/** The filters with nothing narrowing them, keeping the sort. */
export function clearedFilters(filters: GalleryFilters): GalleryFilters {
  return { ...EMPTY_FILTERS, sort: filters.sort };
}
