// Unit tests for an image job's size before it runs (server/textures/image-work/job-cost.ts): the pixels it decodes and
// draws, from its pictures' headers, every GIF frame counted.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageJobPixels } from '../../../server/textures/image-work/job-cost.ts';
import { animatedGif, pngHeaderOnly, solidPng } from '../../../support/textures.ts';

const black = { r: 0, g: 0, b: 0, a: 255 };

describe('imageJobPixels', () => {
  it("counts a picture's pixels from its header, every frame of a GIF at twice a PNG's pixel", async () => {
    expect(imageJobPixels('cape', await solidPng(64, 32))).toBe(64 * 32);
    expect(imageJobPixels('textureMap', pngHeaderOnly(2048, 1024))).toBe(2048 * 1024);
    expect(imageJobPixels('cape', await animatedGif(64, 32, 8))).toBe(2 * 64 * 32 * 8);
  });

  it('weights a GIF build 40 times a pixel: its palette reduction is the costliest image work a pixel', async () => {
    expect(imageJobPixels('stripGif', await solidPng(64, 32 * 4))).toBe(40 * 64 * 128);
    expect(imageJobPixels('stripGif', await solidPng(64, 32)), 'a 64 x 32 cape’s GIF is small work').toBeLessThan(
      2048 * 1024,
    );
    expect(imageJobPixels('stripGif', pngHeaderOnly(2048, 1024)), 'a 2048 x 1024 one is not').toBeGreaterThan(
      2048 * 1024,
    );
  });

  it('counts a GIF by the frames a decoder really draws, not by the size its header claims', async () => {
    const honest = await animatedGif(300, 200, 3);
    const claims64x32 = Buffer.from(honest);
    claims64x32.writeUInt16LE(64, 6);
    claims64x32.writeUInt16LE(32, 8);
    const decoded = await sharp(claims64x32, { animated: true }).raw().toBuffer({ resolveWithObject: true });
    expect(decoded.info.width * decoded.info.height, 'the decoder draws every frame at its own size').toBe(
      300 * 200 * 3,
    );
    expect(imageJobPixels('cape', claims64x32)).toBe(2 * 300 * 200 * 3);
    expect(
      imageJobPixels('creation', {
        generator: 'animated',
        input: { gif: claims64x32, background: null, scale: 1, colour: black, elytra: true },
      }),
    ).toBe(2 * 2 * 300 * 200 * 3 + 64 * 32 * 3);
  });

  it('counts a picture whose header tells nothing (a JPEG, junk) as never small', async () => {
    const jpeg = await sharp(await solidPng(8, 8))
      .jpeg()
      .toBuffer();
    expect(imageJobPixels('cape', jpeg)).toBe(Number.POSITIVE_INFINITY);
    expect(imageJobPixels('ears', Buffer.from('not an image'))).toBe(Number.POSITIVE_INFINITY);
    const cutShort = (await animatedGif(64, 32, 2)).subarray(0, 40);
    expect(imageJobPixels('cape', cutShort), 'a GIF whose blocks cannot be walked').toBe(Number.POSITIVE_INFINITY);
  });

  it('counts a creation by its pictures and the cape it draws: an animation decoded twice for the elytra, its strip at most 2048 x 4096', async () => {
    const picture = await solidPng(100, 160);
    expect(
      imageJobPixels('creation', {
        generator: 'image',
        input: { image: picture, scale: 1, colour: 'auto', elytra: false },
      }),
    ).toBe(100 * 160 + 64 * 32);
    const gif = await animatedGif(512, 512, 4);
    const animated = (elytra: boolean, scale: number) =>
      imageJobPixels('creation', {
        generator: 'animated',
        input: { gif, background: null, scale, colour: black, elytra },
      });
    // A GIF's pixel counts twice a PNG's.
    expect(animated(false, 1)).toBe(2 * 512 * 512 * 4 + 64 * 32 * 4);
    expect(animated(true, 1)).toBe(2 * 2 * 512 * 512 * 4 + 64 * 32 * 4);
    expect(animated(false, 6)).toBe(2 * 512 * 512 * 4 + 2048 * 4096);
    expect(
      imageJobPixels('creation', {
        generator: 'optifine',
        input: { top: black, bottom: black, text: black, shadow: black },
      }),
    ).toBe(0);
  });
});
