// The creation cache's key: equal settings and pictures share a key, a different byte or setting does not.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { creationKey } from '../../../server/creators/creations.ts';

const colour = { r: 1, g: 2, b: 3, a: 255 };

describe('creationKey', () => {
  it('is the same for equal settings and picture bytes, whether Buffer or Uint8Array', () => {
    const bytes = Buffer.from([1, 2, 3, 4]);
    const a = creationKey({ generator: 'image', input: { image: bytes, scale: 2, colour, elytra: false } });
    const b = creationKey({
      generator: 'image',
      input: { image: new Uint8Array([1, 2, 3, 4]), scale: 2, colour, elytra: false },
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs when one byte of the picture or one setting differs', () => {
    const base = {
      generator: 'image' as const,
      input: { image: Buffer.from([1, 2, 3, 4]), scale: 2, colour, elytra: false },
    };
    const key = creationKey(base);
    expect(creationKey({ ...base, input: { ...base.input, image: Buffer.from([1, 2, 3, 5]) } })).not.toBe(key);
    expect(creationKey({ ...base, input: { ...base.input, scale: 3 } })).not.toBe(key);
    expect(creationKey({ ...base, input: { ...base.input, elytra: true } })).not.toBe(key);
  });

  it('keys a picture by its SHA-256, not by its bytes spelled out', () => {
    const big = Buffer.alloc(2_000_000, 7);
    const digest = createHash('sha256').update(big).digest('hex');
    const asText = createHash('sha256')
      .update(JSON.stringify({ generator: 'optifineFile', input: `sha256:${digest}` }))
      .digest('hex');
    expect(creationKey({ generator: 'optifineFile', input: big })).toBe(asText);
  });
});
