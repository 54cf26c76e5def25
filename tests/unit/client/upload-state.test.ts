// The one upload state machine of the cape, ears and gallery upload pages, and the upload helpers: messages with
// compress links, saved textures from the mod API, skin URLs.
import { describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules';
import { skinUrlFor } from '../../../src/lib/skin';
import { COMPRESS_URL, textureMessages } from '../../../src/lib/texture-rules';
import { GALLERY_FAILED_RESET_MS } from '../../../src/islands/gallery/GalleryUpload';
import { heldCape, textureMessageDisplay, type HeldTexture } from '../../../src/islands/shared/texture-files';
import {
  initialUploadState,
  isHoldingFile,
  uploadReducer,
  type UploadState,
} from '../../../src/islands/shared/useUploadFlow';
import { savedFromProfile } from '../../../src/islands/upload/saved-textures';
import { CAPE_KIND, EARS_KIND } from '../../../src/islands/upload/texture-kinds';

const waiting: UploadState = initialUploadState;
const texture = { url: 'blob:new', width: 64, height: 32, frames: null } as unknown as HeldTexture;
const other = { ...texture, url: 'blob:other' } as HeldTexture;

describe('uploadReducer', () => {
  it('goes waiting → confirming → uploading → uploaded → waiting', () => {
    let state = uploadReducer(waiting, { type: 'check-started' });
    expect(state.checking).toBe(true);
    state = uploadReducer(state, { type: 'check-passed', texture });
    expect(state).toMatchObject({ status: 'confirming', held: texture, checking: false });
    state = uploadReducer(state, { type: 'upload-started' });
    expect(state.status).toBe('uploading');
    state = uploadReducer(state, { type: 'progress', fraction: 0.5 });
    expect(state.progress).toBe(0.5);
    state = uploadReducer(state, { type: 'upload-succeeded', resetAfterMs: 3000 });
    expect(state).toMatchObject({ status: 'uploaded', progress: 1, resetAfterMs: 3000 });
    // The cape and ears pages take a new file during the 3 s of uploaded.
    expect(isHoldingFile(state)).toBe(false);
    state = uploadReducer(state, { type: 'reset' });
    expect(state).toMatchObject({ status: 'waiting', held: null, progress: 0 });
  });

  it('an upload the page moves on from (gallery: opens the texture) stays uploaded and keeps its file', () => {
    const uploading = uploadReducer(uploadReducer(waiting, { type: 'check-passed', texture }), {
      type: 'upload-started',
    });
    const uploaded = uploadReducer(uploading, { type: 'upload-succeeded', resetAfterMs: null });
    expect(uploaded).toMatchObject({ status: 'uploaded', held: texture, resetAfterMs: null });
    expect(isHoldingFile(uploaded)).toBe(true);
    expect(uploadReducer(uploaded, { type: 'check-started' })).toBe(uploaded);
    expect(uploadReducer(uploaded, { type: 'check-passed', texture: other })).toBe(uploaded);
  });

  it("keeps the server's notice (an animation scaled to fit) readable after the reset, until the next file or upload", () => {
    const notice = 'The animation was scaled to 512 × 256 a frame to fit.';
    let state = uploadReducer(uploadReducer(waiting, { type: 'check-passed', texture }), { type: 'upload-started' });
    state = uploadReducer(state, { type: 'upload-succeeded', resetAfterMs: 3000, notice });
    expect(state).toMatchObject({ status: 'uploaded', notice });
    state = uploadReducer(state, { type: 'reset' });
    expect(state).toMatchObject({ status: 'waiting', notice });
    state = uploadReducer(state, { type: 'check-started' });
    expect(state.notice).toBeNull();
    state = uploadReducer(uploadReducer(state, { type: 'check-passed', texture }), { type: 'upload-started' });
    expect(uploadReducer(state, { type: 'upload-succeeded', resetAfterMs: 3000 }).notice).toBeNull();
  });

  it('a check failure shows the message and stays in waiting', () => {
    const state = uploadReducer(waiting, { type: 'check-failed', message: textureMessages.capeDimensions });
    expect(state.status).toBe('waiting');
    expect(state.error).toEqual({ kind: 'message', message: textureMessages.capeDimensions });
    const gallery = uploadReducer(waiting, { type: 'check-failed', message: galleryMessages.fileTooBig });
    expect(gallery.error).toMatchObject({ message: galleryMessages.fileTooBig, link: { href: COMPRESS_URL } });
  });

  it('a message the page sets (a missing field, a failed removal) shows without changing the state', () => {
    const confirming = uploadReducer(waiting, { type: 'check-passed', texture });
    const error = { kind: 'message' as const, message: galleryMessages.missingFields };
    expect(uploadReducer(confirming, { type: 'show-message', error })).toEqual({ ...confirming, error });
    expect(
      uploadReducer(uploadReducer(waiting, { type: 'show-message', error }), { type: 'show-message', error: null }),
    ).toEqual(waiting);
  });

  it('ignores a new file while one is held (confirming or uploading)', () => {
    const confirming = uploadReducer(waiting, { type: 'check-passed', texture });
    expect(uploadReducer(confirming, { type: 'check-passed', texture: other }).held).toBe(texture);
    expect(uploadReducer(confirming, { type: 'check-failed', message: 'x' })).toBe(confirming);
    const uploading = uploadReducer(confirming, { type: 'upload-started' });
    expect(uploadReducer(uploading, { type: 'check-passed', texture: other }).held).toBe(texture);
    expect(isHoldingFile(confirming) && isHoldingFile(uploading)).toBe(true);
  });

  it('Cancel returns to waiting from confirming only, dropping the file', () => {
    const confirming = uploadReducer(waiting, { type: 'check-passed', texture });
    const cancelled = uploadReducer(confirming, { type: 'cancel' });
    expect(cancelled).toEqual(waiting);
    const uploading = uploadReducer(confirming, { type: 'upload-started' });
    expect(uploadReducer(uploading, { type: 'cancel' })).toBe(uploading);
  });

  it('a failure keeps its message after the reset', () => {
    const uploading = uploadReducer(uploadReducer(waiting, { type: 'check-passed', texture }), {
      type: 'upload-started',
    });
    const failed = uploadReducer(uploading, {
      type: 'upload-failed',
      error: { kind: 'message', message: 'nope' },
      resetAfterMs: 10_000,
    });
    expect(failed).toMatchObject({ status: 'failed', resetAfterMs: 10_000 });
    expect(uploadReducer(failed, { type: 'reset' })).toMatchObject({ status: 'waiting', error: { message: 'nope' } });
    expect(uploadReducer(waiting, { type: 'reset' })).toBe(waiting);
  });
});

describe('upload page helpers', () => {
  it('resets after 3 s, or 10 s after a cape request error', () => {
    expect(CAPE_KIND.resetMs).toEqual({ uploaded: 3000, serverFailure: 3000, requestError: 10_000 });
    expect(EARS_KIND.resetMs).toEqual({ uploaded: 3000, serverFailure: 3000, requestError: 3000 });
    expect(GALLERY_FAILED_RESET_MS).toBe(3000);
  });

  it('adds the compress link to the "too big" messages only', () => {
    expect(textureMessageDisplay(textureMessages.capeTooBig)).toEqual({
      kind: 'message',
      message: textureMessages.capeTooBig,
      link: { href: COMPRESS_URL, label: 'Compress it here' },
    });
    // Ears are plural: 'Compress them here'.
    expect(textureMessageDisplay(textureMessages.earsTooBig)).toMatchObject({
      link: { href: COMPRESS_URL, label: 'Compress them here' },
    });
    expect(textureMessageDisplay('<b>x</b>')).toEqual({ kind: 'message', message: '<b>x</b>' });
  });

  it('reads the saved textures of a mod API profile as other players see them', () => {
    const base = {
      capeGlint: false,
      upsideDown: false,
      animatedCape: false,
      cape_url: '/t/still',
      animated_cape_url: '/t/strip',
      ear_url: '/t/ears',
    };
    expect(savedFromProfile(base)).toEqual({ cape: { kind: 'image', url: '/t/still' }, ears: '/t/ears' });
    expect(savedFromProfile({ ...base, animatedCape: true })).toEqual({
      cape: { kind: 'strip', url: '/t/strip' },
      ears: '/t/ears',
    });
    expect(savedFromProfile(null)).toEqual({ cape: null, ears: null });
  });

  it('gives the preview the same cape object for the same held file', () => {
    expect(heldCape(texture)).toBe(heldCape(texture));
    expect(heldCape(texture)).toEqual({ kind: 'image', url: 'blob:new' });
    expect(heldCape(other)).not.toBe(heldCape(texture));
  });

  it('fills the skin service template', () => {
    expect(skinUrlFor('abc123')).toBe('https://crafatar.com/skins/abc123');
    expect(skinUrlFor('abc', 'https://skins.example/{uuid}.png')).toBe('https://skins.example/abc.png');
  });
});
