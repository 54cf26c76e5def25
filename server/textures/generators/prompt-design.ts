// Reading a cape pattern prompt into what to draw: its text, colours and shapes (the rules are in prompt-pattern.ts's
// header).
import { type Rgba } from '../pipeline/raw-image.ts';
import { PROMPT_TEXT_MAX_LENGTH } from './pattern-cells.ts';
import {
  BACKGROUND_WORDS,
  BORDER_WORDS,
  DARKER_WORDS,
  EMBLEM_KINDS,
  EMBLEM_WORDS,
  FIELD_WORDS,
  LIGHTER_WORDS,
  PATTERN_COLOURS,
  RAINBOW,
  SCATTER_WORDS,
  type PromptDesign,
  type ShapeWord,
} from './prompt-words.ts';
import { PATTERN_FONT } from './pixel-font.ts';
import { hex, mix } from './pattern-colours.ts';

/** The prompt as it is read: one form for every spelling that means the same. */
export function normalizePrompt(prompt: string): string {
  return prompt.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

export const TEXT_MARKER = /(?:^|\s)text:\s*(?:"([^"]*)"|'([^']*)'|(\S*))/i;
export const DOUBLE_QUOTED = /["“”]([^"“”]*)["“”]/;
export const SINGLE_QUOTED = /(?:^|\s)['‘]([^'‘’]*)['’](?=$|[\s.,!?])/;

/** Finds the text part of a prompt: its characters as drawn and where it stands in the prompt. */
export function findText(prompt: string): { text: string | null; start: number; end: number } | null {
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

/** Reads a colour phrase starting at words[index]: the colours and how many words it took, or null. */
export function readColour(words: string[], index: number): { colours: Rgba[]; length: number } | null {
  const word = words[index]!;
  const next = words[index + 1];
  if (word === 'rainbow') return { colours: RAINBOW.map((name) => hex(PATTERN_COLOURS[name]!)), length: 1 };
  if (next !== undefined && (DARKER_WORDS.has(word) || LIGHTER_WORDS.has(word))) {
    const named = PATTERN_COLOURS[`${word === 'deep' ? 'dark' : word === 'pale' ? 'light' : word} ${next}`];
    if (named) return { colours: [hex(named)], length: 2 };
    if (next === 'sky' && words[index + 2] === 'blue')
      return { colours: [hex(PATTERN_COLOURS['sky blue']!)], length: 3 };
    const base = PATTERN_COLOURS[next];
    if (base) {
      const black = { r: 0, g: 0, b: 0, a: 255 };
      const white = { r: 255, g: 255, b: 255, a: 255 };
      return {
        colours: [DARKER_WORDS.has(word) ? mix(hex(base), black, 0.45) : mix(hex(base), white, 0.5)],
        length: 2,
      };
    }
  }
  if (next !== undefined && PATTERN_COLOURS[`${word} ${next}`])
    return { colours: [hex(PATTERN_COLOURS[`${word} ${next}`]!)], length: 2 };
  const named = PATTERN_COLOURS[word];
  return named ? { colours: [hex(named)], length: 1 } : null;
}

/** Reads a shape word, or null. */
export function readShape(word: string): Omit<ShapeWord, 'colours'> | null {
  if (FIELD_WORDS[word]) return { kind: FIELD_WORDS[word], scatter: false };
  if (EMBLEM_WORDS[word]) return { kind: EMBLEM_WORDS[word], scatter: false };
  if (SCATTER_WORDS[word]) return { kind: SCATTER_WORDS[word], scatter: true };
  if (BORDER_WORDS.has(word)) return { kind: 'border', scatter: false };
  return null;
}

/** Whether a shape is drawn as an emblem, once or scattered (not a pattern or the border). */
export function isEmblem(shape: Omit<ShapeWord, 'colours'>): boolean {
  return shape.scatter || EMBLEM_KINDS.has(shape.kind);
}

/** Reads a (normalised) prompt into what to draw. */
export function readDesign(prompt: string): PromptDesign {
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
      if (
        design.background === null &&
        ((before === 'on' && !shapeFollows) || (after !== undefined && BACKGROUND_WORDS.has(after)))
      ) {
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
      const joined =
        pending.length === 0 && words[index - 1] === 'and' && previous && isEmblem(previous) && isEmblem(shape);
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
