// Our own artwork for the reference capes: a 64 x 32 cape and elytra texture drawn from an entry's palette and motif,
// and its two enlarged previews.
import { CAPE_REGIONS, CAPE_TEMPLATE_SIZE } from '../src/lib/texture-layout.ts';
import { CAPE_PREVIEW, ELYTRA_PREVIEW, type CapeMotif, type ReferenceCape } from '../src/lib/reference-capes.ts';
import { createImage, parseHexColour, type RawImage, type Rgba } from '../server/textures/pipeline/raw-image.ts';

/** What the drawing needs from an entry. */
export type CapeArt = Pick<ReferenceCape, 'key' | 'palette' | 'motif' | 'text'>;

/** Paints one face: returns the palette index for a pixel of a w x h face, or -1 to leave it transparent. */
type MotifPainter = (x: number, y: number, w: number, h: number) => number;

/** 3 x 5 glyphs for the letter motif, one string of 15 bits (rows top to bottom) per character. */
export const GLYPHS: Readonly<Record<string, string>> = {
  A: '010101111101101',
  B: '110101110101110',
  C: '011100100100011',
  D: '110101101101110',
  E: '111100110100111',
  F: '111100110100100',
  G: '011100101101011',
  H: '101101111101101',
  I: '111010010010111',
  J: '001001001101010',
  K: '101101110101101',
  L: '100100100100111',
  M: '101111111101101',
  N: '110101101101101',
  O: '010101101101010',
  P: '110101110100100',
  Q: '010101101110011',
  R: '110101110101101',
  S: '011100010001110',
  T: '111010010010010',
  U: '101101101101111',
  V: '101101101101010',
  W: '101101111111101',
  X: '101101010101101',
  Y: '101101010010010',
  Z: '111001010100111',
  '0': '111101101101111',
  '1': '010110010010111',
  '2': '110001010100111',
  '3': '110001010001110',
  '4': '101101111001001',
  '5': '111100110001110',
  '6': '011100111101111',
  '7': '111001010010010',
  '8': '111101111101111',
  '9': '111101111001110',
  '?': '110001010000010',
  '!': '010010010000010',
};

/** An 8 x 8 creeper face (1 = face colour). */
const CREEPER_FACE = ['00000000', '01100110', '01100110', '00011000', '00111100', '00111100', '00100100', '00000000'];
/** A 7 x 6 heart. */
const HEART = ['0110110', '1111111', '1111111', '0111110', '0011100', '0001000'];

/** A small deterministic hash of a string, so every cape's fabric shading differs but never changes between runs. */
function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** A deterministic value in -1..1 for a pixel. */
function grain(seed: number, x: number, y: number): number {
  let value = Math.imul(seed ^ Math.imul(x + 1, 374761393) ^ Math.imul(y + 1, 668265263), 1274126177) >>> 0;
  value = (value ^ (value >>> 13)) >>> 0;
  return ((value % 1000) / 999) * 2 - 1;
}

/** Lightens (positive) or darkens (negative) a colour. */
function shade(colour: Rgba, amount: number): Rgba {
  const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value + amount)));
  return { r: clamp(colour.r), g: clamp(colour.g), b: clamp(colour.b), a: colour.a };
}

/** Mixes two colours (t = 0 gives `from`, 1 gives `to`). */
function mix(from: Rgba, to: Rgba, t: number): Rgba {
  const lerp = (a: number, b: number) => Math.round(a + (b - a) * t);
  return { r: lerp(from.r, to.r), g: lerp(from.g, to.g), b: lerp(from.b, to.b), a: 255 };
}

/** Whether a bit mask (rows of '0'/'1') is set at (x, y), outside it being unset. */
function maskAt(rows: readonly string[], x: number, y: number): boolean {
  return y >= 0 && y < rows.length && x >= 0 && x < rows[0]!.length && rows[y]![x] === '1';
}

