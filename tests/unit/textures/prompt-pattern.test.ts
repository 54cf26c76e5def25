// Unit tests for the built-in cape pattern generator (server/textures/generators/prompt-pattern.ts).
import { describe, expect, it } from 'vitest';
import {
  PATTERN_COLOURS,
  PATTERN_FONT,
  PROMPT_PATTERN_CELL,
  PROMPT_PATTERN_HEIGHT,
  PROMPT_PATTERN_WIDTH,
  PROMPT_TEXT_MAX_LENGTH,
  drawPromptPattern,
  readPromptText,
} from '../../../server/textures/generators/prompt-pattern.ts';
import { parseHexColour, type RawImage } from '../../../server/textures/pipeline/raw-image.ts';

/** A colour as the packed number colourAt returns. */
function packed(name: string): number {
  const colour = parseHexColour(PATTERN_COLOURS[name]!)!;
  return ((colour.r << 24) | (colour.g << 16) | (colour.b << 8) | colour.a) >>> 0;
}

/** The RGBA of one pixel, packed into one number. */
function colourAt(image: RawImage, x: number, y: number): number {
  return image.data.readUInt32BE((y * image.width + x) * 4);
}

/** How many pixels of a row have each colour. */
function rowColours(image: RawImage, y: number): Map<number, number> {
  const counts = new Map<number, number>();
  for (let x = 0; x < image.width; x++) counts.set(colourAt(image, x, y), (counts.get(colourAt(image, x, y)) ?? 0) + 1);
  return counts;
}

/** How many distinct colours an image has. */
function colourCount(image: RawImage): number {
  const colours = new Set<number>();
  for (let offset = 0; offset < image.data.length; offset += 4) colours.add(image.data.readUInt32BE(offset));
  return colours.size;
}

