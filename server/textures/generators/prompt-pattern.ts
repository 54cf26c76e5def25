// The built-in cape pattern generator: draws a prompt's colour, shape and text words as bold pixel art, with no image
// service. How a prompt is read is on drawPromptPattern.
import { createHash } from 'node:crypto';
import { type RawImage, type Rgba } from '../pipeline/raw-image.ts';
import {
  CellCanvas,
  CREEPER_FACE,
  emblemAt,
  fieldBandAt,
  GRID_HEIGHT,
  GRID_WIDTH,
  MAX_EMBLEMS,
  scatterAt,
} from './pattern-cells.ts';
import {
  DEFAULT_FIELDS,
  EMBLEM_KINDS,
  FALLBACK_PALETTES,
  FIELD_KINDS,
  NATURAL_COLOURS,
  type EmblemKind,
  type FieldKind,
  type PromptDesign,
  type ShapeWord,
} from './prompt-words.ts';
import { PATTERN_FONT } from './pixel-font.ts';
import { BLACK, contrasting, distance, hex, luma, mix, seededRandom, tone, WHITE } from './pattern-colours.ts';
import { normalizePrompt, readDesign } from './prompt-design.ts';

export {
  PROMPT_PATTERN_CELL,
  PROMPT_PATTERN_HEIGHT,
  PROMPT_PATTERN_WIDTH,
  PROMPT_TEXT_MAX_LENGTH,
} from './pattern-cells.ts';
export { PATTERN_COLOURS } from './prompt-words.ts';
export { PATTERN_FONT } from './pixel-font.ts';
export { readPromptText } from './prompt-design.ts';

/**
 * Draws a field pattern: every cell when it is the first (cycling its colours), only its ink cells over an earlier one.
 */
function drawField(
  canvas: CellCanvas,
  design: PromptDesign,
  shape: ShapeWord,
  colours: Rgba[],
  first: boolean,
  random: () => number,
): void {
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

/**
 * Draws an emblem centred at (centreX, centreY) with a radius in cells: a dark outline, a lit top-left edge and a
 * shaded bottom-right one.
 */
function drawEmblem(
  canvas: CellCanvas,
  kind: EmblemKind,
  centreX: number,
  centreY: number,
  radius: number,
  colour: Rgba,
  second: Rgba,
): void {
  const mask = new Uint8Array(GRID_WIDTH * GRID_HEIGHT);
  const reach = Math.ceil(radius) + 1;
  for (let y = Math.max(0, centreY - reach); y < Math.min(GRID_HEIGHT, centreY + reach); y++) {
    for (let x = Math.max(0, centreX - reach); x < Math.min(GRID_WIDTH, centreX + reach); x++) {
      mask[y * GRID_WIDTH + x] = emblemAt(kind, (x + 0.5 - centreX) / radius, (y + 0.5 - centreY) / radius);
    }
  }
  const filled = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < GRID_WIDTH && y < GRID_HEIGHT && mask[y * GRID_WIDTH + x]! > 0;
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
      for (let y = 0; y < unit; y++)
        for (let x = 0; x < unit; x++) canvas.set(left + column * unit + x, top + row * unit + y, colour);
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
            if (cellX >= 0 && cellY >= 0 && cellX < GRID_WIDTH && cellY < GRID_HEIGHT)
              mask[cellY * GRID_WIDTH + cellX] = 2;
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

/**
 * Draws a prompt as a 160 x 256 cape pattern. How a prompt is read (case and extra spaces do not matter; the same
 * prompt always gives the same pixels):
 * - Text: the word after `text:` (`text:GG`, or `text:"GO TEAM"` for several words), else the first phrase in double
 *   quotes ("GG") or single quotes ('GG'), is drawn in the 5x7 pixel font of pixel-font.ts: A-Z, 0-9, space and ! ? . -
 *   + &, other characters dropped, at most PROMPT_TEXT_MAX_LENGTH characters. That part of the prompt is not read for
 *   colours or shapes.
 * - Colours: the names in PATTERN_COLOURS (prompt-words.ts) (also "dark"/"deep" and "light"/"pale" before any of
 *   them, and "rainbow" for six). A colour right after "on" (or right before "background") is the background. Any other
 *   colour belongs to the next shape word; colours after the last shape word belong to it when it has none; an emblem
 *   joined by "and" to the one before it ("a white moon and stars") shares its colours. Colours still left over colour
 *   the background (when none is set) and then the text. With no shape words and no text, they colour a pattern the
 *   prompt's hash picks. Two colours or more alternate in a pattern (three or more make broad stripes, like a flag); a
 *   creeper's second colour is its face's.
 * - Shapes: patterns that cover the cape (stripes, checks, dots, grid, waves, zigzag, creeper), a border, and emblems
 *   drawn in the middle (circle, ring, star, heart, diamond, cross, triangle, sun, moon, flame; up to three, stacked).
 *   The plural of an emblem (stars, hearts, ...) scatters small ones over the cape. "vertical" and "diagonal" turn
 *   stripes.
 * - A shape with no colour gets its natural one (a red heart, an orange flame, a gold sun, a green creeper) or one
 *   from a palette the prompt's hash picks; a background nobody named is a darker or lighter tone of the first colour.
 *   Text alone gets a border, and is white or black, whichever stands out, unless a colour was left for it.
 * The picture is drawn on a grid of 40 x 64 cells (each PROMPT_PATTERN_CELL pixels square; 4 cells make one texel of a
 * 10 x 16 cape front), so it stays crisp when the cape is scaled down.
 */
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
    fields = [
      { kind: DEFAULT_FIELDS[digest[17]! % DEFAULT_FIELDS.length]!, scatter: false, colours: design.looseColours },
    ];
    if (design.stripeDirection === 'horizontal' && digest[18]! % 3 === 0)
      design.stripeDirection = digest[18]! % 2 === 0 ? 'diagonal' : 'vertical';
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
        else if (x === 2 || y === 2 || x === GRID_WIDTH - 3 || y === GRID_HEIGHT - 3)
          canvas.set(x, y, mix(colour, BLACK, 0.45));
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
