// Drawing on the cape texture layout (src/lib/texture-layout.ts): a cape box and elytra filled with a colour, pictures
// fitted onto their faces, at any scale from 64 x 32 to 2048 x 1024. Shared by every cape generator.
import sharp from 'sharp';
import { capeWidthForScale } from '../../../src/lib/creator-rules.ts';
import { createImage, type RawImage, type Rgba } from '../pipeline/raw-image.ts';
import { capeFrameHeight } from '../../../src/lib/texture-layout.ts';

/** A rectangle on the scale-1 (64 x 32) cape texture. */
export interface CapeRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The cape's outside: what other players see from behind. */
export const CAPE_FRONT: CapeRect = { x: 1, y: 1, w: 10, h: 16 };
/** The cape's inside, facing the player's back. */
export const CAPE_INNER: CapeRect = { x: 12, y: 1, w: 10, h: 16 };
/** The whole cape box: top, bottom, both sides, front and inside. */
export const CAPE_BOX: CapeRect = { x: 0, y: 0, w: 22, h: 17 };
/** The elytra's faces (both wings use them). */
export const ELYTRA_FACES: readonly CapeRect[] = [
  { x: 24, y: 0, w: 10, h: 2 },
  { x: 34, y: 0, w: 10, h: 2 },
  { x: 22, y: 2, w: 2, h: 20 },
  { x: 24, y: 2, w: 10, h: 20 },
  { x: 34, y: 2, w: 2, h: 20 },
  { x: 36, y: 2, w: 10, h: 20 },
];
/** The elytra's inside face (towards the player's back). */
export const ELYTRA_INNER: CapeRect = { x: 24, y: 2, w: 10, h: 20 };
/** The elytra's outside face (what others see in flight). */
export const ELYTRA_OUTER: CapeRect = { x: 36, y: 2, w: 10, h: 20 };

/** Fills a rectangle of pixels with one colour. */
export function fillRect(image: RawImage, x: number, y: number, width: number, height: number, colour: Rgba): void {
  for (let row = y; row < y + height; row++) {
    for (let column = x; column < x + width; column++) {
      const offset = (row * image.width + column) * 4;
      image.data[offset] = colour.r;
      image.data[offset + 1] = colour.g;
      image.data[offset + 2] = colour.b;
      image.data[offset + 3] = colour.a;
    }
  }
}

/** A colour between `from` (t = 0) and `to` (t = 1). */
export function mixColours(from: Rgba, to: Rgba, t: number): Rgba {
  const channel = (a: number, b: number) => Math.round(a + (b - a) * t);
  return { r: channel(from.r, to.r), g: channel(from.g, to.g), b: channel(from.b, to.b), a: 255 };
}

/** Fills a face (a scale-1 rectangle at factor `unit`) with a top-to-bottom fade from `top` to `bottom`. */
export function fadeRect(image: RawImage, rect: CapeRect, unit: number, top: Rgba, bottom: Rgba): void {
  const height = rect.h * unit;
  for (let row = 0; row < height; row++) {
    fillRect(
      image,
      rect.x * unit,
      rect.y * unit + row,
      rect.w * unit,
      1,
      mixColours(top, bottom, height > 1 ? row / (height - 1) : 0),
    );
  }
}

/** Draws `source` onto `target` at (x, y), blending by the source's alpha ("over"). */
export function drawOver(target: RawImage, source: RawImage, x: number, y: number): void {
  for (let row = 0; row < source.height; row++) {
    const targetRow = y + row;
    if (targetRow < 0 || targetRow >= target.height) continue;
    for (let column = 0; column < source.width; column++) {
      const targetColumn = x + column;
      if (targetColumn < 0 || targetColumn >= target.width) continue;
      const from = (row * source.width + column) * 4;
      const to = (targetRow * target.width + targetColumn) * 4;
      const alpha = source.data[from + 3]! / 255;
      if (alpha === 0) continue;
      const under = target.data[to + 3]! / 255;
      const out = alpha + under * (1 - alpha);
      for (let channel = 0; channel < 3; channel++) {
        const value = (source.data[from + channel]! * alpha + target.data[to + channel]! * under * (1 - alpha)) / out;
        target.data[to + channel] = Math.round(value);
      }
      target.data[to + 3] = Math.round(out * 255);
    }
  }
}

