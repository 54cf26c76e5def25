// The file rules for capes and ears (size, type, dimensions), written once and used by the upload pages and the server.
import { messageOf, type Refusal, type RefusalReason } from './refusals';
import { capeFrameHeight } from './texture-layout';

/** Cape file size limit in bytes (500 KB). */
export const CAPE_MAX_BYTES = 500_000;
/** Ears file size limit in bytes (10 KB). */
export const EARS_MAX_BYTES = 10_000;
/** Largest cape, in pixels. */
export const CAPE_MAX_WIDTH = 2048;
export const CAPE_MAX_HEIGHT = 1024;
/** Ears size, in pixels. */
export const EARS_WIDTH = 14;
export const EARS_HEIGHT = 7;
/** Most frames an animated cape may have. */
export const MAX_CAPE_FRAMES = 64;
/** How long each frame of an animated cape shows. */
export const CAPE_FRAME_MS = 100;
/** Most pixels a stored strip holds in all (2048 x 4096); larger animations are stored with smaller frames. */
export const STRIP_MAX_PIXELS = 2048 * 4096;
/** Narrowest stored cape: the mod's canvas is 64 pixels wide times a power of two. */
export const CAPE_BASE_WIDTH = 64;
/** The cape sizes the site takes, in the words every upload page, the help and the template use. */
export const CAPE_SIZES = `64 × 32, 128 × 64, 192 × 96 and so on up to ${CAPE_MAX_WIDTH} × ${CAPE_MAX_HEIGHT}: a width that is a multiple of ${CAPE_BASE_WIDTH}, and a height of half the width`;
/** Where the "too big" messages point for compressing an image. */
export const COMPRESS_URL = 'https://tinypng.com/';

/** The exact messages the user sees, one for each rule. */
export const textureMessages = {
  capeTooBig: 'The cape is too big. Max file size is 500KB.',
  capeType: 'Capes must be either PNG or GIF',
  invalidImage: 'That image is not valid',
  capeTooLarge: 'Capes must be no larger than 2048 x 1024',
  capeDimensions: "The cape isn't the right dimensions. Check out the gallery for some awesome capes.",
  capeTooManyFrames: `Animated capes can have at most ${MAX_CAPE_FRAMES} frames`,
  earsTooBig: 'The ears are too big. Max file size is 10KB.',
  earsType: 'Ears must be PNG',
  earsDimensions: "The ears aren't the right dimensions. Check out the gallery for some awesome ears.",
} as const;

/** The name of one of the texture rules' messages. */
export type TextureMessageKey = keyof typeof textureMessages;

/** Why each texture rule refuses, by message. */
export const textureReasons = {
  capeTooBig: 'too_big',
  capeType: 'wrong_type',
  invalidImage: 'invalid_image',
  capeTooLarge: 'dimensions',
  capeDimensions: 'dimensions',
  capeTooManyFrames: 'too_many_frames',
  earsTooBig: 'too_big',
  earsType: 'wrong_type',
  earsDimensions: 'dimensions',
} as const satisfies Record<TextureMessageKey, RefusalReason>;

/** A texture rule's refusal: its reason code with its message. */
export function textureRefusal(key: TextureMessageKey): Refusal {
  return { reason: textureReasons[key], message: textureMessages[key] };
}

/** A wrong-size message: the rule's words for capes or ears, then the file's own size. */
export function wrongSizeMessage(kind: 'cape' | 'ears', image: { width: number; height: number }): string {
  return `${textureMessages[`${kind}Dimensions`]} This file is ${image.width} x ${image.height} pixels.`;
}

/** The wrong-size message for a cape of this size: the rule's words, then the file's own size. */
export function wrongCapeSizeMessage(image: { width: number; height: number }): string {
  return wrongSizeMessage('cape', image);
}

/** The wrong-size refusal of a cape or ears of this size (its message names the size). */
export function wrongSizeRefusal(kind: 'cape' | 'ears', image: { width: number; height: number }): Refusal {
  return { reason: textureReasons[`${kind}Dimensions`], message: wrongSizeMessage(kind, image) };
}

/** The message when an upload carries no file. */
export const NO_FILE_MESSAGE = 'Choose a file to upload';
/** The refusal of an upload that carries no file. */
export const NO_FILE_REFUSAL: Refusal = { reason: 'no_file', message: NO_FILE_MESSAGE };

