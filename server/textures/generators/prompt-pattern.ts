// The built-in cape pattern generator: draws a prompt's colour, shape and text words as bold pixel art, with no image service.
//
// How a prompt is read (case and extra spaces do not matter; the same prompt always gives the same pixels):
// - Text: the word after `text:` (`text:GG`, or `text:"GO TEAM"` for several words), else the first phrase in double
//   quotes ("GG") or single quotes ('GG'), is drawn in the 5x7 pixel font below: A-Z, 0-9, space and ! ? . - + &, other
//   characters dropped, at most PROMPT_TEXT_MAX_LENGTH characters. That part of the prompt is not read for colours or shapes.
// - Colours: the names in PATTERN_COLOURS (also "dark"/"deep" and "light"/"pale" before any of them, and "rainbow" for six).
//   A colour right after "on" (or right before "background") is the background. Any other colour belongs to the next shape
//   word; colours after the last shape word belong to it when it has none; an emblem joined by "and" to the one before it
//   ("a white moon and stars") shares its colours. Colours still left over colour the background (when none is set) and
//   then the text. With no shape words and no text, they colour a pattern the prompt's hash picks. Two colours or more
//   alternate in a pattern (three or more make broad stripes, like a flag); a creeper's second colour is its face's.
// - Shapes: patterns that cover the cape (stripes, checks, dots, grid, waves, zigzag, creeper), a border, and emblems drawn
//   in the middle (circle, ring, star, heart, diamond, cross, triangle, sun, moon, flame; up to three, stacked). The plural
//   of an emblem (stars, hearts, ...) scatters small ones over the cape. "vertical" and "diagonal" turn stripes.
// - A shape with no colour gets its natural one (a red heart, an orange flame, a gold sun, a green creeper) or one from a
//   palette the prompt's hash picks; a background nobody named is a darker or lighter tone of the first colour. Text
//   alone gets a border, and is white or black, whichever stands out, unless a colour was left for it.
// The picture is drawn on a grid of 40 x 64 cells (each PROMPT_PATTERN_CELL pixels square; 4 cells make one texel of a
// 10 x 16 cape front), so it stays crisp when the cape is scaled down.
import { createHash } from 'node:crypto';
import { createImage, parseHexColour, type RawImage, type Rgba } from '../pipeline/raw-image.ts';

/** The generated image's width in pixels (the cape's front, 10 texels, times 16). */
export const PROMPT_PATTERN_WIDTH = 160;
/** The generated image's height in pixels (the cape's front, 16 texels, times 16). */
export const PROMPT_PATTERN_HEIGHT = 256;
/** The side of one drawn cell in pixels: every shape is drawn on this coarser grid. */
export const PROMPT_PATTERN_CELL = 4;
/** The most characters of text drawn. */
export const PROMPT_TEXT_MAX_LENGTH = 6;

const GRID_WIDTH = PROMPT_PATTERN_WIDTH / PROMPT_PATTERN_CELL;
const GRID_HEIGHT = PROMPT_PATTERN_HEIGHT / PROMPT_PATTERN_CELL;
const MAX_EMBLEMS = 3;

/** The colour names a prompt can use, each with the colour drawn for it. */
export const PATTERN_COLOURS: Readonly<Record<string, string>> = {
  red: '#d62828',
  'dark red': '#7a1414',
  maroon: '#6e1423',
  crimson: '#b0122f',
  coral: '#ff6f59',
  orange: '#f77f00',
  gold: '#f2b705',
  golden: '#f2b705',
  yellow: '#ffd60a',
  lime: '#7ed321',
  green: '#2e9e44',
  'dark green': '#1b5e20',
  olive: '#6b7a1e',
  mint: '#98e2c6',
  teal: '#12827c',
  turquoise: '#30d5c8',
  cyan: '#22c7d9',
  aqua: '#22c7d9',
  'light blue': '#6ec1f0',
  'sky blue': '#6ec1f0',
  blue: '#1f5fd1',
  'dark blue': '#123a8a',
  navy: '#14214d',
  indigo: '#3f2b96',
  purple: '#7b2cbf',
  violet: '#9d4edd',
  lavender: '#c3a6f0',
  magenta: '#d61f9b',
  pink: '#ff7eb6',
  brown: '#7b4a26',
  tan: '#d2b48c',
  beige: '#e8d8b0',
  black: '#141414',
  'dark gray': '#3a3a3a',
  'dark grey': '#3a3a3a',
  gray: '#808080',
  grey: '#808080',
  'light gray': '#c8c8c8',
  'light grey': '#c8c8c8',
  silver: '#b8bfc7',
  white: '#f7f7f7',
};

