// Perceptual hashes of textures (a 64-bit DCT pHash): a copy of a picture that was re-saved, touched up in a few pixels
// or nudged by a pixel or two hashes near the original, a different picture far from it. Decodes images: run it in the
// image workers (server/textures/image-work/catalogue.ts), never on the API's event loop.
import sharp from 'sharp';
import { capeFrameHeight } from '../../../src/lib/texture-layout.ts';

/** The side of the grey thumbnail the DCT runs on. */
const THUMBNAIL_SIZE = 32;
/** The side of the block of lowest frequencies the hash keeps. */
const BLOCK_SIZE = 8;
/**
 * The grey transparent areas are flattened onto: mid grey, so that a cape's cut-out layout weighs less than what is
 * drawn on it.
 */
const BACKGROUND_GREY = 128;
/**
 * Below this median distance of the low frequencies from their median (in grey levels) a picture is too simple to
 * recognise: one colour, a plain fill of the cape layout, a bare gradient or fine stripes put nearly all their
 * frequencies on the median, and a few changed pixels flip half the bits. Measured (bench/perceptual-hash.ts): such
 * pictures come at 0 to 5, thin designs on the cape layout at 8 to 13, drawn ones at 22 to 95.
 */
const SIMPLE_PICTURE_SPREAD = 12;
/**
 * The share of a picture's visible pixels (by alpha) that may lie outside its box on each side: a few stray pixels do
 * not move it.
 */
const STRAY_SHARE = 0.01;
/**
 * The widest picture hashed as it is; wider ones are first scaled down to this (a nudge of a pixel or two is lost in
 * that).
 */
const WORKING_WIDTH = 128;
/** How far apart (per channel) the colours of a plain fill may be. */
const PLAIN_FILL_TOLERANCE = 12;
/**
 * How much of its box a plain fill covers at least (the cape and elytra layout covers 88%; a one-colour symbol far
 * less).
 */
const PLAIN_FILL_COVER = 0.85;
/** How many pixels of a nudged copy the upload probes allow to have been pushed off each side of the canvas. */
const PROBE_REACH = 2;

/**
 * The Hamming distance at or below which an upload is taken for a blocklisted picture (of 63 informative bits).
 * Measured with bench/perceptual-hash.ts over 56 capes that have a hash (12 drawn designs, stripes and a gradient; 64 x
 * 32 on the cape layout, on the cape and elytra layout with their transparent areas, fully painted; 512 x 256) and 12
 * ears, each distance the nearest of the copy's upload probes to the original's hash:
 * - capes, copies: re-encoded as a dithered 64-colour GIF 0; 3 pixels changed 6 (on visible pixels), 4 (anywhere);
 *   shifted 1 pixel right 4, down 6, left 10, up 10; 2 right and 2 down 10; 2 right and 1 up 10; 2 left and 2 up 14
 *   (a cape on the layout losing two columns and rows of itself off the canvas's edges: beyond the threshold).
 * - capes, different designs (1436 pairs): nearest 14 (a drawn cape against a gradient on the same layout), then 16,
 *   16, 18 x 4; 99.5% of the pairs at 20 or more, the median 30.
 * - ears (14 x 7: every pixel is 1% of the picture): re-encoded 0, 3 pixels changed up to 14, shifted 1 pixel up to 14,
 *   2 pixels up to 22; different ears 18 or more. So ears are refused when re-saved, and when touched up or nudged only
 *   as long as the change stays within the threshold.
 */
export const PERCEPTUAL_MATCH_DISTANCE = 10;

/**
 * The hash of a picture too simple to recognise (one colour, nothing, a plain fill): it matches nothing, not even
 * itself (a real hash never has the DC bit set).
 */
export const NO_PERCEPTUAL_HASH = 'ffffffffffffffff';

/** cos((2x + 1)uπ / 2N) for x < N and u < BLOCK_SIZE, the DCT-II basis of the frequencies the hash keeps. */
const COSINES = Array.from({ length: BLOCK_SIZE }, (_, u) =>
  Float64Array.from({ length: THUMBNAIL_SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * THUMBNAIL_SIZE))),
);

