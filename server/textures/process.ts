// The texture pipeline: check an uploaded cape or ears against SPEC §5, decode safely and re-encode to clean PNG.
import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import {
  CAPE_FRAME_MS,
  CAPE_MAX_HEIGHT,
  CAPE_MAX_WIDTH,
  checkCapeDimensions,
  checkCapeFile,
  checkCapeFrames,
  checkEarsDimensions,
  checkEarsFile,
  MAX_CAPE_FRAMES,
  textureMessages,
} from '../../src/lib/texture-rules.ts';
import { checkGalleryFile, isEarsSize } from '../../src/lib/gallery-rules.ts';
import { countGifFrames, readImageHeader } from './image-header.ts';

sharp.cache(false);

/** A re-encoded PNG ready to store. */
export interface EncodedTexture {
  bytes: Buffer;
  hash: string;
  width: number;
  height: number;
  frames: number;
}

/** A cape that passed: its static image, and for an animated GIF the strip of its frames. */
export interface ProcessedCape {
  still: EncodedTexture;
  strip: EncodedTexture | null;
}

/** A size-and-type check that runs before anything is decoded. */
type FileCheck = (file: { bytes: number; type: 'png' | 'gif' | 'other' }) => string | null;

/** A rule failure, carrying the SPEC §5 message for the user. */
export class TextureRejected extends Error {}

/** The SHA-256 of bytes, as 64 lowercase hex characters. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function encode(image: Sharp, frames: number): Promise<EncodedTexture> {
  const { data, info } = await image.ensureAlpha().png({ compressionLevel: 9, palette: false }).toBuffer({ resolveWithObject: true });
  return { bytes: data, hash: sha256(data), width: info.width, height: info.height, frames };
}

function reject(message: string | null): void {
  if (message) throw new TextureRejected(message);
}

/** Decodes with a pixel limit; a file that does not decode is "not valid". */
async function decodeChecked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TextureRejected) throw error;
    throw new TextureRejected(textureMessages.invalidImage);
  }
}

/** Checks and re-encodes a cape upload (PNG or GIF); throws TextureRejected with the SPEC §5 message. */
export async function processCape(upload: Buffer, checkFile: FileCheck = checkCapeFile): Promise<ProcessedCape> {
  const header = readImageHeader(upload);
  reject(checkFile({ bytes: upload.length, type: header.type }));
  if (header.width === 0 || header.height === 0) reject(textureMessages.invalidImage);
  reject(checkCapeDimensions(header));
  const frameLimit = CAPE_MAX_WIDTH * CAPE_MAX_HEIGHT;
  if (header.type === 'png') {
    const still = await decodeChecked(() => encode(sharp(upload, { limitInputPixels: frameLimit, failOn: 'error' }), 1));
    reject(checkCapeDimensions(still));
    return { still, strip: null };
  }
  const frames = countGifFrames(upload, MAX_CAPE_FRAMES);
  if (frames === null || frames === 0) reject(textureMessages.invalidImage);
  reject(checkCapeFrames(frames!));
  return decodeChecked(async () => {
    const still = await encode(sharp(upload, { limitInputPixels: frameLimit, failOn: 'error', page: 0, pages: 1 }), 1);
    reject(checkCapeDimensions(still));
    if (frames === 1) return { still, strip: null };
    const strip = await encode(sharp(upload, { limitInputPixels: frameLimit * MAX_CAPE_FRAMES, failOn: 'error', pages: -1 }), frames!);
    if (strip.width !== still.width || strip.height !== still.height * frames!) reject(textureMessages.invalidImage);
    return { still, strip };
  });
}

/** Checks and re-encodes ears (PNG, exactly 14 x 7; the first frame of a GIF where `checkFile` allows one); throws TextureRejected with the SPEC §5 message. */
export async function processEars(upload: Buffer, checkFile: FileCheck = checkEarsFile): Promise<EncodedTexture> {
  const header = readImageHeader(upload);
  reject(checkFile({ bytes: upload.length, type: header.type }));
  if (header.width === 0 || header.height === 0) reject(textureMessages.invalidImage);
  reject(checkEarsDimensions(header));
  const ears = await decodeChecked(() => encode(sharp(upload, { limitInputPixels: 14 * 7, failOn: 'error', page: 0, pages: 1 }), 1));
  reject(checkEarsDimensions(ears));
  return ears;
}

/** A gallery texture that passed: ears (14 x 7) or a cape with its optional strip. */
export type ProcessedGalleryTexture = { kind: 'ears'; still: EncodedTexture; strip: null } | ({ kind: 'cape' } & ProcessedCape);

/** Checks and re-encodes a gallery upload: 14 x 7 is ears, anything else a cape (SPEC §5 gallery rules and messages). */
export async function processGalleryTexture(upload: Buffer): Promise<ProcessedGalleryTexture> {
  const header = readImageHeader(upload);
  if (!isEarsSize(header)) return { kind: 'cape', ...(await processCape(upload, checkGalleryFile)) };
  return { kind: 'ears', still: await processEars(upload, checkGalleryFile), strip: null };
}

/** Turns a stored strip (frames stacked vertically, each width x width/2) back into a looping GIF at 100 ms a frame. */
export async function stripToGif(strip: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(strip).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pageHeight = info.width / 2;
  const frames = Math.max(1, Math.round(info.height / pageHeight));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4, pageHeight } })
    .gif({ delay: Array.from({ length: frames }, () => CAPE_FRAME_MS), loop: 0 })
    .toBuffer();
}
