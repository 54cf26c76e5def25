// The metrics' label for each upload refusal: every refusal an upload can meet carries a short label, and the same kind
// of refusal has the same label.
import { describe, expect, it } from 'vitest';
import { galleryRefusal, galleryReasons } from '../../../src/lib/gallery-rules.ts';
import { textureRefusal, textureReasons, type TextureMessageKey } from '../../../src/lib/texture-rules.ts';
import { uploadRejectionReason } from '../../../server/operations/metrics.ts';
import { BLOCKLISTED_REFUSAL } from '../../../server/textures/library/blocklist.ts';
import { imageQueueRefusals } from '../../../server/image-jobs/job-queue.ts';
import { TextureRejected } from '../../../server/textures/pipeline/process.ts';

describe('upload refusal labels', () => {
  it('gives every refusal of an upload a short label, and the same label to the same kind of refusal', () => {
    // Every refusal an upload can meet: the texture rules, the gallery's upload rules, the blocklist and the image
    // queue.
    const texture = (key: TextureMessageKey) => new TextureRejected(textureRefusal(key));
    const refusals = [
      ...(Object.keys(textureReasons) as TextureMessageKey[]).map(texture),
      ...(Object.keys(galleryReasons) as Array<keyof typeof galleryReasons>).map(galleryRefusal),
      new TextureRejected(BLOCKLISTED_REFUSAL),
      ...Object.values(imageQueueRefusals),
    ];
    for (const refusal of refusals) expect(uploadRejectionReason(refusal), refusal.message).toMatch(/^[a-z_]+$/);
    expect(refusals.filter((refusal) => uploadRejectionReason(refusal) === 'other')).toEqual([]);
    expect(
      new Set([texture('capeTooBig'), texture('earsTooBig'), galleryRefusal('fileTooBig')].map(uploadRejectionReason)),
    ).toEqual(new Set(['too_big']));
    expect(
      new Set(
        [texture('capeDimensions'), texture('earsDimensions'), texture('capeTooLarge')].map(uploadRejectionReason),
      ),
    ).toEqual(new Set(['dimensions']));
    expect(uploadRejectionReason(new Error('Something nobody wrote down'))).toBe('other');
  });
});
