// Reads an image's type, dimensions and GIF frame count from its bytes without decoding any pixels.

/** What the header says about an image. */
export interface ImageHeader {
  type: 'png' | 'gif' | 'other';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type and dimensions from the first bytes (PNG IHDR, GIF logical screen); 0 x 0 when the header is cut short. */
export function readImageHeader(bytes: Buffer): ImageHeader {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const hasIhdr = bytes.length >= 24 && bytes.toString('latin1', 12, 16) === 'IHDR';
    return { type: 'png', width: hasIhdr ? bytes.readUInt32BE(16) : 0, height: hasIhdr ? bytes.readUInt32BE(20) : 0 };
  }
  const magic = bytes.toString('latin1', 0, 6);
  if (magic === 'GIF87a' || magic === 'GIF89a') {
    return {
      type: 'gif',
      width: bytes.length >= 10 ? bytes.readUInt16LE(6) : 0,
      height: bytes.length >= 10 ? bytes.readUInt16LE(8) : 0,
    };
  }
  return { type: 'other', width: 0, height: 0 };
}

/**
 * Skips a chain of GIF data sub-blocks starting at `offset`; returns the offset after the terminator, or -1 when cut
 * short.
 */
function skipSubBlocks(bytes: Buffer, offset: number): number {
  let position = offset;
  while (position < bytes.length) {
    const size = bytes[position]!;
    position += 1;
    if (size === 0) return position;
    position += size;
  }
  return -1;
}

/** A GIF as a decoder will really draw it: its frames, and the canvas every frame is drawn on. */
export interface GifLayout {
  frames: number;
  /**
   * The logical screen widened to the furthest frame edge: decoders grow the canvas to hold every frame, whatever the
   * header says.
   */
  width: number;
  height: number;
}

/**
 * Reads a GIF's frame count and real canvas by walking its blocks (no decoding); stops early past `stopAfter` frames;
 * null for a malformed file.
 */
export function readGifLayout(bytes: Buffer, stopAfter = Number.POSITIVE_INFINITY): GifLayout | null {
  if (bytes.length < 13) return null;
  const layout: GifLayout = { frames: 0, width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  let position = 13;
  const flags = bytes[10]!;
  if (flags & 0x80) position += 3 * (1 << ((flags & 0x07) + 1));
  while (position < bytes.length) {
    const block = bytes[position]!;
    if (block === 0x3b) return layout;
    if (block === 0x21) {
      if (position + 2 > bytes.length) return null;
      position = skipSubBlocks(bytes, position + 2);
    } else if (block === 0x2c) {
      if (position + 10 > bytes.length) return null;
      layout.width = Math.max(layout.width, bytes.readUInt16LE(position + 1) + bytes.readUInt16LE(position + 5));
      layout.height = Math.max(layout.height, bytes.readUInt16LE(position + 3) + bytes.readUInt16LE(position + 7));
      const localFlags = bytes[position + 9]!;
      position += 10;
      if (localFlags & 0x80) position += 3 * (1 << ((localFlags & 0x07) + 1));
      position = skipSubBlocks(bytes, position + 1);
      layout.frames += 1;
      if (layout.frames > stopAfter) return layout;
    } else {
      return null;
    }
    if (position < 0) return null;
  }
  return null;
}

/** A picture's header and, for a GIF, its layout (null when its blocks cannot be walked), read without decoding. */
export interface PictureHeader extends ImageHeader {
  gif: GifLayout | null;
}

/** Reads a picture's header and, for a GIF, its layout, walking at most `stopAfter` frames past the first. */
export function readPictureHeader(bytes: Buffer, stopAfter = Number.POSITIVE_INFINITY): PictureHeader {
  const header = readImageHeader(bytes);
  return { ...header, gif: header.type === 'gif' ? readGifLayout(bytes, stopAfter) : null };
}

/**
 * Counts a GIF's frames by walking its blocks (no decoding); stops early past `stopAfter`; null for a malformed file.
 */
export function countGifFrames(bytes: Buffer, stopAfter = Number.POSITIVE_INFINITY): number | null {
  return readGifLayout(bytes, stopAfter)?.frames ?? null;
}