const RAINBOW = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];

/** The 5x7 pixel font: seven rows of five bits per character. */
export const PATTERN_FONT: Readonly<Record<string, string>> = {
  A: '01110 10001 10001 11111 10001 10001 10001',
  B: '11110 10001 10001 11110 10001 10001 11110',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11110 10001 10001 10001 10001 10001 11110',
  E: '11111 10000 10000 11110 10000 10000 11111',
  F: '11111 10000 10000 11110 10000 10000 10000',
  G: '01110 10001 10000 10111 10001 10001 01111',
  H: '10001 10001 10001 11111 10001 10001 10001',
  I: '01110 00100 00100 00100 00100 00100 01110',
  J: '00111 00010 00010 00010 00010 10010 01100',
  K: '10001 10010 10100 11000 10100 10010 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  M: '10001 11011 10101 10101 10001 10001 10001',
  N: '10001 10001 11001 10101 10011 10001 10001',
  O: '01110 10001 10001 10001 10001 10001 01110',
  P: '11110 10001 10001 11110 10000 10000 10000',
  Q: '01110 10001 10001 10001 10101 10010 01101',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  V: '10001 10001 10001 10001 10001 01010 00100',
  W: '10001 10001 10001 10101 10101 10101 01010',
  X: '10001 10001 01010 00100 01010 10001 10001',
  Y: '10001 10001 01010 00100 00100 00100 00100',
  Z: '11111 00001 00010 00100 01000 10000 11111',
  '0': '01110 10001 10011 10101 11001 10001 01110',
  '1': '00100 01100 00100 00100 00100 00100 01110',
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '3': '11111 00010 00100 00010 00001 10001 01110',
  '4': '00010 00110 01010 10010 11111 00010 00010',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '6': '00110 01000 10000 11110 10001 10001 01110',
  '7': '11111 00001 00010 00100 01000 01000 01000',
  '8': '01110 10001 10001 01110 10001 10001 01110',
  '9': '01110 10001 10001 01111 00001 00010 01100',
  '!': '00100 00100 00100 00100 00100 00000 00100',
  '?': '01110 10001 00001 00010 00100 00000 00100',
  '.': '00000 00000 00000 00000 00000 01100 01100',
  '-': '00000 00000 00000 11111 00000 00000 00000',
  '+': '00000 00100 00100 11111 00100 00100 00000',
  '&': '01100 10010 10100 01000 10101 10010 01101',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
};

/** Patterns that cover the whole cape. */
type FieldKind = 'stripes' | 'checks' | 'dots' | 'grid' | 'waves' | 'zigzag' | 'creeper';
/** Shapes drawn once in the middle (or scattered small when the prompt says them in the plural). */
type EmblemKind = 'circle' | 'ring' | 'star' | 'heart' | 'diamond' | 'cross' | 'triangle' | 'sun' | 'moon' | 'flame';
type ShapeKind = FieldKind | EmblemKind | 'border';

/** A shape word as read from a prompt, with the colours that belong to it. */
interface ShapeWord {
  kind: ShapeKind;
  scatter: boolean;
  colours: Rgba[];
}

const FIELD_WORDS: Record<string, FieldKind> = {
  stripes: 'stripes',
  stripe: 'stripes',
  striped: 'stripes',
  lines: 'stripes',
  checks: 'checks',
  check: 'checks',
  checked: 'checks',
  checker: 'checks',
  checkers: 'checks',
  checkered: 'checks',
  chequered: 'checks',
  checkerboard: 'checks',
  dots: 'dots',
  spots: 'dots',
  spotted: 'dots',
  polka: 'dots',
  dotted: 'dots',
  grid: 'grid',
  wave: 'waves',
  waves: 'waves',
  wavy: 'waves',
  zigzag: 'zigzag',
  zigzags: 'zigzag',
  chevron: 'zigzag',
  chevrons: 'zigzag',
  creeper: 'creeper',
};