describe('drawPromptPattern', () => {
  it('draws a 160 x 256 opaque image, the same pixels for the same prompt', () => {
    const first = drawPromptPattern('gold star on navy');
    expect([first.width, first.height]).toEqual([PROMPT_PATTERN_WIDTH, PROMPT_PATTERN_HEIGHT]);
    expect([PROMPT_PATTERN_WIDTH, PROMPT_PATTERN_HEIGHT]).toEqual([160, 256]);
    expect(first.data.length).toBe(160 * 256 * 4);
    for (let offset = 3; offset < first.data.length; offset += 4) expect(first.data[offset]).toBe(255);
    expect(drawPromptPattern('gold star on navy').data.equals(first.data)).toBe(true);
    expect(drawPromptPattern('  Gold STAR   on navy ').data.equals(first.data)).toBe(true);
    expect(drawPromptPattern('gold star on red').data.equals(first.data)).toBe(false);
  });

  it('draws each cell as a square of pixels', () => {
    const image = drawPromptPattern('green creeper face');
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const corner = colourAt(image, x - (x % PROMPT_PATTERN_CELL), y - (y % PROMPT_PATTERN_CELL));
        if (colourAt(image, x, y) !== corner) throw new Error(`pixel ${x},${y} differs from its cell`);
      }
    }
  });

  it('draws "red and white stripes" as rows of red and rows of white', () => {
    const image = drawPromptPattern('red and white stripes');
    const red = packed('red');
    const white = packed('white');
    const seen = new Set<number>();
    for (let y = 0; y < image.height; y++) {
      const counts = rowColours(image, y);
      const [main, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      expect([red, white]).toContain(main);
      expect(count).toBeGreaterThanOrEqual(image.width * 0.9);
      seen.add(main);
    }
    expect(seen).toEqual(new Set([red, white]));
  });

  it('draws "blue circle" with blue in the middle', () => {
    const image = drawPromptPattern('blue circle');
    const blue = packed('blue');
    for (let y = 120; y < 136; y++) for (let x = 72; x < 88; x++) expect(colourAt(image, x, y)).toBe(blue);
    expect(colourAt(image, 2, 2)).not.toBe(blue);
  });

  it('gives the colour after "on" to the background and the colour before a shape to that shape', () => {
    const image = drawPromptPattern('gold star on navy');
    expect(colourAt(image, 2, 2)).toBe(packed('navy'));
    expect(colourAt(image, 80, 140)).toBe(packed('gold'));
  });

  it('gives an emblem joined by "and" the colours of the one before, and a creeper its green', () => {
    expect(
      drawPromptPattern('white moon and stars on navy').data.equals(
        drawPromptPattern('white moon and white stars on navy').data,
      ),
    ).toBe(true);
    const creeper = drawPromptPattern('creeper');
    const total = [0, 0, 0];
    for (let offset = 0; offset < creeper.data.length; offset += 4)
      for (let channel = 0; channel < 3; channel++) total[channel]! += creeper.data[offset + channel]!;
    expect(total[1]).toBeGreaterThan(total[0]! * 1.5);
    expect(total[1]).toBeGreaterThan(total[2]! * 1.5);
  });

  it('draws the text in the 5x7 font, twice as large for up to three characters', () => {
    const withText = drawPromptPattern('white on black text:H');
    const without = drawPromptPattern('white on black');
    expect(withText.data.equals(without.data)).toBe(false);
    // The white pixels inside the border are exactly the glyph's: 17 font pixels, each 2 x 2 cells of 4 x 4 pixels.
    const glyphPixels = [...PATTERN_FONT.H!].filter((bit) => bit === '1').length;
    expect(glyphPixels).toBe(17);
    const white = packed('white');
    let count = 0;
    for (let y = 16; y < withText.height - 16; y++)
      for (let x = 16; x < withText.width - 16; x++) if (colourAt(withText, x, y) === white) count += 1;
    expect(count).toBe(glyphPixels * (2 * PROMPT_PATTERN_CELL) ** 2);
  });

  it('draws longer text at font size, and text over a pattern with an outline', () => {
    const long = drawPromptPattern('text:CLOAK');
    expect(colourCount(long)).toBeGreaterThanOrEqual(4);
    const waves = drawPromptPattern('purple waves text:GG');
    expect(waves.data.equals(drawPromptPattern('purple waves').data)).toBe(false);
  });

  it('draws something for prompts with no word it knows, and for any prompt up to 50 characters', () => {
    for (const prompt of [
      'a dragon of legend',
      '',
      '!!!',
      'ääää ★ 漢字',
      'x'.repeat(50),
      'red orange yellow green blue purple stripes!!',
    ]) {
      const image = drawPromptPattern(prompt);
      expect([image.width, image.height], prompt).toEqual([160, 256]);
      expect(colourCount(image), prompt).toBeGreaterThanOrEqual(2);
    }
    const prompts = [
      'sun moon star heart text:"GO TEAM"',
      'dark blue and light pink diagonal stripes border',
      'rainbow hearts on black text:<3',
    ];
    for (const prompt of prompts) expect(prompt.length).toBeLessThanOrEqual(50);
    for (const prompt of prompts) expect(colourCount(drawPromptPattern(prompt)), prompt).toBeGreaterThanOrEqual(3);
  });

  it('draws a different picture for every shape word', () => {
    const words = [
      'circle',
      'ring',
      'star',
      'heart',
      'diamond',
      'cross',
      'triangle',
      'sun',
      'moon',
      'flame',
      'stars',
      'dots',
      'grid',
      'checks',
      'zigzag',
      'waves',
    ];
    const pictures = new Map<string, string>();
    for (const word of [...words, 'stripes', 'border', 'creeper']) {
      const digest = drawPromptPattern(`red ${word} on black`).data.toString('base64');
      expect(pictures.get(digest), word).toBeUndefined();
      pictures.set(digest, word);
    }
  });
});

describe('readPromptText', () => {
  it('reads the word after text:, else the first quoted phrase, in capitals', () => {
    expect(readPromptText('purple waves text:GG')).toBe('GG');
    expect(readPromptText('text:gg on red')).toBe('GG');
    expect(readPromptText('TEXT:"go team" stripes')).toBe('GO TEA');
    expect(readPromptText('a star saying "win"')).toBe('WIN');
    expect(readPromptText("a star saying 'ok' in gold")).toBe('OK');
    expect(readPromptText('a star saying “yes”')).toBe('YES');
    expect(readPromptText("the player's cape 'x1'")).toBe('X1');
  });

  it(`keeps only characters the font has, at most ${PROMPT_TEXT_MAX_LENGTH}`, () => {
    expect(readPromptText('text:abcdefghij')).toBe('ABCDEF');
    expect(readPromptText('text:a_b*c')).toBe('ABC');
    expect(readPromptText('text:go!')).toBe('GO!');
    expect(readPromptText('text:★★')).toBeNull();
    expect(readPromptText('text:')).toBeNull();
  });

  it('finds no text in prompts without a marker or quotes', () => {
    expect(readPromptText('red and white stripes')).toBeNull();
    expect(readPromptText("the player's red cape")).toBeNull();
    expect(readPromptText('context:abc')).toBeNull();
  });
});
