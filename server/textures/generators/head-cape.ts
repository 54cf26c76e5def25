// The head cape generator: a player's face (with the helmet layer when asked) on a cape, its colours
// shifted by the red, green, blue and brightness sliders (-100..100).
import sharp from 'sharp';
import { scaleNearest } from '../pipeline/process.ts';
import { picturePixels } from '../pipeline/picture-pixels.ts';
import { createImage, type RawImage, type Rgba } from '../pipeline/raw-image.ts';
import { CAPE_FRONT, drawCape, drawOver } from './cape-canvas.ts';
import type { GeneratedCape } from './generated.ts';

/** The head cape's settings and the player's skin. */
export interface HeadCapeInput {
  skin: Uint8Array;
  helmet: boolean;
  red: number;
  green: number;
  blue: number;
  brightness: number;
}

/** What drawing it costs, in pixels decoded: the skin. */
export function headCapePixels(input: HeadCapeInput): number {
  return picturePixels(input.skin);
}

/** The face and the helmet layer's face on a 64-wide skin. */
const FACE = { x: 8, y: 8, size: 8 };
const HELMET = { x: 40, y: 8, size: 8 };
/** The head cape's scale: 2 (128 x 64), the face drawn 2 pixels a skin pixel. */
const HEAD_CAPE_SCALE = 2;

/** Cuts one 8 x 8 face (at the skin's own resolution) out of a decoded skin. */
function cutFace(skin: RawImage, at: { x: number; y: number; size: number }, unit: number): RawImage {
  const size = at.size * unit;
  const face = createImage(size, size);
  for (let row = 0; row < size; row++) {
    const from = ((at.y * unit + row) * skin.width + at.x * unit) * 4;
    skin.data.copy(face.data, row * size * 4, from, from + size * 4);
  }
  return face;
}

/**
 * Shifts every pixel's red, green and blue by the sliders (100 = +255), then scales by brightness (100 = twice as
 * bright, -100 = black).
 */
export function adjustColours(
  image: RawImage,
  sliders: { red: number; green: number; blue: number; brightness: number },
): void {
  const shift = [sliders.red, sliders.green, sliders.blue].map((value) => (value * 255) / 100);
  const factor = 1 + sliders.brightness / 100;
  for (let offset = 0; offset < image.data.length; offset += 4) {
    for (let channel = 0; channel < 3; channel++) {
      const value = (image.data[offset + channel]! + shift[channel]!) * factor;
      image.data[offset + channel] = Math.max(0, Math.min(255, Math.round(value)));
    }
  }
}

/** The face's darkest opaque colour, darkened a little more: the cape around the face. */
function surroundColour(face: RawImage): Rgba {
  let best: Rgba = { r: 40, g: 40, b: 40, a: 255 };
  let bestLight = Infinity;
  for (let offset = 0; offset < face.data.length; offset += 4) {
    if (face.data[offset + 3]! < 255) continue;
    const light = face.data[offset]! + face.data[offset + 1]! + face.data[offset + 2]!;
    if (light < bestLight) {
      bestLight = light;
      best = { r: face.data[offset]!, g: face.data[offset + 1]!, b: face.data[offset + 2]!, a: 255 };
    }
  }
  return { r: Math.round(best.r * 0.7), g: Math.round(best.g * 0.7), b: Math.round(best.b * 0.7), a: 255 };
}

/** Draws a player's head cape from their skin (64 x 64, 64 x 32 or an HD multiple). */
export async function drawHeadCape(input: HeadCapeInput): Promise<GeneratedCape> {
  const { data, info } = await sharp(Buffer.from(input.skin), { limitInputPixels: 1024 * 1024, failOn: 'error' })
    .ensureAlpha()
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.width < 64 || info.width % 64 !== 0 || (info.height !== info.width && info.height !== info.width / 2)) {
    throw new Error(`A skin must be 64 x 64 or 64 x 32 (or a multiple), got ${info.width} x ${info.height}`);
  }
  const skin = { data, width: info.width, height: info.height };
  const skinUnit = info.width / 64;
  const face = cutFace(skin, FACE, skinUnit);
  for (let offset = 3; offset < face.data.length; offset += 4) face.data[offset] = 255;
  if (input.helmet) drawOver(face, cutFace(skin, HELMET, skinUnit), 0, 0);
  const cape = await drawCape({ scale: HEAD_CAPE_SCALE, colour: surroundColour(face) });
  const unit = cape.width / 64;
  // The face fills the front's width less a one-pixel border, a third of the way down.
  const faceSize = (CAPE_FRONT.w - 2) * unit;
  const drawn = scaleNearest(face, faceSize, faceSize);
  drawOver(cape, drawn, (CAPE_FRONT.x + 1) * unit, (CAPE_FRONT.y + 3) * unit);
  adjustColours(cape, input);
  return { still: cape };
}
