// Unit tests for the gallery card images (server/textures/pipeline/render.ts): layout, colours, frames, sizes and bad
// inputs.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  PREVIEW_HEIGHT,
  PREVIEW_WIDTH,
  renderCapePreview,
  renderEarsPreview,
  renderTextureMap,
  renderTexturePreview,
} from '../../../server/textures/pipeline/render.ts';
import {
  encodeChunk,
  pixelAt,
  pngChunks,
  pngHeaderOnly,
  rgbaPixels,
  withTextChunks,
  type Rgba,
} from '../../../support/textures.ts';

const RED: Rgba = [220, 20, 30, 255];
const BLUE: Rgba = [20, 40, 220, 255];
const GREEN: Rgba = [30, 200, 40, 255];
const YELLOW: Rgba = [240, 220, 10, 255];
const GREY: Rgba = [128, 128, 128, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const BLACK: Rgba = [0, 0, 0, 255];
const PURPLE: Rgba = [150, 40, 200, 255];
const CYAN: Rgba = [0, 200, 200, 255];
const ORANGE: Rgba = [250, 140, 0, 255];
const TRANSPARENT: Rgba = [0, 0, 0, 0];

/** A rectangle in scale-1 texture pixels and the colour to fill it with. */
type Fill = [left: number, top: number, width: number, height: number, colour: Rgba];

/** The cape box and elytra of DESIGN "The mod API", each face its own colour (front red, inner blue). */
function capeFills(front: Rgba, inner: Rgba): Fill[] {
  return [
    [1, 0, 10, 1, WHITE], // top
    [11, 0, 10, 1, BLACK], // bottom
    [0, 1, 1, 16, GREY], // side
    [11, 1, 1, 16, GREY], // side
    [1, 1, 10, 16, front],
    [12, 1, 10, 16, inner],
    [22, 0, 24, 22, PURPLE], // elytra
  ];
}

/** The ears layout, each face its own colour (front green, back yellow). */
function earsFills(front: Rgba, back: Rgba): Fill[] {
  return [
    [1, 0, 6, 1, WHITE], // top
    [7, 0, 6, 1, BLACK], // bottom
    [0, 1, 1, 6, GREY], // side
    [7, 1, 1, 6, CYAN], // side
    [1, 1, 6, 6, front],
    [8, 1, 6, 6, back],
  ];
}

/**
 * A PNG of `frames` frames stacked vertically, each width x frameHeight, frame i filled with fills[i] scaled by
 * `scale`.
 */
function texture(width: number, frameHeight: number, frames: Fill[][], scale = 1): Promise<Buffer> {
  const height = frameHeight * frames.length;
  const raw = Buffer.alloc(width * height * 4);
  frames.forEach((fills, frame) => {
    for (const [left, top, w, h, colour] of fills) {
      for (let y = top * scale; y < (top + h) * scale; y++) {
        for (let x = left * scale; x < (left + w) * scale; x++)
          raw.set(colour, ((frame * frameHeight + y) * width + x) * 4);
      }
    }
  });
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** A cape at scale factor `scale` (64·scale x 32·scale) with the given frames' front and inner colours. */
function cape(scale: number, frames: Array<[front: Rgba, inner: Rgba]> = [[RED, BLUE]]): Promise<Buffer> {
  return texture(
    64 * scale,
    32 * scale,
    frames.map(([front, inner]) => capeFills(front, inner)),
    scale,
  );
}

/** A 14x7 ears texture with the given front and back colours. */
function ears(front: Rgba = GREEN, back: Rgba = YELLOW): Promise<Buffer> {
  return texture(14, 7, [earsFills(front, back)]);
}

/** Where a colour appears in decoded pixels: its bounding box and how many pixels have it. */
interface ColourArea {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  count: number;
}

/** Groups every pixel by exact RGBA value. */
async function colourAreas(png: Buffer): Promise<{ width: number; height: number; areas: Map<string, ColourArea> }> {
  const pixels = await rgbaPixels(png);
  const areas = new Map<string, ColourArea>();
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      const key = pixelAt(pixels, x, y).join(',');
      const area = areas.get(key) ?? { minX: x, maxX: x, minY: y, maxY: y, count: 0 };
      area.minX = Math.min(area.minX, x);
      area.maxX = Math.max(area.maxX, x);
      area.minY = Math.min(area.minY, y);
      area.maxY = Math.max(area.maxY, y);
      area.count++;
      areas.set(key, area);
    }
  }
  return { width: pixels.width, height: pixels.height, areas };
}

/**
 * Asserts a two-panel preview: the left colour in a solid centred panel on the left, the right colour on the right,
 * nothing else.
 */
