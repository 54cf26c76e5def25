// Browser-side work on picked texture files for the upload pages and the gallery upload: the size, type and dimension
// checks, decoding GIF frames, messages with compress links.
import type { ErrorDisplay } from '../../lib/client/api-errors';
import { galleryMessages } from '../../lib/gallery-rules';
import {
  checkCapeFrames,
  COMPRESS_URL,
  textureMessages,
  typeFromMime,
  type TextureType,
} from '../../lib/texture-rules';
import { loadImage, type CapeTexture } from './preview/images';

/** A file that passed the client checks and is held until Upload or Cancel. */
export interface HeldTexture {
  file: File;
  /** Object URL of the file (revoke when dropped). */
  url: string;
  width: number;
  height: number;
  /** Decoded frames when the file is an animated GIF and the browser can decode it. */
  frames: HTMLCanvasElement[] | null;
}

/**
 * Decoded GIF frames are scaled down to at most this width: enough for the preview, and 64 frames stay small in memory.
 */
const PREVIEW_FRAME_MAX_WIDTH = 512;

/** The "too big" messages, which come with a link to a compression site. */
const TOO_BIG_MESSAGES: ReadonlySet<string> = new Set([
  textureMessages.capeTooBig,
  textureMessages.earsTooBig,
  galleryMessages.fileTooBig,
]);

/**
 * A message for the error display; the "too big" messages (or any, when `compressLink` says so) get a link to a
 * compression site.
 */
export function textureMessageDisplay(message: string, compressLink?: boolean): ErrorDisplay {
  const tooBig = compressLink ?? TOO_BIG_MESSAGES.has(message);
  const label = message === textureMessages.earsTooBig ? 'Compress them here' : 'Compress it here';
  return tooBig ? { kind: 'message', message, link: { href: COMPRESS_URL, label } } : { kind: 'message', message };
}

/**
 * Decodes every frame of a GIF with ImageDecoder (scaled to the preview size); null when the browser cannot, or it has
 * one frame. Throws the frame-count message.
 */
async function decodeGifFrames(file: File): Promise<HTMLCanvasElement[] | null> {
  if (typeof ImageDecoder === 'undefined') return null;
  let decoder: ImageDecoder | undefined;
  try {
    if (!(await ImageDecoder.isTypeSupported('image/gif'))) return null;
    decoder = new ImageDecoder({ data: await file.arrayBuffer(), type: 'image/gif' });
    await decoder.tracks.ready;
    await decoder.completed;
    const count = decoder.tracks.selectedTrack?.frameCount ?? 1;
    const tooMany = checkCapeFrames(count);
    if (tooMany) throw new FrameCountError(tooMany);
    if (count <= 1) return null;
    const frames: HTMLCanvasElement[] = [];
    for (let index = 0; index < count; index++) {
      const { image } = await decoder.decode({ frameIndex: index });
      const scale = Math.min(1, PREVIEW_FRAME_MAX_WIDTH / image.displayWidth);
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(image.displayWidth * scale));
      canvas.height = Math.max(1, Math.round(image.displayHeight * scale));
      canvas.getContext('2d')!.drawImage(image, 0, 0, canvas.width, canvas.height);
      image.close();
      frames.push(canvas);
    }
    return frames;
  } catch (error) {
    if (error instanceof FrameCountError) throw error;
    // The server decides on odd GIFs; the preview falls back to the first frame.
    return null;
  } finally {
    decoder?.close();
  }
}

class FrameCountError extends Error {}

/** The outcome of the client checks: the held texture, or the failed rule's message. */
export type CheckResult = { ok: true; texture: HeldTexture } | { ok: false; message: string };

/** The rules a picked file is checked against: an upload page's kind, or the gallery's rules. */
export interface TextureChecks {
  /** Checks size and type before the image is loaded. */
  checkFile: (file: { bytes: number; type: TextureType }) => string | null;
  /** Checks width and height once the image has loaded. */
  checkDimensions: (image: { width: number; height: number }) => string | null;
  /** Whether a GIF may be animated (its frames are played in the preview). */
  animated: boolean;
}

/**
 * Runs the file checks on a picked file in order: size and type, then that it loads as an image, then its dimensions
 * (and a GIF's frame count).
 */
export async function checkTextureFile(file: File, kind: TextureChecks): Promise<CheckResult> {
  const type = typeFromMime(file.type);
  const fileProblem = kind.checkFile({ bytes: file.size, type });
  if (fileProblem) return { ok: false, message: fileProblem };

  const url = URL.createObjectURL(file);
  const image = await loadImage(url);
  if (!image) {
    URL.revokeObjectURL(url);
    return { ok: false, message: textureMessages.invalidImage };
  }
  const { naturalWidth: width, naturalHeight: height } = image;
  const dimensionProblem = kind.checkDimensions({ width, height });
  if (dimensionProblem) {
    URL.revokeObjectURL(url);
    return { ok: false, message: dimensionProblem };
  }

  let frames: HTMLCanvasElement[] | null = null;
  if (kind.animated && type === 'gif') {
    try {
      frames = await decodeGifFrames(file);
    } catch (error) {
      URL.revokeObjectURL(url);
      return { ok: false, message: error instanceof FrameCountError ? error.message : textureMessages.invalidImage };
    }
  }
  return { ok: true, texture: { file, url, width, height, frames } };
}

const heldCapes = new WeakMap<HeldTexture, CapeTexture>();

/**
 * The cape the preview shows for a held file (its decoded frames when animated, else the image); the same object each
 * time, so re-renders don't reload the preview.
 */
export function heldCape(texture: HeldTexture): CapeTexture {
  let cape = heldCapes.get(texture);
  if (!cape) {
    cape = texture.frames ? { kind: 'frames', frames: texture.frames } : { kind: 'image', url: texture.url };
    heldCapes.set(texture, cape);
  }
  return cape;
}
