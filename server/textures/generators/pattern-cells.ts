// The 40 x 64 cell canvas a prompt pattern is drawn on, and which cells each shape covers (emblems, fields, scattered
// emblems).
import { createImage, type RawImage, type Rgba } from '../pipeline/raw-image.ts';
import type { EmblemKind, FieldKind, PromptDesign } from './prompt-words.ts';

/** The generated image's width in pixels (the cape's front, 10 texels, times 16). */
export const PROMPT_PATTERN_WIDTH = 160;
/** The generated image's height in pixels (the cape's front, 16 texels, times 16). */
export const PROMPT_PATTERN_HEIGHT = 256;
/** The side of one drawn cell in pixels: every shape is drawn on this coarser grid. */
export const PROMPT_PATTERN_CELL = 4;
/** The most characters of text drawn. */
export const PROMPT_TEXT_MAX_LENGTH = 6;

export const GRID_WIDTH = PROMPT_PATTERN_WIDTH / PROMPT_PATTERN_CELL;
export const GRID_HEIGHT = PROMPT_PATTERN_HEIGHT / PROMPT_PATTERN_CELL;
export const MAX_EMBLEMS = 3;

/** The 40 x 64 cell canvas everything is drawn on. */
export class CellCanvas {
  readonly cells = new Uint8Array(GRID_WIDTH * GRID_HEIGHT * 4);

  /** Paints one cell (cells off the canvas are ignored). */
  set(x: number, y: number, colour: Rgba): void {
    if (x < 0 || y < 0 || x >= GRID_WIDTH || y >= GRID_HEIGHT) return;
    const offset = (y * GRID_WIDTH + x) * 4;
    this.cells[offset] = colour.r;
    this.cells[offset + 1] = colour.g;
    this.cells[offset + 2] = colour.b;
    this.cells[offset + 3] = 255;
  }

  /** Paints every cell where `mask` has a value, with the colour for that value. */
  paintMask(mask: Uint8Array, colours: Rgba[]): void {
    for (let index = 0; index < mask.length; index++) {
      const value = mask[index]!;
      if (value > 0) this.set(index % GRID_WIDTH, Math.floor(index / GRID_WIDTH), colours[value - 1]!);
    }
  }

  /** The canvas scaled up to pixels. */
  toImage(): RawImage {
    const image = createImage(PROMPT_PATTERN_WIDTH, PROMPT_PATTERN_HEIGHT);
    const rowBytes = PROMPT_PATTERN_WIDTH * 4;
    const row = Buffer.alloc(rowBytes);
    for (let y = 0; y < GRID_HEIGHT; y++) {
      for (let x = 0; x < GRID_WIDTH; x++) {
        const from = (y * GRID_WIDTH + x) * 4;
        for (let repeat = 0; repeat < PROMPT_PATTERN_CELL; repeat++)
          row.set(this.cells.subarray(from, from + 4), (x * PROMPT_PATTERN_CELL + repeat) * 4);
      }
      for (let repeat = 0; repeat < PROMPT_PATTERN_CELL; repeat++)
        row.copy(image.data, (y * PROMPT_PATTERN_CELL + repeat) * rowBytes);
    }
    return image;
  }
}

