// How big a piece of image work is before it runs: the pixels it decodes and draws (every frame of a GIF counted), read
// from its pictures' headers without decoding them; a creation's by its generator's own cost. The image job queue
// gives jobs up to a size a lane of their own.
import { creationPixels, type CreationRequest } from '../generators/index.ts';
import { picturePixels } from '../pipeline/picture-pixels.ts';
import type { ReadUpload } from '../pipeline/process.ts';
import type { ImageWorkInput, ImageWorkName } from './catalogue.ts';

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
