// The texture pipeline: check an uploaded cape or ears against the file rules, decode safely and re-encode to clean
// PNG.
import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import {
  CAPE_BASE_WIDTH,
  CAPE_FRAME_MS,
  CAPE_MAX_HEIGHT,
  CAPE_MAX_WIDTH,
  capeDimensionsRefusal,
  capeFileRefusal,
  capeFramesRefusal,
  earsDimensionsRefusal,
  earsFileRefusal,
  MAX_CAPE_FRAMES,
  STRIP_MAX_PIXELS,
  storedCapeWidth,
  textureRefusal,
} from '../../../src/lib/texture-rules.ts';
import { galleryFileRefusal, isEarsSize } from '../../../src/lib/gallery-rules.ts';
import type { Refusal, RefusalReason } from '../../../src/lib/refusals.ts';
import { readPictureHeader, type PictureHeader } from './image-header.ts';
import type { RawImage } from './raw-image.ts';
import { capeFrameHeight, stripFrameCount } from '../../../src/lib/texture-layout.ts';

sharp.cache(false);

/** A re-encoded PNG ready to store. */
export interface EncodedTexture {
  bytes: Buffer;
  hash: string;
  width: number;
  height: number;
  frames: number;
}

/**
 * A cape that passed: its static image, for an animated GIF the strip of its frames, and a note for the player when the
 * strip was changed to fit.
 */
export interface ProcessedCape {
  still: EncodedTexture;
  strip: EncodedTexture | null;
  notice: string | null;
}

/**
 * An upload with its header, read once: by the API, for the cost of its image job, then handed to the worker with the
 * bytes so that the pipeline does not read it again.
 */
export interface ReadUpload {
  bytes: Buffer;
  header: PictureHeader;
}

/** An upload as the image work takes it: read already, or bare bytes (read where they are processed). */
export type UploadInput = Buffer | ReadUpload;

/** An upload with its header: as it came, or read now from bare bytes (a GIF walked up to one frame past the most). */
export function readUpload(input: UploadInput): ReadUpload {
  return Buffer.isBuffer(input) ? { bytes: input, header: readPictureHeader(input, MAX_CAPE_FRAMES) } : input;
}

/** A size-and-type check that runs before anything is decoded. */
type FileCheck = (file: { bytes: number; type: 'png' | 'gif' | 'other' }) => Refusal | null;

/**
 * A rule failure inside the image work, carrying the rule's message for the user and its reason code; it leaves the
 * worker as its refusal, a plain value.
 */
export class TextureRejected extends Error {
  readonly reason: RefusalReason;

  constructor(refusal: Refusal) {
    super(refusal.message);
    this.reason = refusal.reason;
  }

  /** The refusal this failure stands for. */
  get refusal(): Refusal {
    return { reason: this.reason, message: this.message };
  }
}

/** The SHA-256 of bytes, as 64 lowercase hex characters. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The zlib level uploads are stored at (the smallest files). */
const UPLOAD_COMPRESSION_LEVEL = 9;

/**
 * Encodes a picture as a clean PNG. Each row is filtered (PNG's adaptive filtering) before zlib: without a filter,
 * zlib's level 9 spends over a second on a 2048 x 1024 picture whose every pixel is a colour of its own (a 19 KB file,
 * so a valid upload), and stores it as 4.3 MB; filtered, 68 ms and 19 KB (bench/image-job-cost.ts).
 */
async function encode(
  image: Sharp,
  frames: number,
  compressionLevel = UPLOAD_COMPRESSION_LEVEL,
): Promise<EncodedTexture> {
  const { data, info } = await image
    .ensureAlpha()
    .png({ compressionLevel, palette: false, adaptiveFiltering: true })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, hash: sha256(data), width: info.width, height: info.height, frames };
}

/**
 * Encodes raw RGBA pixels (frames stacked vertically) as a clean PNG, at the uploads' zlib level unless told otherwise.
 */
export function encodeRaw(
  image: RawImage,
  frames: number,
  compressionLevel = UPLOAD_COMPRESSION_LEVEL,
): Promise<EncodedTexture> {
  return encode(
    sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } }),
    frames,
    compressionLevel,
  );
}

/**
 * Scales raw RGBA pixels to width x height with nearest-neighbour (exact: every output pixel is a copy of an input
 * pixel).
 */
export function scaleNearest(image: RawImage, width: number, height: number): RawImage {
  if (image.width === width && image.height === height) return image;
  const aligned = image.data.byteOffset % 4 === 0 ? image.data : Buffer.from(image.data);
  const source = new Uint32Array(aligned.buffer, aligned.byteOffset, image.width * image.height);
  const data = Buffer.alloc(width * height * 4);
  const target = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const columns = Int32Array.from({ length: width }, (_, x) => Math.floor((x * image.width) / width));
  for (let y = 0; y < height; y++) {
    const from = Math.floor((y * image.height) / height) * image.width;
    const to = y * width;
    for (let x = 0; x < width; x++) target[to + x] = source[from + columns[x]!]!;
  }
  return { data, width, height };
}