/** The glyph rows of a text's characters side by side, one column apart. */
function textMask(text: string): string[] {
  const rows = ['', '', '', '', ''];
  [...text].forEach((char, index) => {
    const bits = GLYPHS[char];
    if (!bits) throw new Error(`No glyph for ${JSON.stringify(char)}`);
    for (let row = 0; row < 5; row++) rows[row] += (index > 0 ? '0' : '') + bits.slice(row * 3, row * 3 + 3);
  });
  return rows;
}

/** The painter of each motif; colour 0 is the background, the others are the palette's pattern colours. */
function motifPainter(motif: CapeMotif, colours: number, text: string | undefined): MotifPainter {
  const pattern = (index: number) => 1 + (index % Math.max(1, colours - 1));
  switch (motif) {
    case 'plain':
      return (_x, y, _w, h) => (colours > 1 && (y === 0 || y === h - 1) ? 1 : 0);
    case 'stripes':
      return (_x, y, _w, h) => Math.floor((y * colours) / h) % colours;
    case 'bands':
      return (x, _y, w) => Math.floor((x * colours) / w) % colours;
    case 'gradient':
      // Palette order top to bottom in even steps; the texture is pixel art, so the steps stay hard.
      return (_x, y, _w, h) => Math.min(colours - 1, Math.floor((y * colours) / h));
    case 'checker':
      return (x, y) => ((Math.floor(x / 2) + Math.floor(y / 2)) % 2 === 0 ? 0 : pattern(Math.floor(y / 4)));
    case 'cross':
      return (x, y, w, h) => {
        const cx = w / 2;
        const cy = Math.floor(h * 0.4);
        const onUpright = Math.abs(x + 0.5 - cx) <= 1;
        const onArm = y >= cy - 1 && y <= cy;
        if (onUpright && onArm && colours > 2) return 2;
        return onUpright || onArm ? 1 : 0;
      };
    case 'diamond':
      return (x, y, w, h) => {
        const dx = Math.abs(x + 0.5 - w / 2) / (w / 2);
        const dy = Math.abs(y + 0.5 - h / 2) / (h / 3);
        const distance = dx + dy;
        if (distance <= 0.45 && colours > 2) return 2;
        return distance <= 1 ? 1 : 0;
      };
    case 'ring':
      return (x, y, w, h) => {
        const distance = Math.hypot(x + 0.5 - w / 2, y + 0.5 - h * 0.42);
        if (distance <= 1.6 && colours > 2) return 2;
        return distance >= 2.6 && distance <= 4.2 ? 1 : 0;
      };
    case 'border':
      return (x, y, w, h) => {
        const depth = Math.min(x, y, w - 1 - x, h - 1 - y);
        if (depth === 0) return 1;
        if (depth === 2 && colours > 2) return 2;
        return 0;
      };
    case 'creeper':
      return (x, y, w, h) => {
        const left = Math.floor((w - 8) / 2);
        const top = Math.floor((h - 8) / 2) - 2;
        if (maskAt(CREEPER_FACE, x - left, y - top)) return 1;
        return colours > 2 && (y === h - 1 || y === h - 3) ? 2 : 0;
      };
    case 'heart':
      return (x, y, w, h) => {
        const left = Math.floor((w - 7) / 2);
        const top = Math.floor((h - 6) / 2) - 1;
        if (maskAt(HEART, x - left, y - top)) return 1;
        if (colours > 2 && (maskAt(HEART, x - left - 1, y - top - 1) || maskAt(HEART, x - left + 1, y - top + 1)))
          return 2;
        return 0;
      };
    case 'flower':
      return (x, y, w, h) => {
        // Three blossoms at fixed places on the face: a centre and four petals each.
        const blossoms = [
          [Math.floor(w * 0.3), Math.floor(h * 0.25)],
          [Math.floor(w * 0.7), Math.floor(h * 0.5)],
          [Math.floor(w * 0.3), Math.floor(h * 0.75)],
        ];
        for (const [bx, by] of blossoms) {
          if (x === bx && y === by) return colours > 2 ? 2 : 1;
          if (Math.abs(x - bx!) + Math.abs(y - by!) === 1) return 1;
        }
        return colours > 3 && (x + 2 * y) % 7 === 0 ? 3 : 0;
      };
    case 'tree':
      return (x, y, w, h) => {
        const cx = (w - 1) / 2;
        const top = 2;
        const trunk = h - 3;
        if (y >= trunk && Math.abs(x - cx) <= 0.5) return colours > 2 ? 2 : 1;
        if (y < top || y >= trunk) return 0;
        // Three stacked tiers, each wider than the one above.
        const tierHeight = Math.ceil((trunk - top) / 3);
        const inTier = (y - top) % tierHeight;
        const tier = Math.floor((y - top) / tierHeight);
        const halfWidth = inTier + tier + 0.5;
        if (Math.abs(x - cx) > halfWidth) return 0;
        return colours > 3 && (x + y) % 4 === 0 ? 3 : 1;
      };
    case 'chevron':
      // The first six colours (fewer if the palette is short) as stripes, the rest as nested chevrons from the left
      // edge.
      return (x, y, w, h) => {
        const stripeCount = Math.min(6, colours);
        const chevronCount = colours - stripeCount;
        const depth = x + Math.abs(y + 0.5 - h / 2) * 0.6;
        const band = Math.floor(depth / Math.max(1, (w * 0.6) / Math.max(1, chevronCount)));
        if (chevronCount > 0 && band < chevronCount) return stripeCount + band;
        return Math.floor((y * stripeCount) / h);
      };
    case 'letter': {
      const mask = textMask(text ?? '?');
      const scaleX = mask[0]!.length <= 3 ? 2 : 1;
      return (x, y, w, h) => {
        const glyphWidth = mask[0]!.length * scaleX;
        const left = Math.floor((w - glyphWidth) / 2);
        const top = Math.floor((h - 10) / 2) - 1;
        const at = (px: number, py: number) =>
          maskAt(mask, Math.floor((px - left) / scaleX), Math.floor((py - top) / 2));
        if (at(x, y) && x - left >= 0 && y - top >= 0) return 1;
        if (colours > 2 && x - left >= 1 && y - top >= 1 && at(x - 1, y - 1)) return 2;
        return 0;
      };
    }
  }
}