/**
 * The 8 x 8 lowest DCT-II frequencies of a 32 x 32 grey thumbnail (row-major: index v·8+u, the DC term first),
 * orthonormal.
 */
function lowFrequencies(grey: ArrayLike<number>): Float64Array {
  const rows = new Float64Array(THUMBNAIL_SIZE * BLOCK_SIZE);
  for (let y = 0; y < THUMBNAIL_SIZE; y++) {
    for (let u = 0; u < BLOCK_SIZE; u++) {
      let sum = 0;
      for (let x = 0; x < THUMBNAIL_SIZE; x++) sum += grey[y * THUMBNAIL_SIZE + x]! * COSINES[u]![x]!;
      rows[y * BLOCK_SIZE + u] = sum;
    }
  }
  const scale = (k: number) => Math.sqrt((k === 0 ? 1 : 2) / THUMBNAIL_SIZE);
  const block = new Float64Array(BLOCK_SIZE * BLOCK_SIZE);
  for (let v = 0; v < BLOCK_SIZE; v++) {
    for (let u = 0; u < BLOCK_SIZE; u++) {
      let sum = 0;
      for (let y = 0; y < THUMBNAIL_SIZE; y++) sum += rows[y * BLOCK_SIZE + u]! * COSINES[v]![y]!;
      block[v * BLOCK_SIZE + u] = sum * scale(u) * scale(v);
    }
  }
  return block;
}

/**
 * The pHash of a 32 x 32 grey thumbnail (1024 values, row by row): one bit per low frequency above the median of the 63
 * besides DC, the DC bit 0; NO_PERCEPTUAL_HASH when it is too simple to recognise.
 */
function thumbnailHash(grey: ArrayLike<number>): string {
  if (grey.length !== THUMBNAIL_SIZE * THUMBNAIL_SIZE)
    throw new Error(`A hash thumbnail has ${THUMBNAIL_SIZE * THUMBNAIL_SIZE} values, got ${grey.length}`);
  const ac = lowFrequencies(grey).subarray(1);
  const median = Float64Array.from(ac).sort()[(ac.length - 1) / 2]!;
  // The typical distance of a frequency from the median: when most sit on it, a touch of noise flips their bits.
  const spread = Float64Array.from(ac, (value) => Math.abs(value - median)).sort()[(ac.length - 1) / 2]!;
  if (spread < SIMPLE_PICTURE_SPREAD) return NO_PERCEPTUAL_HASH;
  let bits = 0n;
  for (const value of ac) bits = (bits << 1n) | (value > median ? 1n : 0n);
  return bits.toString(16).padStart(16, '0');
}

/** Decoded 8-bit RGBA pixels. */
interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
}

/** A rectangle of an image; it may reach past the image's edges (what lies there is transparent). */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The first index at which the running sum of `weights` passes `share` of their total. */
function quantileStart(weights: Float64Array, share: number, total: number): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]!;
    if (sum > share * total) return i;
  }
  return weights.length - 1;
}

/** The box around what is visible, leaving out stray pixels at its edges; null when nothing is visible. */
function visibleBox({ data, width, height }: RgbaImage): Box | null {
  const columns = new Float64Array(width);
  const rows = new Float64Array(height);
  let total = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const alpha = data[(y * width + x) * 4 + 3]!;
      columns[x] += alpha;
      rows[y] += alpha;
      total += alpha;
    }
  }
  if (total === 0) return null;
  return {
    left: quantileStart(columns, STRAY_SHARE, total),
    top: quantileStart(rows, STRAY_SHARE, total),
    right: width - 1 - quantileStart(columns.slice().reverse(), STRAY_SHARE, total),
    bottom: height - 1 - quantileStart(rows.slice().reverse(), STRAY_SHARE, total),
  };
}

/**
 * The grey level (0-255) of every pixel, transparency flattened onto the background grey; outside the image counts as
 * transparent.
 */