/**
 * The GIF rule for a frame's delay: browsers show delays of 10 ms or less (and missing ones) for 100 ms, and so do we.
 */
export function effectiveDelay(delay: number | undefined): number {
  return delay === undefined || delay <= 10 ? CAPE_FRAME_MS : delay;
}

/**
 * A GIF's timeline resampled to the strip's tick (100 ms): for each tick, the frame on screen at that moment; at most
 * 64 ticks (6.4 s), the rest is cut.
 */
export function resampleTimeline(delays: Array<number | undefined>, frames: number): { ticks: number[]; cut: boolean } {
  const ends: number[] = [];
  let total = 0;
  for (let frame = 0; frame < frames; frame++) {
    total += effectiveDelay(delays[frame]);
    ends.push(total);
  }
  const length = Math.ceil(total / CAPE_FRAME_MS);
  const ticks: number[] = [];
  let frame = 0;
  for (let tick = 0; tick < Math.min(length, MAX_CAPE_FRAMES); tick++) {
    while (ends[frame]! <= tick * CAPE_FRAME_MS) frame += 1;
    ticks.push(frame);
  }
  return { ticks, cut: length > MAX_CAPE_FRAMES };
}

/**
 * The frame width a strip of `frames` frames is stored at: the cape's stored width, halved until the strip fits
 * STRIP_MAX_PIXELS.
 */
export function stripFrameWidth(storedWidth: number, frames: number): number {
  let width = storedWidth;
  while (width > CAPE_BASE_WIDTH && frames * width * capeFrameHeight(width) > STRIP_MAX_PIXELS) width /= 2;
  return width;
}

function reject(refusal: Refusal | null): void {
  if (refusal) throw new TextureRejected(refusal);
}

/** Decodes with a pixel limit; a file that does not decode is "not valid". */
async function decodeChecked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TextureRejected) throw error;
    throw new TextureRejected(textureRefusal('invalidImage'));
  }
}

/**
 * Re-encodes a still cape (the first frame of a GIF) at its stored width, scaled up with nearest-neighbour when it is
 * not 64·2ⁿ wide.
 */
async function encodeStill(upload: Buffer, header: { width: number; height: number }): Promise<EncodedTexture> {
  const decoder = sharp(upload, {
    limitInputPixels: CAPE_MAX_WIDTH * CAPE_MAX_HEIGHT,
    failOn: 'error',
    page: 0,
    pages: 1,
  });
  const width = storedCapeWidth(header.width);
  if (width === header.width) {
    const still = await encode(decoder, 1);
    if (still.width !== header.width || still.height !== header.height) reject(textureRefusal('invalidImage'));
    return still;
  }
  const { data, info } = await decoder.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== header.width || info.height !== header.height) reject(textureRefusal('invalidImage'));
  return encodeRaw(scaleNearest({ data, width: info.width, height: info.height }, width, capeFrameHeight(width)), 1);
}

/**
 * The strip's raw pixels from all decoded frames (stacked): for each tick its frame, scaled to frameWidth; the decode
 * itself when nothing changes. It runs on the event loop, so it gives way to other requests after every frame.
 */
async function assembleStrip(decoded: RawImage, frames: number, ticks: number[], frameWidth: number): Promise<Buffer> {
  const frameHeight = frameWidth / 2;
  const decodedHeight = decoded.height / frames;
  const unchanged =
    decoded.width === frameWidth &&
    decodedHeight === frameHeight &&
    ticks.length === frames &&
    ticks.every((source, tick) => source === tick);
  if (unchanged) return decoded.data;
  const decodedFrameBytes = decoded.width * decodedHeight * 4;
  const frameBytes = frameWidth * frameHeight * 4;
  const strip = Buffer.alloc(frameBytes * ticks.length);
  const scaled = new Map<number, RawImage>();
  for (const [tick, source] of ticks.entries()) {
    let frame = scaled.get(source);
    if (!frame) {
      await new Promise((resolve) => setImmediate(resolve));
      const pixels = decoded.data.subarray(source * decodedFrameBytes, (source + 1) * decodedFrameBytes);
      frame = scaleNearest({ data: pixels, width: decoded.width, height: decodedHeight }, frameWidth, frameHeight);
      scaled.set(source, frame);
    }
    frame.data.copy(strip, tick * frameBytes);
  }
  return strip;
}

/**
 * Builds the strip of an animated GIF from one decode of all its frames: resampled to the 100 ms tick, frames scaled to
 * fit the pixel budget.
 */
