// Unit tests for the banner pattern masks (server/textures/generators/banner/patterns.ts), the dye colours and
// renderBanner.
import { describe, expect, it } from 'vitest';
import { DYE_COLOURS, DYE_RGB, isDyeColour } from '../../../server/textures/generators/banner/colours.ts';
import {
  BANNER_HEIGHT,
  BANNER_WIDTH,
  isPatternId,
  PATTERN_IDS,
  patternMask,
  type PatternId,
} from '../../../server/textures/generators/banner/patterns.ts';
import {
  MAX_BANNER_LAYERS,
  renderBanner,
  type BannerLayer,
} from '../../../server/textures/generators/banner/render.ts';
import type { RawImage, Rgba } from '../../../server/textures/pipeline/raw-image.ts';

/** The colour of one pixel of an image. */
function pixelAt(image: RawImage, x: number, y: number): Rgba {
  const offset = (y * image.width + x) * 4;
  return {
    r: image.data[offset] ?? -1,
    g: image.data[offset + 1] ?? -1,
    b: image.data[offset + 2] ?? -1,
    a: image.data[offset + 3] ?? -1,
  };
}

/** A mask's coverage at one pixel. */
function coverageAt(mask: Float32Array, x: number, y: number): number {
  return mask[y * BANNER_WIDTH + x] ?? Number.NaN;
}

/** The mask mirrored left to right, or top to bottom. */
function mirrored(mask: Float32Array, direction: 'across' | 'down'): Float32Array {
  const result = new Float32Array(mask.length);
  for (let y = 0; y < BANNER_HEIGHT; y++) {
    for (let x = 0; x < BANNER_WIDTH; x++) {
      const fromX = direction === 'across' ? BANNER_WIDTH - 1 - x : x;
      const fromY = direction === 'down' ? BANNER_HEIGHT - 1 - y : y;
      result[y * BANNER_WIDTH + x] = coverageAt(mask, fromX, fromY);
    }
  }
  return result;
}

/** For each geometric pattern: a pixel it covers fully and one it leaves bare. */
const COVERED_AND_BARE: ReadonlyArray<[PatternId, [number, number], [number, number]]> = [
  ['stripe_bottom', [10, 39], [10, 0]],
  ['stripe_top', [10, 0], [10, 39]],
  ['stripe_left', [0, 20], [19, 20]],
  ['stripe_right', [19, 20], [0, 20]],
  ['stripe_center', [10, 0], [0, 0]],
  ['stripe_middle', [0, 20], [0, 0]],
  ['stripe_downright', [0, 0], [19, 0]],
  ['stripe_downleft', [19, 0], [0, 0]],
  ['small_stripes', [2, 20], [0, 20]],
  ['cross', [10, 20], [10, 0]],
  ['straight_cross', [10, 0], [0, 0]],
  ['diagonal_left', [0, 0], [19, 39]],
  ['diagonal_right', [19, 0], [0, 39]],
  ['diagonal_up_left', [0, 39], [19, 0]],
  ['diagonal_up_right', [19, 39], [0, 0]],
  ['half_vertical', [0, 20], [19, 20]],
  ['half_vertical_right', [19, 20], [0, 20]],
  ['half_horizontal', [10, 0], [10, 39]],
  ['half_horizontal_bottom', [10, 39], [10, 0]],
  ['square_bottom_left', [0, 39], [19, 39]],
  ['square_bottom_right', [19, 39], [0, 39]],
  ['square_top_left', [0, 0], [19, 0]],
  ['square_top_right', [19, 0], [0, 0]],
  ['triangle_bottom', [10, 39], [10, 0]],
  ['triangle_top', [10, 0], [10, 39]],
  ['triangles_bottom', [3, 39], [3, 0]],
  ['triangles_top', [3, 0], [3, 39]],
  ['circle', [10, 20], [0, 0]],
  ['rhombus', [10, 20], [0, 0]],
  ['border', [0, 0], [10, 20]],
  ['curly_border', [0, 20], [10, 20]],
  ['bricks', [1, 1], [1, 3]],
  ['gradient', [10, 0], [10, 39]],
  ['gradient_up', [10, 39], [10, 0]],
];

