// The wardrobe's words, written once for the page and the server.

/** The exact messages of the wardrobe calls. */
export const wardrobeMessages = {
  notFound: 'That item is not in your wardrobe.',
  badId: 'That is not a wardrobe item.',
} as const;

/** Wardrobe item ids as the server makes them: opaque, URL-safe, 16 characters. */
export const WARDROBE_ITEM_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

/** Where an item came from, in the words the page shows. */
export const WARDROBE_SOURCE_LABELS = {
  upload: 'Uploaded',
  creator: 'Made with a creator',
  gallery: 'From the gallery',
} as const;

/** Longest name a player may give a wardrobe item (an uploaded file's name is cut to it). */
export const WARDROBE_NAME_MAX = 40;

/** The exact messages of renaming an item. */
export const wardrobeNameMessages = {
  tooLong: `A name may be at most ${WARDROBE_NAME_MAX} characters.`,
  characters: 'A name may not contain control characters.',
} as const;

/** Control characters, which a name may not hold. */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * Checks a name a player gives an item (trimmed; an empty one takes the name away, so the item is called by its title,
 * or by what it is and when it came in): the message, or null.
 */
export function wardrobeNameMessage(name: string): string | null {
  if ([...name.trim()].length > WARDROBE_NAME_MAX) return wardrobeNameMessages.tooLong;
  if (CONTROL_CHARACTERS.test(name)) return wardrobeNameMessages.characters;
  return null;
}

/**
 * An uploaded file's name as an item's name: without its folder and extension, spaces for underscores, cut to
 * WARDROBE_NAME_MAX; null when nothing is left.
 */
export function nameFromFileName(fileName: string | null | undefined): string | null {
  if (!fileName) return null;
  const base = fileName
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const cleaned = base
    .replace(new RegExp(CONTROL_CHARACTERS.source, 'gu'), '')
    .replace(/[_\s]+/g, ' ')
    .trim();
  return cleaned ? [...cleaned].slice(0, WARDROBE_NAME_MAX).join('').trim() : null;
}
