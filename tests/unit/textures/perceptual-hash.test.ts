// The perceptual hash of textures (server/textures/pipeline/perceptual-hash.ts) on real images made with sharp: a
// re-saved, touched-up or nudged copy of a cape stays within the threshold, different capes stay well outside it, and
// pictures too simple to recognise match nothing.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  hammingDistance,
  isPerceptualMatch,
  NO_PERCEPTUAL_HASH,
  PERCEPTUAL_MATCH_DISTANCE,
  perceptualHash,
  perceptualProbes,
} from '../../../server/textures/pipeline/perceptual-hash.ts';
import {
  blobsDesign,
  designPng,
  gradientDesign,
  reencodedGif,
  rgbaPixels,
  shiftedPng,
  solidPng,
  withChangedPixels,
  type CapeCoverage,
} from '../../../support/textures.ts';

/** How far an upload comes from a blocklisted hash: the nearest of its probes. */
async function uploadDistance(blocked: string, upload: Buffer): Promise<number> {
  return Math.min(...(await perceptualProbes(upload)).map((probe) => hammingDistance(blocked, probe)));
}

describe('hammingDistance', () => {
  it('counts the bits two hashes differ in', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', '000000000000000f')).toBe(4);
    expect(hammingDistance('7fffffffffffffff', '0000000000000000')).toBe(63);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
  });

  it('refuses anything but 16 lowercase hex digits', () => {
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow();
    expect(() => hammingDistance('000000000000000G', '0000000000000000')).toThrow();
  });
});

describe('perceptualHash', () => {
  const canvases: Array<{ width: number; height: number; coverage: CapeCoverage }> = [
    { width: 64, height: 32, coverage: 'cape' },
    { width: 64, height: 32, coverage: 'cape-and-elytra' },
    { width: 64, height: 32, coverage: 'full' },
    { width: 512, height: 256, coverage: 'cape' },
  ];
  const capes: Array<{ name: string; png: Buffer; hash: string }> = [];

  beforeAll(async () => {
    for (const { width, height, coverage } of canvases) {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const png = await designPng(width, height, blobsDesign(seed), coverage);
        capes.push({ name: `design ${seed} on ${coverage} ${width}x${height}`, png, hash: await perceptualHash(png) });
      }
    }
  });

  it('gives 16 hex digits with the DC bit clear for a drawn cape', () => {
    for (const cape of capes) expect(cape.hash, cape.name).toMatch(/^[0-7][0-9a-f]{15}$/);
  });

  it('keeps a re-encoded copy (a dithered 64-colour GIF), one with a few pixels changed and one nudged by 1-2 pixels within the threshold', async () => {
    const copies: Array<[string, (png: Buffer) => Promise<Buffer>]> = [
      ['re-encoded', reencodedGif],
      ['3 pixels changed', (png) => withChangedPixels(png, 3, 7)],
      ['3 pixels changed anywhere', (png) => withChangedPixels(png, 3, 11, true)],
      ['shifted 1 right', (png) => shiftedPng(png, 1, 0)],
      ['shifted 1 left', (png) => shiftedPng(png, -1, 0)],
      ['shifted 1 up', (png) => shiftedPng(png, 0, -1)],
      ['shifted 1 down', (png) => shiftedPng(png, 0, 1)],
      ['shifted 2 right 2 down', (png) => shiftedPng(png, 2, 2)],
      ['shifted 2 right 1 up', (png) => shiftedPng(png, 2, -1)],
    ];
    for (const cape of capes) {
      for (const [kind, make] of copies) {
        const copy = await make(cape.png);
        expect(await uploadDistance(cape.hash, copy), `${cape.name}, ${kind}`).toBeLessThanOrEqual(
          PERCEPTUAL_MATCH_DISTANCE,
        );
        expect(isPerceptualMatch(await perceptualProbes(copy), cape.hash)).toBe(true);
      }
    }
  });

  it('keeps the same cape scaled up (nearest neighbour) within the threshold', async () => {
    for (const cape of capes.filter((candidate) => candidate.name.endsWith('64x32'))) {
      const scaled = await sharp(cape.png).resize(256, 128, { kernel: 'nearest' }).png().toBuffer();
      expect(await uploadDistance(cape.hash, scaled), cape.name).toBeLessThanOrEqual(PERCEPTUAL_MATCH_DISTANCE);
    }
  });

  it('keeps different capes well outside the threshold (at least 4 bits beyond it), on the layout, painted all over and in HD', async () => {
    let nearest = 64;
    for (const [i, a] of capes.entries()) {
      for (const b of capes.slice(i + 1)) {
        if (a.name.split(' on ')[0] === b.name.split(' on ')[0]) continue; // the same design at another size or coverage
        const distance = await uploadDistance(a.hash, b.png);
        nearest = Math.min(nearest, distance);
        expect(isPerceptualMatch(await perceptualProbes(b.png), a.hash), `${a.name} / ${b.name}`).toBe(false);
      }
    }
    expect(nearest).toBeGreaterThanOrEqual(PERCEPTUAL_MATCH_DISTANCE + 4);
  });

  it('ignores the colour hidden under transparent pixels', async () => {
    const cape = capes[0]!;
    const { data, width, height } = await rgbaPixels(cape.png);
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 0) data.set([255, 0, 255], i);
    const hidden = await sharp(data, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    expect(await perceptualHash(hidden)).toBe(cape.hash);
  });

  it("hashes an animation's strip by its first frame, as its still", async () => {
    const still = await designPng(64, 32, blobsDesign(3), 'cape');
    const other = await designPng(64, 32, blobsDesign(4), 'cape');
    const strip = await sharp(still)
      .extend({ bottom: 32, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .composite([{ input: other, top: 32, left: 0 }])
      .png()
      .toBuffer();
    expect(await perceptualHash(strip)).toBe(await perceptualHash(still));
  });

  it('gives pictures too simple to recognise no hash, and they match nothing, not even themselves', async () => {
    const simple = [
      await solidPng(64, 32, [200, 30, 30, 255]),
      await solidPng(14, 7, [20, 30, 120, 255]),
      await designPng(64, 32, () => [200, 30, 30, 255], 'cape'),
      await designPng(64, 32, () => [20, 30, 120, 255], 'cape-and-elytra'),
      await designPng(64, 32, gradientDesign([20, 20, 160, 255], [240, 200, 40, 255]), 'full'),
      await solidPng(64, 32, [0, 0, 0, 0]),
    ];
    for (const png of simple) expect(await perceptualHash(png)).toBe(NO_PERCEPTUAL_HASH);
    expect(isPerceptualMatch([NO_PERCEPTUAL_HASH], NO_PERCEPTUAL_HASH)).toBe(false);
    expect(isPerceptualMatch([capes[0]!.hash], NO_PERCEPTUAL_HASH)).toBe(false);
  });

  it('recognises a one-colour symbol on a transparent cape by its outline', async () => {
    const symbol = await designPng(
      64,
      32,
      (x, y) => (Math.abs(x - 6) < 2 || Math.abs(y - 8) < 2 || (x > 8 && y < 6) ? [10, 10, 10, 255] : [0, 0, 0, 0]),
      'cape',
    );
    const hash = await perceptualHash(symbol);
    expect(hash).not.toBe(NO_PERCEPTUAL_HASH);
    expect(isPerceptualMatch(await perceptualProbes(await shiftedPng(symbol, 1, 1)), hash)).toBe(true);
  });
});