/** The emblem patterns: drawn in the middle of the face, away from its corners. */
const EMBLEMS: readonly PatternId[] = ['creeper', 'skull', 'flower', 'mojang', 'globe', 'piglin', 'flow', 'guster'];

describe('dye colours', () => {
  it('are the 16 dyes, each its own colour, as the game tints banners', () => {
    expect(DYE_COLOURS).toHaveLength(16);
    expect(new Set(DYE_COLOURS.map((colour) => JSON.stringify(DYE_RGB[colour]))).size).toBe(16);
    expect(DYE_RGB.white).toEqual({ r: 0xf9, g: 0xff, b: 0xfe, a: 255 });
    expect(DYE_RGB.red).toEqual({ r: 0xb0, g: 0x2e, b: 0x26, a: 255 });
    expect(DYE_RGB.black).toEqual({ r: 0x1d, g: 0x1d, b: 0x21, a: 255 });
    expect(isDyeColour('light_blue')).toBe(true);
    expect(isDyeColour('dark_gray')).toBe(false);
  });
});

describe('pattern masks', () => {
  it('cover every pattern of the game once', () => {
    expect(PATTERN_IDS).toHaveLength(43);
    expect(new Set(PATTERN_IDS).size).toBe(43);
    expect(isPatternId('guster')).toBe(true);
    expect(isPatternId('toString')).toBe(false);
  });

  it('base covers the whole face', () => {
    expect(patternMask('base').every((coverage) => coverage === 1)).toBe(true);
  });

  it.each(PATTERN_IDS.filter((pattern) => pattern !== 'base'))(
    '%s is neither empty nor full, with every coverage within 0..1',
    (pattern) => {
      const mask = patternMask(pattern);
      expect(mask).toHaveLength(BANNER_WIDTH * BANNER_HEIGHT);
      expect(mask.every((coverage) => coverage >= 0 && coverage <= 1)).toBe(true);
      expect(mask.some((coverage) => coverage > 0.5)).toBe(true);
      expect(mask.some((coverage) => coverage === 0)).toBe(true);
    },
  );

  it.each(COVERED_AND_BARE)('%s covers %j and leaves %j bare', (pattern, [coveredX, coveredY], [bareX, bareY]) => {
    const mask = patternMask(pattern);
    expect(coverageAt(mask, coveredX, coveredY)).toBeGreaterThan(0.99);
    expect(coverageAt(mask, bareX, bareY)).toBeLessThan(0.01);
  });

  it.each(EMBLEMS)('%s sits in the middle of the face, clear of the corners', (pattern) => {
    const mask = patternMask(pattern);
    for (const [x, y] of [
      [0, 0],
      [19, 0],
      [0, 39],
      [19, 39],
    ] as const) {
      expect(coverageAt(mask, x, y)).toBe(0);
    }
    expect(mask.slice(10 * BANNER_WIDTH, 30 * BANNER_WIDTH).some((coverage) => coverage === 1)).toBe(true);
  });

  it.each([
    ['half_vertical', 'half_vertical_right'],
    ['half_horizontal', 'half_horizontal_bottom'],
    ['diagonal_left', 'diagonal_up_right'],
    ['diagonal_right', 'diagonal_up_left'],
    ['gradient', 'gradient_up'],
  ] as const)('%s and %s together cover each pixel exactly once', (one, other) => {
    const first = patternMask(one);
    const second = patternMask(other);
    for (let pixel = 0; pixel < first.length; pixel++)
      expect((first[pixel] ?? 0) + (second[pixel] ?? 0)).toBeCloseTo(1, 5);
  });

  it.each([
    ['square_top_left', 'square_top_right', 'across'],
    ['square_bottom_left', 'square_bottom_right', 'across'],
    ['stripe_left', 'stripe_right', 'across'],
    ['stripe_downright', 'stripe_downleft', 'across'],
    ['stripe_top', 'stripe_bottom', 'down'],
    ['triangle_top', 'triangle_bottom', 'down'],
    ['triangles_top', 'triangles_bottom', 'down'],
  ] as const)('%s is %s mirrored %s', (one, other, direction) => {
    expect(Array.from(mirrored(patternMask(one), direction))).toEqual(Array.from(patternMask(other)));
  });

  it('gradients fade: full at one end, bare at the other, part-way between', () => {
    const gradient = patternMask('gradient');
    expect(coverageAt(gradient, 5, 0)).toBe(1);
    expect(coverageAt(gradient, 5, 39)).toBe(0);
    expect(coverageAt(gradient, 5, 20)).toBeGreaterThan(0.3);
    expect(coverageAt(gradient, 5, 20)).toBeLessThan(0.7);
  });

  it('hands out copies, so changing one does not change the pattern', () => {
    patternMask('circle').fill(0);
    expect(patternMask('circle').some((coverage) => coverage > 0)).toBe(true);
  });
});