async function expectPanels(
  png: Buffer,
  left: Rgba,
  right: Rgba,
  panelWidth: number,
  panelHeight: number,
): Promise<void> {
  const { width, height, areas } = await colourAreas(png);
  expect([width, height]).toEqual([PREVIEW_WIDTH, PREVIEW_HEIGHT]);
  // Only the two faces and the transparent background: no blended colours, no other faces leaking in.
  expect([...areas.keys()].sort()).toEqual([left.join(','), right.join(','), TRANSPARENT.join(',')].sort());
  const leftArea = areas.get(left.join(','))!;
  const rightArea = areas.get(right.join(','))!;
  for (const area of [leftArea, rightArea]) {
    expect(area.maxX - area.minX + 1).toBe(panelWidth);
    expect(area.maxY - area.minY + 1).toBe(panelHeight);
    expect(area.count).toBe(panelWidth * panelHeight); // a solid rectangle
    expect(area.minY + area.maxY).toBeGreaterThanOrEqual(PREVIEW_HEIGHT - 2); // centred vertically
    expect(area.minY + area.maxY).toBeLessThanOrEqual(PREVIEW_HEIGHT);
  }
  expect(leftArea.maxX).toBeLessThan(rightArea.minX); // side by side with a gap
  expect(rightArea.minX - leftArea.maxX).toBeGreaterThan(1);
  expect(Math.abs(leftArea.minX - (PREVIEW_WIDTH - 1 - rightArea.maxX))).toBeLessThanOrEqual(1); // centred horizontally
  const pixels = await rgbaPixels(png);
  for (const [x, y] of [
    [0, 0],
    [PREVIEW_WIDTH - 1, 0],
    [0, PREVIEW_HEIGHT - 1],
    [PREVIEW_WIDTH - 1, PREVIEW_HEIGHT - 1],
  ] as const) {
    expect(pixelAt(pixels, x, y)).toEqual(TRANSPARENT);
  }
  expect(pixelAt(pixels, (leftArea.minX + leftArea.maxX) >> 1, PREVIEW_HEIGHT >> 1)).toEqual(left);
  expect(pixelAt(pixels, (rightArea.minX + rightArea.maxX) >> 1, PREVIEW_HEIGHT >> 1)).toEqual(right);
}

/** PNG chunks that carry metadata (the same list the upload pipeline's tests forbid). */
const METADATA_CHUNKS = ['tEXt', 'iTXt', 'zTXt', 'eXIf', 'iCCP', 'tIME'];

/** Asserts a well-formed PNG (every CRC checked) with no metadata chunks and none of the input's text. */
function expectPlainPng(png: Buffer): void {
  const types = pngChunks(png).map((chunk) => chunk.type);
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  for (const type of METADATA_CHUNKS) expect(types).not.toContain(type);
  expect(png.includes(Buffer.from('made by a test'))).toBe(false);
}

/** A PNG whose header says width x height but whose pixel data is cut short (readable header, undecodable pixels). */
function truncatedPng(width: number, height: number): Buffer {
  return pngHeaderOnly(
    width,
    height,
    Buffer.concat([encodeChunk('IDAT', deflateSync(Buffer.alloc(10))), encodeChunk('IEND', Buffer.alloc(0))]),
  );
}

