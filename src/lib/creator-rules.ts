// The cape creators' rules, written once for the creator pages and the server.
import { usernameCharacters, USERNAME_MAX } from './ids';

/** Smallest and largest cape scale: scale n makes a cape 64·2ⁿ⁻¹ pixels wide. */
export const CREATOR_MIN_SCALE = 1;
export const CREATOR_MAX_SCALE = 6;
/** Slider range of the head cape's colour and brightness sliders. */
export const SLIDER_MIN = -100;
export const SLIDER_MAX = 100;
/** Longest AI prompt, in characters. */
export const AI_PROMPT_MAX = 50;
/** Longest username the head cape and OptiFine lookup take. */
export const CREATOR_USERNAME_MAX = USERNAME_MAX;
/** Largest picture a creator takes (the cape creator's image, the animated creator's GIF and background). */
export const CREATOR_INPUT_MAX_BYTES = 2_000_000;
/** How long the OptiFine username box waits after the last key before it looks the name up. */
export const OPTIFINE_LOOKUP_DEBOUNCE_MS = 500;

/** The OptiFine creator's ready-made designs (the dropdown also has custom and username lookup). */
export const OPTIFINE_DESIGNS = [
  'standard',
  'white',
  'gray',
  'black',
  'red',
  'green',
  'blue',
  'yellow',
  'purple',
  'cyan',
] as const;
/** One of the OptiFine creator's ready-made designs. */
export type OptifineDesign = (typeof OPTIFINE_DESIGNS)[number];

/**
 * Where the banner is drawn on the cape: stretched to the whole front, or at its own shape at the top, middle or
 * bottom.
 */
export const BANNER_ALIGNMENTS = ['scale', 'top', 'middle', 'bottom'] as const;
/** A banner alignment. */
export type BannerAlignment = (typeof BANNER_ALIGNMENTS)[number];

/** The creators' messages, word for word. */
export const creatorMessages = {
  optifineNoCape: "That user doesn't have a cape.",
  promptEmpty: 'Describe the cape you want.',
  promptTooLong: `The prompt can be at most ${AI_PROMPT_MAX} characters.`,
  inputMissing: 'Choose a picture first.',
  inputTooBig: `The picture is too big. Max file size is ${CREATOR_INPUT_MAX_BYTES / 1_000_000}MB.`,
  inputType: 'The picture must be a PNG, JPEG, GIF or WebP image.',
  animatedType: 'The animation must be a GIF.',
  backgroundType: 'The background must be a PNG image.',
  invalidImage: 'That image is not valid',
  badScale: `The scale must be a whole number from ${CREATOR_MIN_SCALE} to ${CREATOR_MAX_SCALE}.`,
  badColour: 'The colour must be a hex colour such as #ff0000, or auto.',
  expired: 'This cape is no longer kept. Change a setting to make it again.',
  tooManyRequests: 'Too many cape requests. Try again in a minute.',
  tooManyPrompts: 'You have made a lot of AI capes. Try again in an hour.',
  bannerCode: 'That banner code is not valid.',
  /** When the player service (profiles and skins) cannot be reached or fails: the head creator shows it. */
  playerServiceDown: 'The player service could not be reached. Try again later.',
  /** When the OptiFine cape server cannot be reached or fails (a player without a cape is optifineNoCape). */
  optifineServiceDown: 'The OptiFine cape server could not be reached. Try again later.',
} as const;

/** The message when the head creator's player is unknown or has no skin. */
export function noSkinMessage(name: string): string {
  return `No player called ${name} has a skin.`;
}

/**
 * Strips every character other than letters, digits and underscore, and cuts to `max` (the head cape, OptiFine and
 * registration username inputs).
 */
export function cleanUsername(text: string, max = CREATOR_USERNAME_MAX): string {
  return usernameCharacters(text).slice(0, max);
}

/** The width in pixels of a cape made at a scale. */
export function capeWidthForScale(scale: number): number {
  return 64 * 2 ** (scale - 1);
}

/** Whether a scale is one a creator takes. */
export function isCreatorScale(scale: number): boolean {
  return Number.isInteger(scale) && scale >= CREATOR_MIN_SCALE && scale <= CREATOR_MAX_SCALE;
}

/** A prompt without control characters (a pasted NUL or line break is dropped, as the prompt box drops it). */
export function cleanPrompt(text: string): string {
  return [...text].filter((character) => character >= ' ' && character !== '\u007f').join('');
}

/** Checks an AI prompt; returns the message, or null when it passes. */
export function checkAiPrompt(prompt: string): string | null {
  if (prompt.trim() === '') return creatorMessages.promptEmpty;
  if ([...prompt].length > AI_PROMPT_MAX) return creatorMessages.promptTooLong;
  return null;
}

/** Clamps a slider value to -100..100 (whole numbers). */
export function clampSlider(value: number): number {
  return Math.max(SLIDER_MIN, Math.min(SLIDER_MAX, Math.round(value)));
}

/** A colour as the creators send it: six hex digits without '#', lower case. */
export const HEX_COLOUR_PATTERN = /^[0-9a-fA-F]{6}$/;
