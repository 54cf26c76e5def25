// Unit tests for the call table's paths (src/lib/api-calls.ts): parameters filled in by name and URI-encoded.
import { describe, expect, it } from 'vitest';
import { apiPath } from '../../../src/lib/api-calls.ts';

describe('apiPath', () => {
  it('gives a call without parameters its path', () => {
    expect(apiPath('galleryTags')).toBe('/api/gallery/tags');
  });

  it('fills in each parameter by name, numbers and flags as text', () => {
    expect(
      apiPath('headCape', { username: 'Notch', red: 10, green: -5, blue: 0, brightness: 3, helmetOverlay: false }),
    ).toBe('/api/gallery/head-capes/Notch/10/-5/0/3/false');
  });

  it('URI-encodes a parameter, so a typed name stays one path segment', () => {
    expect(apiPath('playerLookup', { id: 'a/b?c d' })).toBe('/api/user/search/a%2Fb%3Fc%20d');
  });
});