describe('renderCapePreview', () => {
  it('shows the outside (front) on the left and the inside on the right as 100x160 panels, centred on transparency', async () => {
    await expectPanels(await renderCapePreview(await cape(1)), RED, BLUE, 100, 160);
  });

  it('draws an HD cape (128x64, and the largest 2048x1024) in the same layout', async () => {
    await expectPanels(await renderCapePreview(await cape(2)), RED, BLUE, 100, 160);
    await expectPanels(await renderCapePreview(await cape(4)), RED, BLUE, 100, 160);
    await expectPanels(await renderCapePreview(await cape(32)), RED, BLUE, 100, 160);
  });

  it('keeps pixel art sharp: each texture pixel becomes a 10x10 block', async () => {
    const checker: Fill[] = [];
    for (let y = 1; y < 17; y++) for (let x = 1; x < 11; x++) checker.push([x, y, 1, 1, (x + y) % 2 ? RED : ORANGE]);
    const preview = await renderCapePreview(await texture(64, 32, [[...capeFills(RED, BLUE), ...checker]]));
    const { areas } = await colourAreas(preview);
    expect(areas.get(RED.join(','))!.count).toBe(80 * 100); // half of the 160 front pixels, 10x10 each
    expect(areas.get(ORANGE.join(','))!.count).toBe(80 * 100);
    const pixels = await rgbaPixels(preview);
    const left = areas.get(BLUE.join(','))!.minX - 20 - 100;
    const top = areas.get(BLUE.join(','))!.minY;
    // Texture pixel (1,1) is ORANGE ((1+1) even) and fills the panel's first 10x10 block exactly.
    expect(pixelAt(pixels, left, top)).toEqual(ORANGE);
    expect(pixelAt(pixels, left + 9, top + 9)).toEqual(ORANGE);
    expect(pixelAt(pixels, left + 10, top)).toEqual(RED);
    expect(pixelAt(pixels, left, top + 10)).toEqual(RED);
  });

  it('uses the first frame of an animated strip', async () => {
    const strip = await cape(1, [
      [RED, BLUE],
      [GREEN, YELLOW],
    ]);
    expect((await sharp(strip).metadata()).height).toBe(64);
    await expectPanels(await renderCapePreview(strip), RED, BLUE, 100, 160);
    const hdStrip = await cape(2, [
      [RED, BLUE],
      [GREEN, YELLOW],
      [ORANGE, CYAN],
    ]);
    await expectPanels(await renderCapePreview(hdStrip), RED, BLUE, 100, 160);
  });

  it('writes a plain PNG with no metadata, even when the input had some', async () => {
    expectPlainPng(await renderCapePreview(withTextChunks(await cape(1))));
  });

  it('renders the same colours from a 16-bit texture and from one with no alpha channel', async () => {
    const sixteenBit = await sharp(await cape(1))
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(sixteenBit).metadata()).depth).toBe('ushort');
    await expectPanels(await renderCapePreview(sixteenBit), RED, BLUE, 100, 160);
    const opaque = await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 10, g: 120, b: 60 } } })
      .png()
      .toBuffer();
    const { areas } = await colourAreas(await renderCapePreview(opaque));
    expect(areas.get('10,120,60,255')!.count).toBe(2 * 100 * 160);
  });
});

describe('renderEarsPreview', () => {
  it('shows the front on the left and the back on the right as large squares, centred on transparency', async () => {
    await expectPanels(await renderEarsPreview(await ears()), GREEN, YELLOW, 138, 138);
  });

  it('writes a plain PNG with no metadata', async () => {
    expectPlainPng(await renderEarsPreview(withTextChunks(await ears())));
  });
});

describe('renderTexturePreview', () => {
  it('draws capes and ears by kind', async () => {
    const capePng = await cape(1);
    const earsPng = await ears();
    expect((await renderTexturePreview(capePng, 'cape')).equals(await renderCapePreview(capePng))).toBe(true);
    expect((await renderTexturePreview(earsPng, 'ears')).equals(await renderEarsPreview(earsPng))).toBe(true);
  });

  it('refuses a texture of the other kind', async () => {
    await expect(renderTexturePreview(await cape(1), 'ears')).rejects.toThrow(/14x7.*got 64x32/);
    await expect(renderTexturePreview(await ears(), 'cape')).rejects.toThrow(/multiple of 64.*got 14x7/);
  });
});