const EMBLEM_WORDS: Record<string, EmblemKind> = {
  circle: 'circle',
  disc: 'circle',
  dot: 'circle',
  ball: 'circle',
  ring: 'ring',
  donut: 'ring',
  star: 'star',
  heart: 'heart',
  love: 'heart',
  diamond: 'diamond',
  gem: 'diamond',
  cross: 'cross',
  plus: 'cross',
  triangle: 'triangle',
  pyramid: 'triangle',
  sun: 'sun',
  moon: 'moon',
  crescent: 'moon',
  flame: 'flame',
  flames: 'flame',
  fire: 'flame',
};

const SCATTER_WORDS: Record<string, EmblemKind> = {
  circles: 'circle',
  rings: 'ring',
  stars: 'star',
  hearts: 'heart',
  diamonds: 'diamond',
  gems: 'diamond',
  crosses: 'cross',
  triangles: 'triangle',
  moons: 'moon',
};

const FIELD_KINDS = new Set<ShapeKind>(Object.values(FIELD_WORDS));
const EMBLEM_KINDS = new Set<ShapeKind>(Object.values(EMBLEM_WORDS));
const BORDER_WORDS = new Set(['border', 'frame', 'framed', 'outline', 'edge', 'edges']);
const DARKER_WORDS = new Set(['dark', 'deep']);
const LIGHTER_WORDS = new Set(['light', 'pale']);
const BACKGROUND_WORDS = new Set(['background', 'backdrop', 'bg']);

/** The colour an emblem or pattern has when the prompt gives it none and its thing has a natural one. */
const NATURAL_COLOURS: Partial<Record<ShapeKind, string>> = {
  heart: '#d62828',
  flame: '#f46b0a',
  sun: '#f2b705',
  moon: '#f1e6a6',
  creeper: '#4f9d3a',
};

/** Palettes for prompts that name no colour: background, pattern, accent. */
const FALLBACK_PALETTES: readonly (readonly [string, string, string])[] = [
  ['#1d3557', '#e63946', '#f1faee'],
  ['#264653', '#2a9d8f', '#e9c46a'],
  ['#22223b', '#4a4e69', '#f2e9e4'],
  ['#003049', '#f77f00', '#fcbf49'],
  ['#14213d', '#fca311', '#e5e5e5'],
  ['#3d0c11', '#b23a48', '#f2c14e'],
  ['#1b4332', '#52b788', '#d8f3dc'],
  ['#2b2d42', '#8d99ae', '#ef233c'],
  ['#3c096c', '#9d4edd', '#ffd166'],
  ['#0b132b', '#3a506b', '#5bc0be'],
];

const DEFAULT_FIELDS: readonly FieldKind[] = ['stripes', 'checks', 'waves', 'zigzag', 'dots', 'stripes'];

const WHITE = hex('#f7f7f7');
const BLACK = hex('#141414');

/** A colour from a hex string in the tables above. */
function hex(text: string): Rgba {
  const colour = parseHexColour(text);
  if (!colour) throw new Error(`Not a colour: ${text}`);
  return colour;
}

/** a blended towards b by t (0..1). */
function mix(a: Rgba, b: Rgba, t: number): Rgba {
  return {
    r: Math.round(a.r + (b.r - a.r) * t),
    g: Math.round(a.g + (b.g - a.g) * t),
    b: Math.round(a.b + (b.b - a.b) * t),
    a: 255,
  };
}

/** How light a colour looks, 0..1. */
function luma(colour: Rgba): number {
  return (0.299 * colour.r + 0.587 * colour.g + 0.114 * colour.b) / 255;
}

/** How far apart two colours look, 0..~1.5 (lightness counts double). */
function distance(a: Rgba, b: Rgba): number {
  const rgb = Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b) / 441;
  return rgb + Math.abs(luma(a) - luma(b));
}

/** The first candidate that stands out against `ground`, else the one that stands out most. */
function contrasting(candidates: Rgba[], ground: Rgba): Rgba {
  const clear = candidates.find((candidate) => distance(candidate, ground) >= 0.45);
  if (clear) return clear;
  return candidates.reduce((best, candidate) => (distance(candidate, ground) > distance(best, ground) ? candidate : best));
}

/** A darker tone of a light colour or a lighter tone of a dark one. */
function tone(colour: Rgba, strength: number): Rgba {
  return luma(colour) >= 0.3 ? mix(colour, { r: 0, g: 0, b: 0, a: 255 }, strength) : mix(colour, { r: 255, g: 255, b: 255, a: 255 }, strength);
}

