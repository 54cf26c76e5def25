// The words a cape pattern prompt is read with: colour names, shape words, and the colours and palettes shapes get when
// none is named.
import { type Rgba } from '../pipeline/raw-image.ts';

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

export const RAINBOW = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];

/** Patterns that cover the whole cape. */
export type FieldKind = 'stripes' | 'checks' | 'dots' | 'grid' | 'waves' | 'zigzag' | 'creeper';
/** Shapes drawn once in the middle (or scattered small when the prompt says them in the plural). */
export type EmblemKind =
  'circle' | 'ring' | 'star' | 'heart' | 'diamond' | 'cross' | 'triangle' | 'sun' | 'moon' | 'flame';
export type ShapeKind = FieldKind | EmblemKind | 'border';

/** A shape word as read from a prompt, with the colours that belong to it. */
export interface ShapeWord {
  kind: ShapeKind;
  scatter: boolean;
  colours: Rgba[];
}

export const FIELD_WORDS: Record<string, FieldKind> = {
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

export const EMBLEM_WORDS: Record<string, EmblemKind> = {
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

export const SCATTER_WORDS: Record<string, EmblemKind> = {
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

export const FIELD_KINDS = new Set<ShapeKind>(Object.values(FIELD_WORDS));
export const EMBLEM_KINDS = new Set<ShapeKind>(Object.values(EMBLEM_WORDS));
export const BORDER_WORDS = new Set(['border', 'frame', 'framed', 'outline', 'edge', 'edges']);
export const DARKER_WORDS = new Set(['dark', 'deep']);
export const LIGHTER_WORDS = new Set(['light', 'pale']);
export const BACKGROUND_WORDS = new Set(['background', 'backdrop', 'bg']);

/** The colour an emblem or pattern has when the prompt gives it none and its thing has a natural one. */
export const NATURAL_COLOURS: Partial<Record<ShapeKind, string>> = {
  heart: '#d62828',
  flame: '#f46b0a',
  sun: '#f2b705',
  moon: '#f1e6a6',
  creeper: '#4f9d3a',
};

/** Palettes for prompts that name no colour: background, pattern, accent. */
export const FALLBACK_PALETTES: readonly (readonly [string, string, string])[] = [
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

export const DEFAULT_FIELDS: readonly FieldKind[] = ['stripes', 'checks', 'waves', 'zigzag', 'dots', 'stripes'];

/** What a prompt asks for, as read by the rules in prompt-pattern.ts's header. */
export interface PromptDesign {
  text: string | null;
  background: Rgba | null;
  textColour: Rgba | null;
  shapes: ShapeWord[];
  /** Colours no shape took, when the prompt has neither shapes nor text. */
  looseColours: Rgba[];
  stripeDirection: 'horizontal' | 'vertical' | 'diagonal';
}