/** The message when a player uploads (or wears) a cape, or uploads ears, too often. */
export function tooManyUploadsMessage(slot: 'cape' | 'ears'): string {
  return `Too many ${slot} uploads. Try again in 10 minutes.`;
}

/** A texture's file type as the rules know it. */
export type TextureType = 'png' | 'gif' | 'other';

/** The MIME type of a browser File mapped to a texture type. */
export function typeFromMime(mime: string): TextureType {
  if (mime === 'image/png') return 'png';
  if (mime === 'image/gif') return 'gif';
  return 'other';
}

/**
 * What is wrong with a cape file (a cape upload's or a gallery upload's) before its image is loaded: it is too big, or
 * it is not a PNG or GIF; null when neither.
 */
export function capeFileFault(file: { bytes: number; type: TextureType }): 'tooBig' | 'type' | null {
  if (file.bytes > CAPE_MAX_BYTES) return 'tooBig';
  if (file.type !== 'png' && file.type !== 'gif') return 'type';
  return null;
}

/** Checks a cape's size and type (before the image is loaded); returns the refusal, or null when it passes. */
export function capeFileRefusal(file: { bytes: number; type: TextureType }): Refusal | null {
  const fault = capeFileFault(file);
  return fault && textureRefusal(fault === 'tooBig' ? 'capeTooBig' : 'capeType');
}

/** Checks a cape's size and type (before the image is loaded); returns the message, or null when it passes. */
export function checkCapeFile(file: { bytes: number; type: TextureType }): string | null {
  return messageOf(capeFileRefusal(file));
}

/** Checks a cape's dimensions; returns the refusal (a wrong size names the file's size), or null when they pass. */
export function capeDimensionsRefusal(image: { width: number; height: number }): Refusal | null {
  const { width, height } = image;
  if (!(width > 0 && height > 0)) return textureRefusal('invalidImage');
  if (width > CAPE_MAX_WIDTH || height > CAPE_MAX_HEIGHT) return textureRefusal('capeTooLarge');
  if (height !== capeFrameHeight(width)) return wrongSizeRefusal('cape', image);
  if (height % 32 !== 0 && width % 64 !== 0) return wrongSizeRefusal('cape', image);
  return null;
}

/** Checks a cape's dimensions; returns the message, or null when they pass. */
export function checkCapeDimensions(image: { width: number; height: number }): string | null {
  return messageOf(capeDimensionsRefusal(image));
}

/**
 * The width a cape is stored at: the next 64·2ⁿ at or above its width (the mod pads anything else into such a canvas).
 */
export function storedCapeWidth(width: number): number {
  let stored = CAPE_BASE_WIDTH;
  while (stored < width) stored *= 2;
  return stored;
}

/** Checks an animated cape's frame count; returns the refusal, or null when it passes. */
export function capeFramesRefusal(frames: number): Refusal | null {
  return frames > MAX_CAPE_FRAMES ? textureRefusal('capeTooManyFrames') : null;
}

/** Checks an animated cape's frame count; returns the message, or null when it passes. */
export function checkCapeFrames(frames: number): string | null {
  return messageOf(capeFramesRefusal(frames));
}

/** Checks ears' size and type (before the image is loaded); returns the refusal, or null when it passes. */
export function earsFileRefusal(file: { bytes: number; type: TextureType }): Refusal | null {
  if (file.bytes > EARS_MAX_BYTES) return textureRefusal('earsTooBig');
  if (file.type !== 'png') return textureRefusal('earsType');
  return null;
}

/** Checks ears' size and type (before the image is loaded); returns the message, or null when it passes. */
export function checkEarsFile(file: { bytes: number; type: TextureType }): string | null {
  return messageOf(earsFileRefusal(file));
}

/** Checks ears' dimensions: exactly 14 x 7; returns the refusal (naming the file's size), or null. */
export function earsDimensionsRefusal(image: { width: number; height: number }): Refusal | null {
  return image.width === EARS_WIDTH && image.height === EARS_HEIGHT ? null : wrongSizeRefusal('ears', image);
}

/** Checks ears' dimensions: exactly 14 x 7; returns the message, or null when they pass. */
export function checkEarsDimensions(image: { width: number; height: number }): string | null {
  return messageOf(earsDimensionsRefusal(image));
}