/** An RGBA image being painted, with a fabric grain on every opaque pixel. */
class CapeCanvas {
  readonly image: RawImage;
  constructor(
    width: number,
    height: number,
    private readonly seed: number,
  ) {
    this.image = createImage(width, height);
  }

  /** Paints one pixel with a slight grain; an alpha of 0 leaves it transparent. */
  set(x: number, y: number, colour: Rgba): void {
    if (colour.a === 0) return;
    const grained = shade(colour, Math.round(grain(this.seed, x, y) * 6));
    this.image.data.set([grained.r, grained.g, grained.b, 255], (y * this.image.width + x) * 4);
  }
}

/** Where a region of the cape layout is, by id. */
function region(id: string): { x: number; y: number; w: number; h: number } {
  const found = CAPE_REGIONS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No cape region ${id}`);
  return found;
}

/**
 * How many columns of a wing face are cut away at a row, on the side away from the spine (the wings taper like wing
 * cases).
 */
export function wingCut(y: number): number {
  if (y === 0) return 1;
  return y < 9 ? 0 : Math.min(7, Math.round((y - 8) * 0.65));
}

/**
 * Draws a cape's 64 x 32 texture: cape front and elytra outside in its motif, the inner faces and edges in darker
 * palette colours.
 */
export function drawReferenceCape(cape: CapeArt): RawImage {
  const colours = cape.palette.map((hex) => {
    const colour = parseHexColour(hex);
    if (!colour) throw new Error(`${cape.key}: ${hex} is not a colour`);
    return colour;
  });
  const canvas = new CapeCanvas(CAPE_TEMPLATE_SIZE.width, CAPE_TEMPLATE_SIZE.height, seedOf(cape.key));
  const paint = motifPainter(cape.motif, colours.length, cape.text);
  const background = colours[0]!;
  const trim = shade(colours[1] ?? background, -25);
  const lining = shade(background, -35);

  const fillFace = (id: string, colourAt: (x: number, y: number, w: number, h: number) => Rgba) => {
    const { x, y, w, h } = region(id);
    for (let py = 0; py < h; py++) for (let px = 0; px < w; px++) canvas.set(x + px, y + py, colourAt(px, py, w, h));
  };
  const motifColour = (px: number, py: number, w: number, h: number) => colours[paint(px, py, w, h)] ?? background;

  // The cape: the motif outside, a plain darker lining, the trim colour round the edges.
  fillFace('cape-front', motifColour);
  fillFace('cape-inner', (_px, py, _w, h) => mix(lining, shade(lining, -20), py / h));
  for (const id of ['cape-top', 'cape-bottom', 'cape-left', 'cape-right']) fillFace(id, () => trim);

  // The elytra: the motif on the outside, the lining inside, both cut to a wing shape; the trim on the edges.
  const transparent: Rgba = { r: 0, g: 0, b: 0, a: 0 };
  // The outside's last column is the spine side, the inside's first (the inner side strip sits left of the inside).
  fillFace('elytra-outer', (px, py, w, h) => (px < wingCut(py) ? transparent : motifColour(px, py, w, h)));
  fillFace('elytra-inner', (px, py, w, h) =>
    w - 1 - px < wingCut(py) ? transparent : mix(lining, shade(lining, -20), py / h),
  );
  for (const id of ['elytra-top', 'elytra-bottom', 'elytra-side-inner', 'elytra-side-outer']) fillFace(id, () => trim);
  return canvas.image;
}

/** Copies a rectangle of an image, optionally mirrored left to right. */
function crop(image: RawImage, x: number, y: number, w: number, h: number, mirror = false): RawImage {
  const out = createImage(w, h);
  for (let py = 0; py < h; py++) {
    for (let px = 0; px < w; px++) {
      const from = ((y + py) * image.width + x + (mirror ? w - 1 - px : px)) * 4;
      image.data.copy(out.data, (py * w + px) * 4, from, from + 4);
    }
  }
  return out;
}

/** Places images side by side on a transparent image. */
function sideBySide(left: RawImage, right: RawImage): RawImage {
  const out = createImage(left.width + right.width, Math.max(left.height, right.height));
  for (const [part, offset] of [
    [left, 0],
    [right, left.width],
  ] as const) {
    for (let py = 0; py < part.height; py++)
      part.data.copy(out.data, (py * out.width + offset) * 4, py * part.width * 4, (py + 1) * part.width * 4);
  }
  return out;
}

/** Enlarges an image by a whole factor, each pixel becoming a square (nearest neighbour). */
export function enlarge(image: RawImage, scale: number): RawImage {
  const out = createImage(image.width * scale, image.height * scale);
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const from = (Math.floor(y / scale) * image.width + Math.floor(x / scale)) * 4;
      image.data.copy(out.data, (y * out.width + x) * 4, from, from + 4);
    }
  }
  return out;
}

/** The cape preview: the cape's front, enlarged. */
export function capePreview(texture: RawImage): RawImage {
  const front = region('cape-front');
  return enlarge(crop(texture, front.x, front.y, front.w, front.h), CAPE_PREVIEW.scale);
}

/**
 * The elytra preview: both wings seen from behind (the left wing is the outside face, the right its mirror image),
 * enlarged.
 */
export function elytraPreview(texture: RawImage): RawImage {
  const outside = region('elytra-outer');
  const wing = crop(texture, outside.x, outside.y, outside.w, outside.h);
  const pair = sideBySide(wing, crop(texture, outside.x, outside.y, outside.w, outside.h, true));
  return enlarge(pair, ELYTRA_PREVIEW.scale);
}