/** A small fast PRNG (sfc32) seeded from 16 bytes; returns numbers in [0, 1). */
function seededRandom(seed: Buffer): () => number {
  let a = seed.readUInt32LE(0);
  let b = seed.readUInt32LE(4);
  let c = seed.readUInt32LE(8);
  let d = seed.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** The prompt as it is read: one form for every spelling that means the same. */
function normalizePrompt(prompt: string): string {
  return prompt.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

const TEXT_MARKER = /(?:^|\s)text:\s*(?:"([^"]*)"|'([^']*)'|(\S*))/i;
const DOUBLE_QUOTED = /["“”]([^"“”]*)["“”]/;
const SINGLE_QUOTED = /(?:^|\s)['‘]([^'‘’]*)['’](?=$|[\s.,!?])/;

/** Finds the text part of a prompt: its characters as drawn and where it stands in the prompt. */
function findText(prompt: string): { text: string | null; start: number; end: number } | null {
  const match = TEXT_MARKER.exec(prompt) ?? DOUBLE_QUOTED.exec(prompt) ?? SINGLE_QUOTED.exec(prompt);
  if (!match) return null;
  const raw = match[1] ?? match[2] ?? match[3] ?? '';
  const kept = [...raw.toUpperCase()].filter((character) => character in PATTERN_FONT).join('');
  const text = kept.replace(/ +/g, ' ').trim().slice(0, PROMPT_TEXT_MAX_LENGTH).trim();
  return { text: text || null, start: match.index, end: match.index + match[0].length };
}

/** The text a prompt asks to be drawn (upper case, only characters the font has), or null when it asks for none. */
export function readPromptText(prompt: string): string | null {
  return findText(normalizePrompt(prompt))?.text ?? null;
}

/** What a prompt asks for, as read by the rules in this file's header. */
interface PromptDesign {
  text: string | null;
  background: Rgba | null;
  textColour: Rgba | null;
  shapes: ShapeWord[];
  /** Colours no shape took, when the prompt has neither shapes nor text. */
  looseColours: Rgba[];
  stripeDirection: 'horizontal' | 'vertical' | 'diagonal';
}

/** Reads a colour phrase starting at words[index]: the colours and how many words it took, or null. */
function readColour(words: string[], index: number): { colours: Rgba[]; length: number } | null {
  const word = words[index]!;
  const next = words[index + 1];
  if (word === 'rainbow') return { colours: RAINBOW.map((name) => hex(PATTERN_COLOURS[name]!)), length: 1 };
  if (next !== undefined && (DARKER_WORDS.has(word) || LIGHTER_WORDS.has(word))) {
    const named = PATTERN_COLOURS[`${word === 'deep' ? 'dark' : word === 'pale' ? 'light' : word} ${next}`];
    if (named) return { colours: [hex(named)], length: 2 };
    if (next === 'sky' && words[index + 2] === 'blue') return { colours: [hex(PATTERN_COLOURS['sky blue']!)], length: 3 };
    const base = PATTERN_COLOURS[next];
    if (base) {
      const black = { r: 0, g: 0, b: 0, a: 255 };
      const white = { r: 255, g: 255, b: 255, a: 255 };
      return { colours: [DARKER_WORDS.has(word) ? mix(hex(base), black, 0.45) : mix(hex(base), white, 0.5)], length: 2 };
    }
  }
  if (next !== undefined && PATTERN_COLOURS[`${word} ${next}`]) return { colours: [hex(PATTERN_COLOURS[`${word} ${next}`]!)], length: 2 };
  const named = PATTERN_COLOURS[word];
  return named ? { colours: [hex(named)], length: 1 } : null;
}

/** Reads a shape word, or null. */
function readShape(word: string): Omit<ShapeWord, 'colours'> | null {
  if (FIELD_WORDS[word]) return { kind: FIELD_WORDS[word], scatter: false };
  if (EMBLEM_WORDS[word]) return { kind: EMBLEM_WORDS[word], scatter: false };
  if (SCATTER_WORDS[word]) return { kind: SCATTER_WORDS[word], scatter: true };
  if (BORDER_WORDS.has(word)) return { kind: 'border', scatter: false };
  return null;
}

/** Whether a shape is drawn as an emblem, once or scattered (not a pattern or the border). */
function isEmblem(shape: Omit<ShapeWord, 'colours'>): boolean {
  return shape.scatter || EMBLEM_KINDS.has(shape.kind);
}

/** Reads a (normalised) prompt into what to draw. */
function readDesign(prompt: string): PromptDesign {
  const found = findText(prompt);
  const rest = found ? prompt.slice(0, found.start) + ' ' + prompt.slice(found.end) : prompt;
  const words = rest
    .toLowerCase()
    .replace(/zig[\s-]+zag/g, 'zigzag')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const design: PromptDesign = {
    text: found?.text ?? null,
    background: null,
    textColour: null,
    shapes: [],
    looseColours: [],
    stripeDirection: words.includes('vertical') ? 'vertical' : words.includes('diagonal') ? 'diagonal' : 'horizontal',
  };
  let pending: Rgba[] = [];
  for (let index = 0; index < words.length; index++) {
    const colour = readColour(words, index);
    if (colour) {
      const after = words[index + colour.length];
      const before = words[index - 1] === 'a' || words[index - 1] === 'the' ? words[index - 2] : words[index - 1];
      const shapeFollows = after !== undefined && readShape(after) !== null;
      if (design.background === null && ((before === 'on' && !shapeFollows) || (after !== undefined && BACKGROUND_WORDS.has(after)))) {
        design.background = colour.colours[0]!;
      } else {
        pending.push(...colour.colours);
      }
      index += colour.length - 1;
      continue;
    }
    const shape = readShape(words[index]!);
    if (shape) {
      // "a white moon and stars": an emblem joined by "and" to the one before shares its colours when it has none.
      const previous = design.shapes.at(-1);
      const joined = pending.length === 0 && words[index - 1] === 'and' && previous && isEmblem(previous) && isEmblem(shape);
      design.shapes.push({ ...shape, colours: joined ? [...previous.colours] : pending });
      pending = [];
    }
  }
  const last = design.shapes.at(-1);
  if (last && last.colours.length === 0) {
    last.colours = pending;
    pending = [];
  }
  if (design.shapes.length === 0 && design.text === null) {
    design.looseColours = pending;
    return design;
  }
  if (design.background === null && pending.length > 0) design.background = pending.shift()!;
  if (design.text !== null && pending.length > 0) design.textColour = pending.shift()!;
  return design;
}

/** The 40 x 64 cell canvas everything is drawn on. */
class CellCanvas {
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
        for (let repeat = 0; repeat < PROMPT_PATTERN_CELL; repeat++) row.set(this.cells.subarray(from, from + 4), (x * PROMPT_PATTERN_CELL + repeat) * 4);
      }
      for (let repeat = 0; repeat < PROMPT_PATTERN_CELL; repeat++) row.copy(image.data, (y * PROMPT_PATTERN_CELL + repeat) * rowBytes);
    }
    return image;
  }
}

