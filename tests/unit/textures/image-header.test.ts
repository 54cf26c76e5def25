// Unit tests for reading image type, size and GIF frame count from bytes without decoding
// (server/textures/pipeline/image-header.ts).
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { countGifFrames, readImageHeader } from '../../../server/textures/pipeline/image-header.ts';
import { animatedGif, solidGif, solidPng } from '../../../support/textures.ts';

let png: Buffer;
let gif: Buffer;
let gif3: Buffer;
let gif65: Buffer;

beforeAll(async () => {
  png = await solidPng(128, 64);
  gif = await solidGif(64, 32);
  gif3 = await animatedGif(64, 32, 3);
  gif65 = await animatedGif(16, 8, 65);
});

describe('readImageHeader', () => {
  it('reads type and size of a real PNG', async () => {
    expect(readImageHeader(png)).toEqual({ type: 'png', width: 128, height: 64 });
    expect(readImageHeader(await solidPng(14, 7))).toEqual({ type: 'png', width: 14, height: 7 });
    expect(readImageHeader(await solidPng(2049, 3))).toEqual({ type: 'png', width: 2049, height: 3 });
  });

  it('reads type and size of a real GIF, single and multi-frame', () => {
    expect(readImageHeader(gif)).toEqual({ type: 'gif', width: 64, height: 32 });
    expect(readImageHeader(gif3)).toEqual({ type: 'gif', width: 64, height: 32 });
  });

  it('knows both GIF versions', () => {
    const gif87 = Buffer.from(gif);
    gif87.write('GIF87a', 0, 'latin1');
    expect(readImageHeader(gif87)).toEqual({ type: 'gif', width: 64, height: 32 });
  });

  it('calls anything else "other" with size 0 x 0', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const webp = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#123456' } })
      .webp()
      .toBuffer();
    for (const bytes of [
      jpeg,
      webp,
      Buffer.from('hello, this is not an image'),
      Buffer.alloc(0),
      Buffer.from('GIF88a\x40\x00\x20\x00', 'latin1'),
    ]) {
      expect(readImageHeader(bytes)).toEqual({ type: 'other', width: 0, height: 0 });
    }
  });

  it('gives 0 x 0 for a PNG cut inside its header', () => {
    for (const length of [8, 12, 16, 20, 23]) {
      expect(readImageHeader(png.subarray(0, length)), `${length} bytes`).toEqual({ type: 'png', width: 0, height: 0 });
    }
    expect(readImageHeader(png.subarray(0, 24))).toEqual({ type: 'png', width: 128, height: 64 });
    expect(readImageHeader(png.subarray(0, 7)).type).toBe('other');
  });

  it('gives 0 x 0 for a PNG whose first chunk is not IHDR', () => {
    const noIhdr = Buffer.from(png);
    noIhdr.write('IDAT', 12, 'latin1');
    expect(readImageHeader(noIhdr)).toEqual({ type: 'png', width: 0, height: 0 });
  });

  it('gives 0 x 0 for a GIF cut inside its logical screen', () => {
    for (const length of [6, 7, 9]) {
      expect(readImageHeader(gif.subarray(0, length)), `${length} bytes`).toEqual({ type: 'gif', width: 0, height: 0 });
    }
    expect(readImageHeader(gif.subarray(0, 10))).toEqual({ type: 'gif', width: 64, height: 32 });
  });
});

describe('countGifFrames', () => {
  it('counts the frames of real GIFs made by sharp', async () => {
    expect(countGifFrames(gif)).toBe(1);
    expect(countGifFrames(gif3)).toBe(3);
    expect(countGifFrames(await animatedGif(32, 16, 64))).toBe(64);
    expect(countGifFrames(gif65)).toBe(65);
  });

  it('agrees with sharp on the number of pages', async () => {
    for (const bytes of [gif, gif3, gif65]) expect(countGifFrames(bytes)).toBe((await sharp(bytes).metadata()).pages);
  });

  it('counts 0 for a GIF with no image at all', () => {
    const empty = Buffer.concat([gif.subarray(0, 6), Buffer.from([64, 0, 32, 0, 0x00, 0, 0]), Buffer.from([0x3b])]);
    expect(countGifFrames(empty)).toBe(0);
  });

  it('stops as soon as it has seen more frames than stopAfter', () => {
    expect(countGifFrames(gif65, 64)).toBe(65);
    expect(countGifFrames(gif65, 2)).toBe(3);
    expect(countGifFrames(gif3, 3)).toBe(3);
    // Cut after the fourth frame: a full walk finds no trailer (malformed), an early exit never gets there.
    const cut = gif65.subarray(0, frameEnd(gif65, 4));
    expect(countGifFrames(cut)).toBeNull();
    expect(countGifFrames(cut, 3)).toBe(4);
    expect(countGifFrames(cut, 2)).toBe(3);
  });

  it('gives null for a GIF cut short anywhere', () => {
    for (const length of [0, 5, 12, 13, 20, Math.floor(gif3.length / 2), gif3.length - 1]) {
      expect(countGifFrames(gif3.subarray(0, length)), `${length} of ${gif3.length} bytes`).toBeNull();
    }
  });

  it('gives null for a GIF cut inside its global colour table', () => {
    const withTable = gif3[10]! & 0x80;
    expect(withTable, 'sharp writes a global colour table').toBeTruthy();
    expect(countGifFrames(gif3.subarray(0, 14))).toBeNull();
  });

  it('gives null for an unknown block', () => {
    const bad = Buffer.from(gif3);
    bad[firstBlock(bad)] = 0x99;
    expect(countGifFrames(bad)).toBeNull();
  });

  it('gives null for an extension introducer at the very end', () => {
    const start = firstBlock(gif3);
    expect(countGifFrames(Buffer.concat([gif3.subarray(0, start), Buffer.from([0x21])]))).toBeNull();
  });

  it('gives null for an image descriptor cut short', () => {
    const start = frameStart(gif3, 0);
    expect(countGifFrames(gif3.subarray(0, start + 5))).toBeNull();
    expect(countGifFrames(gif3.subarray(0, start + 10))).toBeNull();
  });
});

/** Offset of the first block after the header and global colour table. */
function firstBlock(bytes: Buffer): number {
  const flags = bytes[10]!;
  return 13 + (flags & 0x80 ? 3 * (1 << ((flags & 0x07) + 1)) : 0);
}

/** Walks a well-formed GIF's blocks, calling visit(kind, start, end) for each block. */
function walk(bytes: Buffer, visit: (kind: number, start: number, end: number) => void): void {
  let position = firstBlock(bytes);
  const skip = (offset: number) => {
    while (bytes[offset] !== 0) offset += bytes[offset]! + 1;
    return offset + 1;
  };
  while (bytes[position] !== 0x3b) {
    const start = position;
    if (bytes[position] === 0x21) position = skip(position + 2);
    else {
      const flags = bytes[position + 9]!;
      position += 10 + (flags & 0x80 ? 3 * (1 << ((flags & 0x07) + 1)) : 0);
      position = skip(position + 1);
    }
    visit(bytes[start]!, start, position);
  }
}

/** Offset where image descriptor number `index` starts. */
function frameStart(bytes: Buffer, index: number): number {
  const starts: number[] = [];
  walk(bytes, (kind, start) => kind === 0x2c && starts.push(start));
  return starts[index]!;
}

/** Offset just after the image data of the `count`-th frame. */
function frameEnd(bytes: Buffer, count: number): number {
  const ends: number[] = [];
  walk(bytes, (kind, _start, end) => kind === 0x2c && ends.push(end));
  return ends[count - 1]!;
}