/** How a picture is fitted into a face: filling it (cropping the overflow), or stretched to it. */
export type FitMode = 'cover' | 'fill';

/** A picture (encoded bytes or raw pixels) scaled to width x height; pixel art (smaller than the face) stays sharp. */
export async function fitImage(
  input: Buffer | RawImage,
  width: number,
  height: number,
  fit: FitMode = 'cover',
): Promise<RawImage> {
  const image = Buffer.isBuffer(input)
    ? sharp(input, { limitInputPixels: 4096 * 4096, failOn: 'error', pages: 1 })
    : sharp(input.data, { raw: { width: input.width, height: input.height, channels: 4 } });
  const { width: sourceWidth = width, height: sourceHeight = height } = Buffer.isBuffer(input)
    ? await image.metadata()
    : input;
  const kernel = sourceWidth < width || sourceHeight < height ? 'nearest' : 'lanczos3';
  const { data, info } = await image
    .ensureAlpha()
    .resize(width, height, { fit, kernel, position: 'centre' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The average colour of a picture's visible pixels (weighted by alpha), opaque; grey for a fully clear picture. */
export function averageColour(image: RawImage): Rgba {
  let r = 0;
  let g = 0;
  let b = 0;
  let weight = 0;
  for (let offset = 0; offset < image.data.length; offset += 4) {
    const alpha = image.data[offset + 3]!;
    r += image.data[offset]! * alpha;
    g += image.data[offset + 1]! * alpha;
    b += image.data[offset + 2]! * alpha;
    weight += alpha;
  }
  if (weight === 0) return { r: 128, g: 128, b: 128, a: 255 };
  return { r: Math.round(r / weight), g: Math.round(g / weight), b: Math.round(b / weight), a: 255 };
}

/** What a cape is drawn from: its scale, the colour of every face, and pictures for the front, inside and elytra. */
export interface CapeDrawing {
  /** 1..6: the texture is 64·2ⁿ⁻¹ wide. */
  scale: number;
  colour: Rgba;
  /** A picture for the outside, fitted to the face. */
  front?: Buffer | RawImage | null;
  /** A picture for the inside; none leaves it the colour. */
  inner?: Buffer | RawImage | null;
  /** A picture for both elytra wings' outer and inner faces; none leaves them the colour. */
  elytra?: Buffer | RawImage | null;
  /** How the pictures are fitted (default cover). */
  fit?: FitMode;
}

/** Fits a picture into one face of a cape texture at factor `unit`. */
async function drawFace(
  cape: RawImage,
  picture: Buffer | RawImage,
  rect: CapeRect,
  unit: number,
  fit: FitMode,
): Promise<void> {
  drawOver(cape, await fitImage(picture, rect.w * unit, rect.h * unit, fit), rect.x * unit, rect.y * unit);
}

/** Draws a cape texture: every cape and elytra face in the colour, then the pictures on their faces. */
export async function drawCape(drawing: CapeDrawing): Promise<RawImage> {
  const width = capeWidthForScale(drawing.scale);
  const unit = width / 64;
  const cape = createImage(width, capeFrameHeight(width));
  const fit = drawing.fit ?? 'cover';
  for (const rect of [CAPE_BOX, ...ELYTRA_FACES])
    fillRect(cape, rect.x * unit, rect.y * unit, rect.w * unit, rect.h * unit, drawing.colour);
  if (drawing.front) await drawFace(cape, drawing.front, CAPE_FRONT, unit, fit);
  if (drawing.inner) await drawFace(cape, drawing.inner, CAPE_INNER, unit, fit);
  if (drawing.elytra) {
    await drawFace(cape, drawing.elytra, ELYTRA_OUTER, unit, fit);
    await drawFace(cape, drawing.elytra, ELYTRA_INNER, unit, fit);
  }
  return cape;
}