/** The point-in-polygon test (even-odd) for a polygon given as [x0, y0, x1, y1, ...]. */
function insidePolygon(points: readonly number[], x: number, y: number): boolean {
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

const STAR_POLYGON = Array.from({ length: 10 }, (_, point) => {
  const angle = -Math.PI / 2 + (point * Math.PI) / 5;
  const radius = point % 2 === 0 ? 1 : 0.46;
  return [Math.cos(angle) * radius, Math.sin(angle) * radius + 0.1];
}).flat();

/** The flame's outline: a teardrop that flickers to a point at the top (t runs 0 at the tip to 1 at the base). */
function insideFlame(x: number, y: number): boolean {
  const t = (y + 1) / 2;
  if (t <= 0 || t >= 1) return false;
  const sway = 0.16 * Math.sin(t * 9) * (1 - t);
  const halfWidth = 0.78 * Math.pow(Math.sin(Math.PI * Math.pow(t, 1.45)), 0.75);
  return Math.abs(x - sway) <= halfWidth;
}

/**
 * Where an emblem is at (x, y), in units of its radius with y pointing down: 0 outside, 1 its colour, 2 its second colour.
 */
function emblemAt(kind: EmblemKind, x: number, y: number): number {
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

const CREEPER_FACE = ['00000000', '00000000', '01100110', '01100110', '00011000', '00111100', '00111100', '00100100'];

/** The band (colour index) a field pattern has at a cell; for patterns with an ink and a ground, 0 is ink. */
function fieldBandAt(kind: Exclude<FieldKind, 'creeper'>, design: PromptDesign, colourCount: number, x: number, y: number): number {
  switch (kind) {
    case 'stripes':
      // Two colours alternate in narrow stripes; three or more make one broad stripe each, like a flag.
      if (design.stripeDirection === 'diagonal') return Math.floor((x + y) / 6);
      if (design.stripeDirection === 'vertical') return colourCount > 2 ? Math.floor((x * colourCount) / GRID_WIDTH) : Math.floor(x / 8);
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
function scatterAt(kind: EmblemKind, x: number, y: number): boolean {
  const row = Math.round((y + 0.5 - 8) / 16);
  const shift = row % 2 === 0 ? 10 : 0;
  const column = Math.round((x + 0.5 - shift) / 20);
  return emblemAt(kind, (x + 0.5 - (column * 20 + shift)) / 6, (y + 0.5 - (row * 16 + 8)) / 6) > 0;
}

/** Draws a field pattern: every cell when it is the first (cycling its colours), only its ink cells over an earlier one. */
function drawField(canvas: CellCanvas, design: PromptDesign, shape: ShapeWord, colours: Rgba[], first: boolean, random: () => number): void {
  if (shape.kind === 'creeper') {
    // The creeper's mottled skin, one shade per texel (4 x 4 cells).
    const base = colours[0]!;
    const shades = [base, base, base, mix(base, WHITE, 0.18), mix(base, BLACK, 0.18), mix(base, BLACK, 0.32)];
    for (let texelY = 0; texelY < GRID_HEIGHT / 4; texelY++) {
      for (let texelX = 0; texelX < GRID_WIDTH / 4; texelX++) {
        const shade = shades[Math.floor(random() * shades.length)]!;
        for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) canvas.set(texelX * 4 + x, texelY * 4 + y, shade);
      }
    }
    return;
  }
  for (let y = 0; y < GRID_HEIGHT; y++) {
    for (let x = 0; x < GRID_WIDTH; x++) {
      const band = shape.scatter
        ? scatterAt(shape.kind as EmblemKind, x, y)
          ? 0
          : 1
        : fieldBandAt(shape.kind as Exclude<FieldKind, 'creeper'>, design, colours.length, x, y);
      if (first) canvas.set(x, y, colours[band % colours.length]!);
      else if (band % 2 === 0) canvas.set(x, y, colours[0]!);
    }
  }
}

/** Draws an emblem centred at (centreX, centreY) with a radius in cells: a dark outline, a lit top-left edge and a shaded bottom-right one. */
function drawEmblem(canvas: CellCanvas, kind: EmblemKind, centreX: number, centreY: number, radius: number, colour: Rgba, second: Rgba): void {
  const mask = new Uint8Array(GRID_WIDTH * GRID_HEIGHT);
  const reach = Math.ceil(radius) + 1;
  for (let y = Math.max(0, centreY - reach); y < Math.min(GRID_HEIGHT, centreY + reach); y++) {
    for (let x = Math.max(0, centreX - reach); x < Math.min(GRID_WIDTH, centreX + reach); x++) {
      mask[y * GRID_WIDTH + x] = emblemAt(kind, (x + 0.5 - centreX) / radius, (y + 0.5 - centreY) / radius);
    }
  }
  const filled = (x: number, y: number) => x >= 0 && y >= 0 && x < GRID_WIDTH && y < GRID_HEIGHT && mask[y * GRID_WIDTH + x]! > 0;
  const outline = mix(colour, BLACK, 0.72);
  const light = mix(colour, WHITE, 0.35);
  const shade = mix(colour, BLACK, 0.28);
  const shaded = new Uint8Array(mask.length);
  for (let y = 0; y < GRID_HEIGHT; y++) {
    for (let x = 0; x < GRID_WIDTH; x++) {
      const index = y * GRID_WIDTH + x;
      const value = mask[index]!;
      if (value === 0) {
        if (filled(x - 1, y) || filled(x + 1, y) || filled(x, y - 1) || filled(x, y + 1)) shaded[index] = 1;
      } else if (value === 2) {
        shaded[index] = 5;
      } else if (!filled(x - 1, y) || !filled(x, y - 1)) {
        shaded[index] = 3;
      } else if (!filled(x + 1, y) || !filled(x, y + 1)) {
        shaded[index] = 4;
      } else {
        shaded[index] = 2;
      }
    }
  }
  canvas.paintMask(shaded, [outline, colour, light, shade, second]);
}

/** Draws the creeper's face (8 x 8 texels of `unit` cells) with its top-left cell at (left, top). */
function drawCreeperFace(canvas: CellCanvas, left: number, top: number, unit: number, colour: Rgba): void {
  CREEPER_FACE.forEach((line, row) => {
    [...line].forEach((bit, column) => {
      if (bit !== '1') return;
      for (let y = 0; y < unit; y++) for (let x = 0; x < unit; x++) canvas.set(left + column * unit + x, top + row * unit + y, colour);
    });
  });
}

/** Draws text centred at centreY, `scale` cells per font pixel, with a one-cell outline. */
function drawText(canvas: CellCanvas, text: string, centreY: number, scale: number, colour: Rgba, outline: Rgba): void {
  const mask = new Uint8Array(GRID_WIDTH * GRID_HEIGHT);
  // Glyphs are one font pixel apart, or one cell when that is too wide to fit inside a border (three large ones).
  const gap = text.length * 6 * scale - scale <= 32 ? scale : 1;
  const advance = 5 * scale + gap;
  const width = text.length * advance - 1;
  const left = Math.floor((GRID_WIDTH - width) / 2);
  const top = Math.round(centreY - (7 * scale) / 2);
  [...text].forEach((character, position) => {
    PATTERN_FONT[character]!.split(' ').forEach((line, row) => {
      [...line].forEach((bit, column) => {
        if (bit !== '1') return;
        for (let y = 0; y < scale; y++) {
          for (let x = 0; x < scale; x++) {
            const cellX = left + position * advance + column * scale + x;
            const cellY = top + row * scale + y;
            if (cellX >= 0 && cellY >= 0 && cellX < GRID_WIDTH && cellY < GRID_HEIGHT) mask[cellY * GRID_WIDTH + cellX] = 2;
          }
        }
      });
    });
  });
  for (let y = 0; y < GRID_HEIGHT; y++) {
    for (let x = 0; x < GRID_WIDTH; x++) {
      if (mask[y * GRID_WIDTH + x] !== 0) continue;
      search: for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < GRID_WIDTH && ny < GRID_HEIGHT && mask[ny * GRID_WIDTH + nx] === 2) {
            mask[y * GRID_WIDTH + x] = 1;
            break search;
          }
        }
      }
    }
  }
  canvas.paintMask(mask, [outline, colour]);
}

