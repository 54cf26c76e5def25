// How big a picture is to the image work that decodes it, read from its header without decoding it: the pixels a
// decoder draws (every frame of a GIF counted). The image job queue judges a job's size by them, and each cape
// generator its own cost.
import { capeWidthForScale } from '../../../src/lib/creator-rules.ts';
import type { PictureHeader } from './image-header.ts';
import { readUpload, type ReadUpload } from './process.ts';

/** The size of a picture whose header tells nothing (a JPEG, a WebP, a broken file): never small. */
const UNKNOWN_PIXELS = Number.POSITIVE_INFINITY;

/**
 * A GIF's pixel costs this many of a PNG's: its frames are decoded from a palette, one by one, then laid out as a strip
 * (bench/image-job-cost.ts).
 */
const GIF_DECODE_WEIGHT = 2;

/** A picture's header: the one read with an upload (which the worker is given too), or read now from its bytes. */
export function headerOf(picture: Uint8Array | ReadUpload): PictureHeader {
  if ('header' in picture) return picture.header;
  return readUpload(Buffer.from(picture.buffer, picture.byteOffset, picture.byteLength)).header;
}

/**
 * A picture's pixels as a decoder will draw them, from its header: a PNG's header size; every frame of a GIF on its
 * real canvas (the frames' own sizes, not what its header claims), up to one frame past the most a cape may have, at a
 * GIF pixel's weight.
 */
export function headerPixels(header: PictureHeader): number {
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
export function capePixels(scale: number): number {
  const width = capeWidthForScale(scale);
  return (width * width) / 2;
}
