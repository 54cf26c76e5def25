// Unit tests for the gallery listing's one filter shape: the page URL and the API query both carry it unchanged,
// and the server's schema reads the API query back into the same filters.
import { describe, expect, it } from 'vitest';
import { galleryListQuerySchema } from '../../../src/lib/schemas/gallery.ts';
import {
  EMPTY_FILTERS,
  filtersFromSearch,
  galleryListParams,
  searchFromFilters,
  type GalleryFilters,
} from '../../../src/lib/gallery-query.ts';

const FILTERS: GalleryFilters = {
  title: 'dark knight',
  sort: 'downloads_asc',
  types: ['cape', 'animated'],
  tags: ['anime', 'space'],
};

describe('gallery listing filters', () => {
  it('reach the server as the same filters, through the API query of JSON lists', () => {
    const params = galleryListParams(FILTERS, 3);
    expect(params).toEqual({
      page: 3,
      sortBy: 'downloads_asc',
      title: 'dark knight',
      type: '["cape","animated"]',
      tags: '["anime","space"]',
    });
    expect(galleryListQuerySchema.parse(params)).toEqual({ page: 3, author: undefined, ...FILTERS });
  });

  it('send no filter the listing does not use, and the server reads that as no filter', () => {
    const params = galleryListParams(EMPTY_FILTERS, 1);
    expect(params).toEqual({ page: 1, sortBy: 'likes_desc' });
    expect(galleryListQuerySchema.parse(params)).toEqual({ page: 1, author: undefined, ...EMPTY_FILTERS });
  });

  it('are deduplicated once, by the server schema', () => {
    const parsed = galleryListQuerySchema.parse({
      type: '["ears","ears"]',
      tags: '["anime","anime","space"]',
      user: '',
    });
    expect(parsed.types).toEqual(['ears']);
    expect(parsed.tags).toEqual(['anime', 'space']);
    expect(parsed.author).toBeUndefined();
  });

  it('survive the page URL both ways, and unknown values in a typed URL are dropped', () => {
    expect(filtersFromSearch(searchFromFilters(FILTERS))).toEqual(FILTERS);
    expect(searchFromFilters(EMPTY_FILTERS)).toBe('');
    expect(filtersFromSearch('?sort=sideways&type=cape,hats,cape&tags=ok,Bad Tag&title=a<b>')).toEqual({
      title: 'ab',
      sort: 'likes_desc',
      types: ['cape'],
      tags: ['ok'],
    });
  });
});