describe('renderBanner', () => {
  it('draws a plain banner as its base colour, 20 x 40 and opaque', () => {
    const image = renderBanner({ base: 'blue', layers: [] });
    expect(image.width).toBe(BANNER_WIDTH);
    expect(image.height).toBe(BANNER_HEIGHT);
    expect(image.data).toHaveLength(BANNER_WIDTH * BANNER_HEIGHT * 4);
    for (let y = 0; y < BANNER_HEIGHT; y++) {
      for (let x = 0; x < BANNER_WIDTH; x++) expect(pixelAt(image, x, y)).toEqual(DYE_RGB.blue);
    }
  });

  it('draws the layers in order, each over the ones before', () => {
    const image = renderBanner({
      base: 'white',
      layers: [
        { pattern: 'half_horizontal', colour: 'red' },
        { pattern: 'stripe_top', colour: 'blue' },
      ],
    });
    expect(pixelAt(image, 10, 5)).toEqual(DYE_RGB.blue);
    expect(pixelAt(image, 10, 16)).toEqual(DYE_RGB.red);
    expect(pixelAt(image, 10, 30)).toEqual(DYE_RGB.white);
  });

  it('blends a gradient part-way between its colour and what lies under it', () => {
    const image = renderBanner({ base: 'white', layers: [{ pattern: 'gradient', colour: 'black' }] });
    expect(pixelAt(image, 10, 0)).toEqual(DYE_RGB.black);
    expect(pixelAt(image, 10, 39)).toEqual(DYE_RGB.white);
    const middle = pixelAt(image, 10, 20);
    expect(middle.r).toBeGreaterThan(DYE_RGB.black.r);
    expect(middle.r).toBeLessThan(DYE_RGB.white.r);
    expect(middle.a).toBe(255);
  });

  it.each(PATTERN_IDS.filter((pattern) => pattern !== 'base'))('draws %s over part of the base only', (pattern) => {
    const image = renderBanner({ base: 'white', layers: [{ pattern, colour: 'black' }] });
    const pixels = Array.from({ length: BANNER_WIDTH * BANNER_HEIGHT }, (_, index) =>
      pixelAt(image, index % BANNER_WIDTH, Math.floor(index / BANNER_WIDTH)),
    );
    expect(pixels.some((pixel) => pixel.r === DYE_RGB.white.r && pixel.g === DYE_RGB.white.g)).toBe(true);
    expect(pixels.some((pixel) => pixel.r < 128)).toBe(true);
  });

  it(`draws up to ${MAX_BANNER_LAYERS} layers and refuses more`, () => {
    const layers: BannerLayer[] = Array.from({ length: MAX_BANNER_LAYERS }, (_, index) => ({
      pattern: PATTERN_IDS[index + 1] ?? 'base',
      colour: DYE_COLOURS[index] ?? 'white',
    }));
    expect(renderBanner({ base: 'white', layers }).width).toBe(BANNER_WIDTH);
    expect(() => renderBanner({ base: 'white', layers: [...layers, { pattern: 'circle', colour: 'red' }] })).toThrow(
      RangeError,
    );
  });
});
