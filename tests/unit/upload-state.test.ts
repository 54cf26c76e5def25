// The upload state machine (SPEC §4) and the upload pages' helpers: messages with compress links, saved textures from the mod API, skin URLs.
import { describe, expect, it } from 'vitest';
import { skinUrlFor } from '../../src/lib/skin';
import { COMPRESS_URL, textureMessages } from '../../src/lib/texture-rules';
import { CAPE_KIND, EARS_KIND } from '../../src/islands/upload/texture-kinds';
import { heldCape, savedFromProfile, textureMessageDisplay, type HeldTexture } from '../../src/islands/upload/textures';
import { isHoldingFile, uploadReducer, type TextureUploadState } from '../../src/islands/upload/useTextureUpload';

const waiting: TextureUploadState = {
  status: 'waiting',
  held: null,
  progress: 0,
  error: null,
  saved: { cape: { kind: 'image', url: '/textures/old' }, ears: null },
  savedState: 'ready',
  checking: false,
  removing: false,
  resetAfterMs: 0,
};
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
    const saved = { cape: { kind: 'image' as const, url: '/textures/new' }, ears: null };
    state = uploadReducer(state, { type: 'upload-succeeded', saved, resetAfterMs: 3000 });
    expect(state).toMatchObject({ status: 'uploaded', saved, resetAfterMs: 3000 });
    state = uploadReducer(state, { type: 'reset' });
    expect(state).toMatchObject({ status: 'waiting', held: null, saved });
  });

  it('a check failure shows the message and stays in waiting', () => {
    const state = uploadReducer(waiting, { type: 'check-failed', message: textureMessages.capeDimensions });
    expect(state.status).toBe('waiting');
    expect(state.error).toEqual({ kind: 'message', message: textureMessages.capeDimensions.replace("'", '&#39;') });
  });

  it('ignores a new file while one is held (confirming or uploading)', () => {
    const confirming = uploadReducer(waiting, { type: 'check-passed', texture });
    expect(uploadReducer(confirming, { type: 'check-passed', texture: other }).held).toBe(texture);
    expect(uploadReducer(confirming, { type: 'check-failed', message: 'x' })).toBe(confirming);
    const uploading = uploadReducer(confirming, { type: 'upload-started' });
    expect(uploadReducer(uploading, { type: 'check-passed', texture: other }).held).toBe(texture);
    expect(isHoldingFile('confirming') && isHoldingFile('uploading') && !isHoldingFile('uploaded')).toBe(true);
  });

  it('Cancel returns to waiting from confirming only, keeping the saved texture', () => {
    const confirming = uploadReducer(waiting, { type: 'check-passed', texture });
    const cancelled = uploadReducer(confirming, { type: 'cancel' });
    expect(cancelled).toMatchObject({ status: 'waiting', held: null, saved: waiting.saved });
    const uploading = uploadReducer(confirming, { type: 'upload-started' });
    expect(uploadReducer(uploading, { type: 'cancel' })).toBe(uploading);
  });

  it('a failure keeps its message after the reset', () => {
    const uploading = uploadReducer(uploadReducer(waiting, { type: 'check-passed', texture }), { type: 'upload-started' });
    const failed = uploadReducer(uploading, { type: 'upload-failed', error: { kind: 'message', message: 'nope' }, resetAfterMs: 10_000 });
    expect(failed).toMatchObject({ status: 'failed', resetAfterMs: 10_000 });
    expect(uploadReducer(failed, { type: 'reset' })).toMatchObject({ status: 'waiting', error: { message: 'nope' } });
    expect(uploadReducer(waiting, { type: 'reset' })).toBe(waiting);
  });
});

describe('upload page helpers', () => {
  it('resets on the SPEC §4 timers', () => {
    expect(CAPE_KIND.resetMs).toEqual({ uploaded: 3000, serverFailure: 3000, requestError: 10_000 });
    expect(EARS_KIND.resetMs).toEqual({ uploaded: 3000, serverFailure: 3000, requestError: 3000 });
  });

  it('adds the compress link to the "too big" messages only', () => {
    expect(textureMessageDisplay(textureMessages.capeTooBig)).toEqual({
      kind: 'message',
      message: `${textureMessages.capeTooBig} <a href="${COMPRESS_URL}" target="_blank" rel="noopener noreferrer">Compress it here</a>.`,
    });
    expect(textureMessageDisplay(textureMessages.earsTooBig)).toMatchObject({ message: expect.stringContaining(COMPRESS_URL) });
    expect(textureMessageDisplay('<b>x</b>')).toEqual({ kind: 'message', message: '&#60;b&#62;x&#60;/b&#62;' });
  });

  it('reads the saved textures of a mod API profile as other players see them', () => {
    const base = { capeGlint: false, upsideDown: false, animatedCape: false, cape_url: '/t/still', animated_cape_url: '/t/strip', ear_url: '/t/ears' };
    expect(savedFromProfile(base)).toEqual({ cape: { kind: 'image', url: '/t/still' }, ears: '/t/ears' });
    expect(savedFromProfile({ ...base, animatedCape: true })).toEqual({ cape: { kind: 'strip', url: '/t/strip' }, ears: '/t/ears' });
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