function flattenedGrey({ data, width, height }: RgbaImage, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= width || y >= height) return BACKGROUND_GREY;
  const i = (y * width + x) * 4;
  const alpha = data[i + 3]! / 255;
  const luma = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  return luma * alpha + BACKGROUND_GREY * (1 - alpha);
}

/**
 * A box of the image as a 32 x 32 grey thumbnail: each thumbnail pixel the area-weighted mean of the pixels it covers.
 */
function thumbnail(image: RgbaImage, box: Box): Float64Array {
  const boxWidth = box.right - box.left + 1;
  const boxHeight = box.bottom - box.top + 1;
  const sums = new Float64Array(THUMBNAIL_SIZE * THUMBNAIL_SIZE);
  // Each source pixel spreads over the thumbnail pixels its area falls on (a box filter, exact for any scale).
  const spans = (start: number, size: number) => {
    const from = (start * THUMBNAIL_SIZE) / size;
    const to = ((start + 1) * THUMBNAIL_SIZE) / size;
    const parts: Array<[number, number]> = [];
    for (let cell = Math.floor(from); cell < to && cell < THUMBNAIL_SIZE; cell++)
      parts.push([cell, Math.min(to, cell + 1) - Math.max(from, cell)]);
    return parts;
  };
  const columnSpans = Array.from({ length: boxWidth }, (_, x) => spans(x, boxWidth));
  for (let y = 0; y < boxHeight; y++) {
    const rowSpans = spans(y, boxHeight);
    for (let x = 0; x < boxWidth; x++) {
      const grey = flattenedGrey(image, box.left + x, box.top + y);
      for (const [row, rowShare] of rowSpans)
        for (const [column, columnShare] of columnSpans[x]!)
          sums[row * THUMBNAIL_SIZE + column] += grey * rowShare * columnShare;
    }
  }
  // Every thumbnail pixel received exactly a unit of area.
  return sums;
}

/**
 * Whether the visible pixels in a box are all one colour and fill most of it: a plain fill of a layout, recognisable
 * only by its outline.
 */
function isPlainFill({ data, width }: RgbaImage, box: Box): boolean {
  const low = [255, 255, 255];
  const high = [0, 0, 0];
  let visible = 0;
  for (let y = box.top; y <= box.bottom; y++) {
    for (let x = box.left; x <= box.right; x++) {
      const i = (y * width + x) * 4;
      if (data[i + 3] === 0) continue;
      visible += 1;
      for (let channel = 0; channel < 3; channel++) {
        low[channel] = Math.min(low[channel]!, data[i + channel]!);
        high[channel] = Math.max(high[channel]!, data[i + channel]!);
      }
    }
  }
  const oneColour = low.every((value, channel) => high[channel]! - value <= PLAIN_FILL_TOLERANCE);
  return oneColour && visible >= PLAIN_FILL_COVER * (box.right - box.left + 1) * (box.bottom - box.top + 1);
}

/**
 * The first frame of a stored texture (the top width x width/2; capes, strips and ears all have frames of that shape),
 * at most WORKING_WIDTH wide, as RGBA.
 */
async function firstFrame(texture: Buffer): Promise<RgbaImage> {
  const { width, height } = await sharp(texture).metadata();
  if (!width || !height) throw new Error('The texture has no size');
  const frameHeight = Math.min(height, Math.max(1, Math.floor(capeFrameHeight(width))));
  let frame = sharp(texture).extract({ left: 0, top: 0, width, height: frameHeight });
  if (width > WORKING_WIDTH)
    frame = frame.resize(WORKING_WIDTH, Math.max(1, Math.round((frameHeight * WORKING_WIDTH) / width)), {
      fit: 'fill',
    });
  const { data, info } = await frame.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The pHashes an upload is compared with the blocklist by, as 16 hex digits each: first the picture's own (what
 * perceptualHash gives), then the picture as it would hash had a nudge pushed up to PROBE_REACH pixels of it off the
 * canvas on any side (its box grown by the lost pixels). The box cuts a texture to what is visible, so a cape's empty
 * layout does not count and a nudge that loses nothing changes nothing.
 */
