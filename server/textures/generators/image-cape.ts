// The image-to-cape generator (SPEC §2 Creators): a picture fitted onto the cape's front and inside (and the elytra when
// asked), every other face in a chosen colour or the picture's average colour.
import sharp from 'sharp';
import type { Rgba } from '../raw-image.ts';
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

/** The average colour of an encoded picture (sampled at 32 x 32). */
async function pictureColour(image: Buffer): Promise<Rgba> {
  const { data, info } = await sharp(image, { limitInputPixels: 4096 * 4096, failOn: 'error', pages: 1 })
    .ensureAlpha()
    .resize(32, 32, { fit: 'fill' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return averageColour({ data, width: info.width, height: info.height });
}

/** Draws the cape creator's cape. */
export async function drawImageCape(input: ImageCapeInput): Promise<GeneratedCape> {
  const image = Buffer.from(input.image);
  const colour = input.colour === 'auto' ? await pictureColour(image) : input.colour;
  return { still: await drawCape({ scale: input.scale, colour, front: image, inner: image, elytra: input.elytra ? image : null }) };
}