/** The average colour of the canvas's cells in rows top..bottom (exclusive). */
function averageColour(canvas: CellCanvas, top: number, bottom: number): Rgba {
  let r = 0;
  let g = 0;
  let b = 0;
  const from = Math.max(0, top) * GRID_WIDTH * 4;
  const to = Math.min(GRID_HEIGHT, bottom) * GRID_WIDTH * 4;
  for (let offset = from; offset < to; offset += 4) {
    r += canvas.cells[offset]!;
    g += canvas.cells[offset + 1]!;
    b += canvas.cells[offset + 2]!;
  }
  const count = Math.max(1, (to - from) / 4);
  return { r: Math.round(r / count), g: Math.round(g / count), b: Math.round(b / count), a: 255 };
}

/** Draws a prompt as a 160 x 256 cape pattern; the same prompt always gives the same pixels (see the rules above). */
export function drawPromptPattern(prompt: string): RawImage {
  const normalized = normalizePrompt(prompt);
  const digest = createHash('sha256').update(normalized.toLowerCase()).digest();
  const random = seededRandom(digest);
  const palette = FALLBACK_PALETTES[digest[16]! % FALLBACK_PALETTES.length]!.map(hex);
  const design = readDesign(normalized);

  let fields = design.shapes.filter((shape) => shape.scatter || FIELD_KINDS.has(shape.kind));
  const emblems = design.shapes.filter((shape) => !shape.scatter && EMBLEM_KINDS.has(shape.kind)).slice(0, MAX_EMBLEMS);
  // Text alone gets a border so that it does not float on a bare cape.
  const border =
    design.shapes.find((shape) => shape.kind === 'border') ??
    (design.shapes.length === 0 && design.text ? { kind: 'border', scatter: false, colours: [] } : undefined);
  if (design.shapes.length === 0 && design.text === null) {
    fields = [{ kind: DEFAULT_FIELDS[digest[17]! % DEFAULT_FIELDS.length]!, scatter: false, colours: design.looseColours }];
    if (design.stripeDirection === 'horizontal' && digest[18]! % 3 === 0) design.stripeDirection = digest[18]! % 2 === 0 ? 'diagonal' : 'vertical';
  }
  // The creeper's skin goes under everything else.
  fields.sort((a, b) => Number(b.kind === 'creeper') - Number(a.kind === 'creeper'));

  const naturalColour = (shape: ShapeWord) => {
    const natural = NATURAL_COLOURS[shape.kind];
    return shape.colours[0] ?? (natural ? hex(natural) : null);
  };
  const firstField = fields[0];
  const firstEmblem = emblems[0];
  let ground: Rgba;
  if (design.background) ground = design.background;
  else if (firstField && firstField.colours.length >= 2) ground = firstField.colours[1]!;
  else if (firstField && naturalColour(firstField))
    ground = firstField.kind === 'creeper' ? naturalColour(firstField)! : tone(naturalColour(firstField)!, 0.55);
  else if (!firstField && firstEmblem && naturalColour(firstEmblem)) ground = tone(naturalColour(firstEmblem)!, 0.68);
  else ground = palette[0]!;
  const inkFor = (shape: ShapeWord) => {
    const own = naturalColour(shape);
    if (own && (shape.colours.length > 0 || shape.kind === 'creeper' || distance(own, ground) >= 0.3)) return own;
    return contrasting([palette[1]!, palette[2]!, WHITE, BLACK], ground);
  };

  const canvas = new CellCanvas();
  for (let y = 0; y < GRID_HEIGHT; y++) for (let x = 0; x < GRID_WIDTH; x++) canvas.set(x, y, ground);
  fields.forEach((field, index) => {
    const colours = field.colours.length >= 2 ? field.colours : [inkFor(field), ground];
    drawField(canvas, design, field, colours, index === 0, random);
  });
  if (border) {
    const colour = border.colours[0] ?? contrasting([palette[2]!, palette[1]!, WHITE, BLACK], ground);
    for (let y = 0; y < GRID_HEIGHT; y++) {
      for (let x = 0; x < GRID_WIDTH; x++) {
        if (x < 2 || y < 2 || x >= GRID_WIDTH - 2 || y >= GRID_HEIGHT - 2) canvas.set(x, y, colour);
        else if (x === 2 || y === 2 || x === GRID_WIDTH - 3 || y === GRID_HEIGHT - 3) canvas.set(x, y, mix(colour, BLACK, 0.45));
      }
    }
  }

  // Emblems stack in the space above the text (or in the whole height), one slot each.
  const creeper = fields.find((field) => field.kind === 'creeper');
  const slots = emblems.length + (creeper ? 1 : 0);
  const textScale = design.text && design.text.length <= 3 ? 2 : 1;
  const textBand = design.text ? (slots > 0 ? 7 * textScale + 8 : GRID_HEIGHT) : 0;
  const slotHeight = slots > 0 ? (GRID_HEIGHT - textBand) / slots : 0;
  let slot = 0;
  if (creeper) {
    const unit = Math.max(1, Math.floor(Math.min(slotHeight, GRID_WIDTH) / 10));
    const faceColour = creeper.colours[1] ?? mix(creeper.colours[0] ?? hex(NATURAL_COLOURS.creeper!), BLACK, 0.86);
    const top = Math.round((slotHeight - 8 * unit) / 2 / 4) * 4;
    drawCreeperFace(canvas, Math.round((GRID_WIDTH - 8 * unit) / 2), top, unit, faceColour);
    slot += 1;
  }
  for (const emblem of emblems) {
    const centreY = Math.round(slotHeight * (slot + 0.5));
    const radius = Math.max(4, Math.min(slotHeight, GRID_WIDTH) / 2 - 2);
    const colour = inkFor(emblem);
    const second = emblem.colours[1] ?? (emblem.kind === 'flame' ? hex('#ffd23f') : mix(colour, WHITE, 0.5));
    drawEmblem(canvas, emblem.kind as EmblemKind, GRID_WIDTH / 2, centreY, radius, colour, second);
    slot += 1;
  }
  if (design.text) {
    const top = GRID_HEIGHT - textBand;
    const centreY = top + textBand / 2 - (slots > 0 ? 1 : 0);
    const behind = averageColour(canvas, top, GRID_HEIGHT);
    const colour = design.textColour ?? (luma(behind) < 0.55 ? WHITE : BLACK);
    const outline = luma(colour) < 0.5 ? mix(colour, WHITE, 0.85) : mix(colour, BLACK, 0.85);
    drawText(canvas, design.text, centreY, textScale, colour, outline);
  }
  return canvas.toImage();
}