export async function perceptualProbes(texture: Buffer, reach = PROBE_REACH): Promise<string[]> {
  const image = await firstFrame(texture);
  const box = visibleBox(image);
  if (!box || isPlainFill(image, box)) return [NO_PERCEPTUAL_HASH];
  // Only a side where the picture meets the canvas's edge can have lost pixels to a nudge.
  const growths = (before: boolean, after: boolean) => [
    0,
    ...Array.from({ length: reach }, (_, i) => [...(before ? [-(i + 1)] : []), ...(after ? [i + 1] : [])]).flat(),
  ];
  const hashes = new Set<string>();
  for (const dy of growths(box.top === 0, box.bottom === image.height - 1)) {
    for (const dx of growths(box.left === 0, box.right === image.width - 1)) {
      const grown = {
        left: box.left + Math.min(0, dx),
        right: box.right + Math.max(0, dx),
        top: box.top + Math.min(0, dy),
        bottom: box.bottom + Math.max(0, dy),
      };
      hashes.add(thumbnailHash(thumbnail(image, grown)));
    }
  }
  return [...hashes];
}

/**
 * The pHash of a stored texture's first frame, as 16 hex digits (NO_PERCEPTUAL_HASH for one too simple to recognise).
 */
export async function perceptualHash(texture: Buffer): Promise<string> {
  return (await perceptualProbes(texture, 0))[0]!;
}

/** A perceptual hash as text: 16 lowercase hex digits. */
const HASH_TEXT = /^[0-9a-f]{16}$/;

/** The two 32-bit halves of a hash, high first; throws on anything but 16 lowercase hex digits. */
function halvesOf(hash: string): [number, number] {
  if (!HASH_TEXT.test(hash)) throw new Error('A perceptual hash is 16 lowercase hex digits');
  return [Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8), 16)];
}

/** The number of bits set in a 32-bit integer. */
function bitCount(value: number): number {
  let n = value - ((value >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The number of bits in which two hashes differ (0 to 64). */
export function hammingDistance(a: string, b: string): number {
  const [aHigh, aLow] = halvesOf(a);
  const [bHigh, bLow] = halvesOf(b);
  return bitCount(aHigh ^ bHigh) + bitCount(aLow ^ bLow);
}

/**
 * Blocked hashes held for matching: each real one as its two 32-bit halves (NO_PERCEPTUAL_HASH matches nothing and is
 * left out), so that the probes of an upload are compared with thousands of them in a millisecond.
 */
export class PerceptualHashSet {
  private readonly halves: Uint32Array;

  constructor(hashes: Iterable<string>) {
    const real = [...new Set(hashes)].filter((hash) => hash !== NO_PERCEPTUAL_HASH);
    this.halves = Uint32Array.from(real.flatMap(halvesOf));
  }

  /** How many hashes the set holds. */
  get size(): number {
    return this.halves.length / 2;
  }

  /** Whether an upload (by its probes) is the picture one of the hashes was taken of: both real and within distance. */
  matches(probes: string[]): boolean {
    if (this.halves.length === 0) return false;
    for (const probe of probes) {
      if (probe === NO_PERCEPTUAL_HASH) continue;
      const [high, low] = halvesOf(probe);
      for (let i = 0; i < this.halves.length; i += 2)
        if (bitCount(high ^ this.halves[i]!) + bitCount(low ^ this.halves[i + 1]!) <= PERCEPTUAL_MATCH_DISTANCE)
          return true;
    }
    return false;
  }
}

/**
 * Whether an upload (by its probes) is the picture a blocklisted hash was taken of: both real and within
 * PERCEPTUAL_MATCH_DISTANCE.
 */
export function isPerceptualMatch(probes: string[], blocked: string): boolean {
  return new PerceptualHashSet([blocked]).matches(probes);
}
