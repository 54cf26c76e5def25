// Draws a banner's face: its base colour, then each pattern layer over it in order.
import { createImage, type RawImage } from '../../pipeline/raw-image.ts';
import { DYE_RGB, type DyeColour } from './colours.ts';
import { BANNER_HEIGHT, BANNER_WIDTH, patternMask, type PatternId } from './patterns.ts';

/** Most pattern layers a banner may have: the game allows 6 in survival, the banner editors up to 16. */
export const MAX_BANNER_LAYERS = 16;

/** One pattern drawn in one dye colour. */
export interface BannerLayer {
  pattern: PatternId;
  colour: DyeColour;
}

/** A banner: its base colour and its pattern layers, bottom first. */
export interface Banner {
  base: DyeColour;
  layers: BannerLayer[];
}

/** The banner's face as a 20 x 40 opaque image; throws a RangeError for more than MAX_BANNER_LAYERS layers. */
export function renderBanner(banner: Banner): RawImage {
  if (banner.layers.length > MAX_BANNER_LAYERS) {
    throw new RangeError(`A banner has at most ${MAX_BANNER_LAYERS} layers, not ${banner.layers.length}`);
  }
  const pixelCount = BANNER_WIDTH * BANNER_HEIGHT;
  const base = DYE_RGB[banner.base];
  const red = new Float32Array(pixelCount).fill(base.r);
  const green = new Float32Array(pixelCount).fill(base.g);
  const blue = new Float32Array(pixelCount).fill(base.b);
  for (const layer of banner.layers) {
    const mask = patternMask(layer.pattern);
    const colour = DYE_RGB[layer.colour];
    for (let pixel = 0; pixel < pixelCount; pixel++) {
      const alpha = mask[pixel] ?? 0;
      if (alpha === 0) continue;
      red[pixel] = (red[pixel] ?? 0) * (1 - alpha) + colour.r * alpha;
      green[pixel] = (green[pixel] ?? 0) * (1 - alpha) + colour.g * alpha;
      blue[pixel] = (blue[pixel] ?? 0) * (1 - alpha) + colour.b * alpha;
    }
  }
  const image = createImage(BANNER_WIDTH, BANNER_HEIGHT);
  for (let pixel = 0; pixel < pixelCount; pixel++) {
    image.data[pixel * 4] = Math.round(red[pixel] ?? 0);
    image.data[pixel * 4 + 1] = Math.round(green[pixel] ?? 0);
    image.data[pixel * 4 + 2] = Math.round(blue[pixel] ?? 0);
    image.data[pixel * 4 + 3] = 255;
  }
  return image;
}
