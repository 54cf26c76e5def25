// The metrics' label for each upload refusal: every message an upload can be refused with has a short label, and the
// same kind of refusal has the same label.
import { describe, expect, it } from 'vitest';
import { galleryMessages } from '../../src/lib/gallery-rules.ts';
import { textureMessages } from '../../src/lib/texture-rules.ts';
import { uploadRejectionReason } from '../../server/operations/metrics.ts';
import { BLOCKLISTED_MESSAGE } from '../../server/textures/library/blocklist.ts';
import {
  IMAGE_JOB_TIMEOUT_MESSAGE,
  IMAGE_JOBS_PER_PLAYER_MESSAGE,
  IMAGE_QUEUE_FULL_MESSAGE,
  IMAGE_WORK_BUDGET_MESSAGE,
} from '../../server/images/job-queue.ts';

describe('upload refusal labels', () => {
  it('gives every refusal message of SPEC §5 a short label, and the same label to the same kind of refusal', () => {
    // Every message an upload can be refused with (the gallery's download limit and like message are not upload refusals).
    const { tooManyDownloads: _downloads, loginToLike: _like, ...galleryUploadMessages } = galleryMessages;
    const queueMessages = [IMAGE_JOBS_PER_PLAYER_MESSAGE, IMAGE_WORK_BUDGET_MESSAGE, IMAGE_QUEUE_FULL_MESSAGE, IMAGE_JOB_TIMEOUT_MESSAGE];
    const messages = [...Object.values(textureMessages), ...Object.values(galleryUploadMessages), BLOCKLISTED_MESSAGE, ...queueMessages];
    for (const message of messages) expect(uploadRejectionReason(message), message).toMatch(/^[a-z_]+$/);
    expect(messages.filter((message) => uploadRejectionReason(message) === 'other')).toEqual([]);
    expect(new Set([textureMessages.capeTooBig, textureMessages.earsTooBig, galleryMessages.fileTooBig].map(uploadRejectionReason))).toEqual(
      new Set(['too_big']),
    );
    expect(new Set([textureMessages.capeDimensions, textureMessages.earsDimensions, textureMessages.capeTooLarge].map(uploadRejectionReason))).toEqual(
      new Set(['dimensions']),
    );
    expect(uploadRejectionReason('Something nobody wrote down')).toBe('other');
  });
});
