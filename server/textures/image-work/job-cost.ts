// How big a piece of image work is before it runs: the pixels it decodes and draws (every frame of a GIF counted), read
// from its pictures' headers without decoding them. The image job queue gives jobs up to a size a lane of their own.
import { capeWidthForScale } from '../../../src/lib/creator-rules.ts';
import { STRIP_MAX_PIXELS } from '../../../src/lib/texture-rules.ts';
import type { CreationRequest } from '../generators/index.ts';
import type { PictureHeader } from '../pipeline/image-header.ts';
import { readUpload, type ReadUpload } from '../pipeline/process.ts';
import type { ImageWorkInput, ImageWorkName } from './catalogue.ts';

/** The size of a picture whose header tells nothing (a JPEG, a WebP, a broken file): never small. */
const UNKNOWN_PIXELS = Number.POSITIVE_INFINITY;

/**
 * A GIF's pixel costs this many of a PNG's: its frames are decoded from a palette, one by one, then laid out as a strip
 * (bench/image-job-cost.ts).
 */
const GIF_DECODE_WEIGHT = 2;

/** A picture's header: the one read with an upload (which the worker is given too), or read now from its bytes. */
function headerOf(picture: Uint8Array | ReadUpload): PictureHeader {
  if ('header' in picture) return picture.header;
  return readUpload(Buffer.from(picture.buffer, picture.byteOffset, picture.byteLength)).header;
}

/**
 * A picture's pixels as a decoder will draw them, from its header: a PNG's header size; every frame of a GIF on its
 * real canvas (the frames' own sizes, not what its header claims), up to one frame past the most a cape may have, at a
 * GIF pixel's weight.
 */
function headerPixels(header: PictureHeader): number {
  if (header.type === 'other' || header.width === 0 || header.height === 0) return UNKNOWN_PIXELS;
  if (header.type === 'png') return header.width * header.height;
  const gif = header.gif;
  return gif === null || gif.frames === 0 ? UNKNOWN_PIXELS : gif.width * gif.height * gif.frames * GIF_DECODE_WEIGHT;
}

/** A picture's pixels as a decoder will draw them (see headerPixels). */
export function picturePixels(picture: Uint8Array | ReadUpload): number {
  return headerPixels(headerOf(picture));
}

/** The pixels of a still cape at a creator's scale. */
function capePixels(scale: number): number {
  const width = capeWidthForScale(scale);
  return (width * width) / 2;
}

/** A creation's pixels: its pictures, and the cape (or the strip of an animation) it draws. */
function creationPixels(request: CreationRequest): number {
  switch (request.generator) {
    case 'image':
      return picturePixels(request.input.image) + capePixels(request.input.scale);
    case 'animated': {
      const { gif, background, scale, elytra } = request.input;
      const header = headerOf(gif);
      const gifPixels = headerPixels(header);
      const frames = header.gif?.frames ?? 1;
      // The GIF is decoded once for the cape's front and once more for the elytra.
      return (
        gifPixels * (elytra ? 2 : 1) +
        (background ? picturePixels(background) : 0) +
        Math.min(STRIP_MAX_PIXELS, capePixels(scale) * frames)
      );
    }
    case 'head':
      return picturePixels(request.input.skin);
    case 'optifineFile':
      return picturePixels(request.input);
    case 'prompt':
      return request.input.width * request.input.height;
    case 'banner':
      return request.input.banner.width * request.input.banner.height;
    case 'optifine':
      return 0;
  }
}

/**
 * Work that costs more a pixel than decoding and re-encoding a picture, as a multiple of that: a GIF's palette
 * reduction and encoding, 16 to 43 times an upload's cost a pixel on pictures of many colours
 * (bench/image-job-cost.ts).
 */
const PIXEL_WEIGHTS: Partial<Record<ImageWorkName, number>> = { stripGif: 40 };

/**
 * How many pixels a piece of image work decodes and draws, judged from its input before it runs, each weighted by what
 * a pixel of that work costs.
 */
export function imageJobPixels<N extends ImageWorkName>(name: N, input: ImageWorkInput<N>): number {
  const pixels =
    name === 'creation' ? creationPixels(input as CreationRequest) : picturePixels(input as Uint8Array | ReadUpload);
  return pixels * (PIXEL_WEIGHTS[name] ?? 1);
}
