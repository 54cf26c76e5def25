// The image-to-cape generator: a picture fitted onto the cape's front and inside (and the elytra when
// asked), every other face in a chosen colour or the picture's average colour.
import sharp from 'sharp';
import { capeWidthForScale } from '../../../src/lib/creator-rules.ts';
import { capePixels, picturePixels } from '../pipeline/picture-pixels.ts';
import type { RawImage, Rgba } from '../pipeline/raw-image.ts';
import { averageColour, drawCape } from './cape-canvas.ts';
import type { GeneratedCape } from './generated.ts';

/** The cape creator's settings and picture. */
export interface ImageCapeInput {
  image: Uint8Array;
  scale: number;
  /** A colour, or 'auto' for the picture's average colour. */
  colour: Rgba | 'auto';
  elytra: boolean;
}

/**
 * The picture decoded once, no larger than the largest face it is fitted to (the elytra's 10 x 20 at the cape's scale).
 */
async function decodePicture(image: Buffer, scale: number): Promise<RawImage> {
  const unit = capeWidthForScale(scale) / 64;
  const { data, info } = await sharp(image, { limitInputPixels: 4096 * 4096, failOn: 'error', pages: 1 })
    .ensureAlpha()
    .resize(20 * unit, 20 * unit, { fit: 'outside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** What drawing it costs, in pixels decoded and drawn: the picture, and the cape. */
export function imageCapePixels(input: ImageCapeInput): number {
  return picturePixels(input.image) + capePixels(input.scale);
}

/** Draws the cape creator's cape. */
export async function drawImageCape(input: ImageCapeInput): Promise<GeneratedCape> {
  const picture = await decodePicture(Buffer.from(input.image), input.scale);
  const colour = input.colour === 'auto' ? averageColour(picture) : input.colour;
  return {
    still: await drawCape({
      scale: input.scale,
      colour,
      front: picture,
      inner: picture,
      elytra: input.elytra ? picture : null,
    }),
  };
}