/** The point-in-polygon test (even-odd) for a polygon given as [x0, y0, x1, y1, ...]. */
export function insidePolygon(points: readonly number[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 2; i < points.length; j = i, i += 2) {
    const xi = points[i]!;
    const yi = points[i + 1]!;
    const xj = points[j]!;
    const yj = points[j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export const STAR_POLYGON = Array.from({ length: 10 }, (_, point) => {
  const angle = -Math.PI / 2 + (point * Math.PI) / 5;
  const radius = point % 2 === 0 ? 1 : 0.46;
  return [Math.cos(angle) * radius, Math.sin(angle) * radius + 0.1];
}).flat();

/** The flame's outline: a teardrop that flickers to a point at the top (t runs 0 at the tip to 1 at the base). */
export function insideFlame(x: number, y: number): boolean {
  const t = (y + 1) / 2;
  if (t <= 0 || t >= 1) return false;
  const sway = 0.16 * Math.sin(t * 9) * (1 - t);
  const halfWidth = 0.78 * Math.pow(Math.sin(Math.PI * Math.pow(t, 1.45)), 0.75);
  return Math.abs(x - sway) <= halfWidth;
}

/**
 * Where an emblem is at (x, y), in units of its radius with y pointing down: 0 outside, 1 its colour, 2 its second
 * colour.
 */
export function emblemAt(kind: EmblemKind, x: number, y: number): number {
  const radius = Math.hypot(x, y);
  switch (kind) {
    case 'circle':
      return radius <= 1 ? 1 : 0;
    case 'ring':
      return radius <= 1 && radius >= 0.58 ? 1 : 0;
    case 'star':
      return insidePolygon(STAR_POLYGON, x, y) ? 1 : 0;
    case 'heart': {
      const hx = x * 1.22;
      const hy = -y * 1.22 + 0.18;
      const base = hx * hx + hy * hy - 1;
      return base * base * base - hx * hx * hy * hy * hy <= 0 ? 1 : 0;
    }
    case 'diamond':
      return Math.abs(x) / 0.72 + Math.abs(y) <= 1 ? 1 : 0;
    case 'cross':
      return (Math.abs(x) <= 0.3 && Math.abs(y) <= 1) || (Math.abs(y) <= 0.3 && Math.abs(x) <= 1) ? 1 : 0;
    case 'triangle':
      return y >= -0.85 && y <= 0.8 && Math.abs(x) <= ((y + 0.85) / 1.65) * 0.98 ? 1 : 0;
    case 'sun': {
      if (radius <= 0.5) return 1;
      if (radius < 0.64 || radius > 1) return 0;
      const angle = Math.atan2(y, x);
      const offset = Math.abs(angle - Math.round(angle / (Math.PI / 4)) * (Math.PI / 4));
      return offset <= 0.3 * (1 - (radius - 0.64) / 0.36) + 0.04 ? 1 : 0;
    }
    case 'moon':
      return radius <= 1 && Math.hypot(x - 0.42, y + 0.24) > 0.8 ? 1 : 0;
    case 'flame':
      if (!insideFlame(x, y)) return 0;
      return insideFlame(x / 0.55, (y - 0.42) / 0.58) ? 2 : 1;
  }
}

export const CREEPER_FACE = [
  '00000000',
  '00000000',
  '01100110',
  '01100110',
  '00011000',
  '00111100',
  '00111100',
  '00100100',
];

/** The band (colour index) a field pattern has at a cell; for patterns with an ink and a ground, 0 is ink. */
export function fieldBandAt(
  kind: Exclude<FieldKind, 'creeper'>,
  design: PromptDesign,
  colourCount: number,
  x: number,
  y: number,
): number {
  switch (kind) {
    case 'stripes':
      // Two colours alternate in narrow stripes; three or more make one broad stripe each, like a flag.
      if (design.stripeDirection === 'diagonal') return Math.floor((x + y) / 6);
      if (design.stripeDirection === 'vertical')
        return colourCount > 2 ? Math.floor((x * colourCount) / GRID_WIDTH) : Math.floor(x / 8);
      return colourCount > 2 ? Math.floor((y * colourCount) / GRID_HEIGHT) : Math.floor(y / 8);
    case 'checks':
      return Math.floor(x / 8) + Math.floor(y / 8);
    case 'waves':
      return Math.floor((y + 2.6 * Math.sin((2 * Math.PI * (x + 0.5)) / 20) + 8) / 8);
    case 'zigzag': {
      const phase = ((x + 0.5) / 10) % 2;
      return Math.floor((y + 6 * Math.abs(phase - 1) + 8) / 8);
    }
    case 'dots': {
      const row = Math.round((y + 0.5 - 5) / 10);
      const shift = row % 2 === 0 ? 5 : 0;
      const column = Math.round((x + 0.5 - shift) / 10);
      return Math.hypot(x + 0.5 - (column * 10 + shift), y + 0.5 - (row * 10 + 5)) <= 2.9 ? 0 : 1;
    }
    case 'grid':
      return x % 10 === 4 || x % 10 === 5 || y % 10 === 1 || y % 10 === 2 ? 0 : 1;
  }
}

/** Whether a scattered small emblem covers a cell (staggered rows of them). */
export function scatterAt(kind: EmblemKind, x: number, y: number): boolean {
  const row = Math.round((y + 0.5 - 8) / 16);
  const shift = row % 2 === 0 ? 10 : 0;
  const column = Math.round((x + 0.5 - shift) / 20);
  return emblemAt(kind, (x + 0.5 - (column * 20 + shift)) / 6, (y + 0.5 - (row * 16 + 8)) / 6) > 0;
}