describe('renderTextureMap', () => {
  /** Decodes a map and checks its size. */
  async function mapOf(png: Buffer, width: number, height: number) {
    const map = await renderTextureMap(withTextChunks(png));
    expectPlainPng(map);
    const pixels = await rgbaPixels(map);
    expect([pixels.width, pixels.height]).toEqual([width, height]);
    return pixels;
  }

  it('scales a 64x32 cape 5 times to 320x160 with exact colours', async () => {
    const pixels = await mapOf(await cape(1), 320, 160);
    expect(pixelAt(pixels, 0, 0)).toEqual(TRANSPARENT); // texture pixel (0,0) is not part of any face
    expect(pixelAt(pixels, 5, 0)).toEqual(WHITE); // top (1,0)
    expect(pixelAt(pixels, 4, 5)).toEqual(GREY); // side (0,1)
    expect(pixelAt(pixels, 5, 5)).toEqual(RED); // front (1,1) starts exactly at 5,5
    expect(pixelAt(pixels, 6 * 5 + 2, 9 * 5 + 2)).toEqual(RED);
    expect(pixelAt(pixels, 16 * 5 + 2, 9 * 5 + 2)).toEqual(BLUE);
    expect(pixelAt(pixels, 30 * 5 + 2, 10 * 5 + 2)).toEqual(PURPLE);
    expect(pixelAt(pixels, 319, 159)).toEqual(TRANSPARENT);
  });

  it('scales 14x7 ears 22 times to 308x154', async () => {
    const pixels = await mapOf(await ears(), 308, 154);
    expect(pixelAt(pixels, 3 * 22 + 11, 3 * 22 + 11)).toEqual(GREEN);
    expect(pixelAt(pixels, 10 * 22 + 11, 3 * 22 + 11)).toEqual(YELLOW);
    expect(pixelAt(pixels, 7 * 22, 22)).toEqual(CYAN);
    expect(pixelAt(pixels, 7 * 22 - 1, 22)).toEqual(GREEN);
    expect(pixelAt(pixels, 13 * 22 + 5, 5)).toEqual(TRANSPARENT);
  });

  it('shrinks a 2048x1024 cape to 320x160 without blending colours', async () => {
    const map = await renderTextureMap(await cape(32));
    const { width, height, areas } = await colourAreas(map);
    expect([width, height]).toEqual([320, 160]);
    const allowed = new Set([RED, BLUE, WHITE, BLACK, GREY, PURPLE, TRANSPARENT].map((colour) => colour.join(',')));
    for (const key of areas.keys()) expect(allowed.has(key), key).toBe(true);
    const pixels = await rgbaPixels(map);
    expect(pixelAt(pixels, 6 * 5 + 2, 9 * 5 + 2)).toEqual(RED);
    expect(pixelAt(pixels, 16 * 5 + 2, 9 * 5 + 2)).toEqual(BLUE);
  });

  it('shows only the first frame of a strip', async () => {
    const strip = await cape(1, [
      [RED, BLUE],
      [GREEN, YELLOW],
    ]);
    const map = await renderTextureMap(strip);
    const { width, height, areas } = await colourAreas(map);
    expect([width, height]).toEqual([320, 160]);
    expect(areas.has(RED.join(','))).toBe(true);
    expect(areas.has(GREEN.join(','))).toBe(false);
    expect(areas.has(YELLOW.join(','))).toBe(false);
  });

  it('uses a whole-number zoom for in-between sizes (128x64 becomes 256x128)', async () => {
    const pixels = await mapOf(await cape(2), 256, 128);
    expect(pixelAt(pixels, 2 * 4, 2 * 4)).toEqual(RED); // texture pixel (2,2) of a scale-2 cape is front (1,1)
  });
});

describe('bad inputs', () => {
  const size = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 4, background: '#c00' } })
      .png()
      .toBuffer();

  it.each([
    [64, 33],
    [63, 32],
    [96, 48], // half as tall, but not a multiple of 64 wide
    [64, 48], // not a whole number of frames
    [64, 65 * 32], // more than 64 frames
    [128, 32],
    [14, 7],
  ])('a %ix%i cape preview is refused', async (width, height) => {
    await expect(renderCapePreview(await size(width, height))).rejects.toThrow(
      new RegExp(`Cannot render cape: .*got ${width}x${height}`),
    );
  });

  it('a cape wider than 2048 is refused before decoding', async () => {
    await expect(renderCapePreview(truncatedPng(4096, 2048))).rejects.toThrow(/at most 2048.*got 4096x2048/);
    await expect(renderTextureMap(truncatedPng(4096, 2048))).rejects.toThrow(/got 4096x2048/);
  });

  it.each([
    [14, 10],
    [28, 14],
    [64, 32],
  ])('a %ix%i ears preview is refused', async (width, height) => {
    await expect(renderEarsPreview(await size(width, height))).rejects.toThrow(
      `must be exactly 14x7, got ${width}x${height}`,
    );
  });

  it('a texture map of neither layout is refused', async () => {
    await expect(renderTextureMap(await size(100, 50))).rejects.toThrow(/Cannot render texture map: .*got 100x50/);
    await expect(renderTextureMap(await size(14, 10))).rejects.toThrow(/got 14x10/);
  });

  it('bytes that are not a PNG are refused with a clear message', async () => {
    await expect(renderCapePreview(Buffer.from('not an image at all'))).rejects.toThrow(/not a readable image/);
    const jpeg = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#c00' } })
      .jpeg()
      .toBuffer();
    await expect(renderCapePreview(jpeg)).rejects.toThrow(/expected a PNG, got jpeg/);
    await expect(renderTextureMap(jpeg)).rejects.toThrow(/expected a PNG/);
  });

  it('a PNG whose header is fine but whose pixels are missing is refused with a clear message', async () => {
    await expect(renderCapePreview(truncatedPng(64, 32))).rejects.toThrow(
      /Cannot render texture: the PNG could not be decoded/,
    );
    await expect(renderEarsPreview(truncatedPng(14, 7))).rejects.toThrow(/could not be decoded/);
    await expect(renderTextureMap(truncatedPng(64, 32))).rejects.toThrow(/could not be decoded/);
    await expect(renderCapePreview(pngHeaderOnly(64, 32))).rejects.toThrow(
      /Cannot render texture: the input is not a readable image/,
    );
  });

  it('an unknown kind is refused', async () => {
    await expect(renderTexturePreview(await cape(1), 'skin' as 'cape')).rejects.toThrow(/unknown kind skin/);
  });
});
