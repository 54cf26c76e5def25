// The gallery title rules the upload form, the search box and the server share.
import { describe, expect, it } from 'vitest';
import { checkGalleryTitle, cleanTitle, GALLERY_TITLE_MAX } from '../../../src/lib/gallery-rules';

describe('cleanTitle', () => {
  it('removes the disallowed characters first, then cuts to 20 (a pasted long title keeps 20 allowed characters)', () => {
    const cleaned = cleanTitle('Purple-Dusk!! with a very long name');
    expect(cleaned).toBe('PurpleDusk with a ve');
    expect(cleaned).toHaveLength(GALLERY_TITLE_MAX);
    expect(checkGalleryTitle(cleaned)).toBeNull();
  });

  it('leaves a short allowed title as it is', () => {
    expect(cleanTitle('Night_sky 2')).toBe('Night_sky 2');
  });
});