async function buildStrip(
  upload: Buffer,
  header: { width: number; height: number },
  frames: number,
): Promise<Omit<ProcessedCape, 'still'>> {
  const limitInputPixels = CAPE_MAX_WIDTH * CAPE_MAX_HEIGHT * MAX_CAPE_FRAMES;
  const metadata = await sharp(upload, { limitInputPixels, failOn: 'error', pages: -1 }).metadata();
  if (metadata.pages !== frames || metadata.pageHeight !== header.height || metadata.width !== header.width)
    reject(textureRefusal('invalidImage'));
  const { ticks, cut } = resampleTimeline(metadata.delay ?? [], frames);
  if (ticks.length < 2) return { strip: null, notice: null };
  const storedWidth = storedCapeWidth(header.width);
  const frameWidth = stripFrameWidth(storedWidth, ticks.length);
  const frameHeight = frameWidth / 2;
  // One decode of every frame, then nearest-neighbour sampling in JavaScript: sharp's resize premultiplies alpha in
  // floats and takes twice as long as the decode for the largest animations. The worst upload (64 frames of 2048 x
  // 1024) holds 512 MB of pixels for a moment; the image job queue bounds how many do at once.
  const { data, info } = await sharp(upload, { limitInputPixels, failOn: 'error', pages: -1 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (!Number.isInteger(info.height / frames)) reject(textureRefusal('invalidImage'));
  const strip = await assembleStrip({ data, width: info.width, height: info.height }, frames, ticks, frameWidth);
  const notices: string[] = [];
  if (frameWidth < storedWidth)
    notices.push(`The animation was scaled to ${frameWidth} × ${frameHeight} a frame to fit.`);
  if (cut) notices.push(`The animation was cut to its first ${(MAX_CAPE_FRAMES * CAPE_FRAME_MS) / 1000} seconds.`);
  return {
    strip: await encodeRaw({ data: strip, width: frameWidth, height: frameHeight * ticks.length }, ticks.length),
    notice: notices.length > 0 ? notices.join(' ') : null,
  };
}

/** Checks and re-encodes a cape upload (PNG or GIF); throws TextureRejected with the failed rule's message. */
export async function processCape(upload: UploadInput, checkFile: FileCheck = capeFileRefusal): Promise<ProcessedCape> {
  const { bytes, header } = readUpload(upload);
  reject(checkFile({ bytes: bytes.length, type: header.type }));
  if (header.width === 0 || header.height === 0) reject(textureRefusal('invalidImage'));
  reject(capeDimensionsRefusal(header));
  let frames = 1;
  if (header.type === 'gif') {
    const counted = header.gif?.frames ?? null;
    if (counted === null || counted === 0) reject(textureRefusal('invalidImage'));
    reject(capeFramesRefusal(counted!));
    frames = counted!;
  }
  return decodeChecked(async () => {
    const still = await encodeStill(bytes, header);
    if (frames === 1) return { still, strip: null, notice: null };
    return { still, ...(await buildStrip(bytes, header, frames)) };
  });
}

/**
 * Checks and re-encodes ears (PNG, exactly 14 x 7; the first frame of a GIF where `checkFile` allows one); throws
 * TextureRejected with the failed rule's message.
 */
export async function processEars(
  upload: UploadInput,
  checkFile: FileCheck = earsFileRefusal,
): Promise<EncodedTexture> {
  const { bytes, header } = readUpload(upload);
  reject(checkFile({ bytes: bytes.length, type: header.type }));
  if (header.width === 0 || header.height === 0) reject(textureRefusal('invalidImage'));
  reject(earsDimensionsRefusal(header));
  const ears = await decodeChecked(() =>
    encode(sharp(bytes, { limitInputPixels: 14 * 7, failOn: 'error', page: 0, pages: 1 }), 1),
  );
  reject(earsDimensionsRefusal(ears));
  return ears;
}

/** A gallery texture that passed: ears (14 x 7) or a cape with its optional strip. */
export type ProcessedGalleryTexture =
  { kind: 'ears'; still: EncodedTexture; strip: null; notice: null } | ({ kind: 'cape' } & ProcessedCape);

/**
 * Checks and re-encodes a gallery upload: 14 x 7 is ears, anything else a cape (size and type checked with the
 * gallery's messages).
 */
export async function processGalleryTexture(upload: UploadInput): Promise<ProcessedGalleryTexture> {
  const read = readUpload(upload);
  if (!isEarsSize(read.header)) return { kind: 'cape', ...(await processCape(read, galleryFileRefusal)) };
  return { kind: 'ears', still: await processEars(read, galleryFileRefusal), strip: null, notice: null };
}

/**
 * Turns a stored strip (frames stacked vertically, each width x width/2) back into a looping GIF that plays at the
 * strip's speed, 100 ms a strip frame: equal frames in a row are written as one frame of their summed delay (two equal
 * 100 ms frames are one of 200 ms), which keeps the GIF smaller and its timeline the strip's.
 */
export async function stripToGif(strip: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(strip).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pageHeight = capeFrameHeight(info.width);
  const frames = Math.max(1, Math.round(stripFrameCount(info.width, info.height)));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4, pageHeight } })
    .gif({ delay: Array.from({ length: frames }, () => CAPE_FRAME_MS), loop: 0, keepDuplicateFrames: false })
    .toBuffer();
}

/** The first frame of a stored strip, re-encoded as a still cape. */
export async function stripStill(strip: Buffer): Promise<EncodedTexture> {
  const { width = 0 } = await sharp(strip).metadata();
  return encode(sharp(strip).extract({ left: 0, top: 0, width, height: capeFrameHeight(width) }), 1);
}
