// The gallery's shared rules: file and title checks, sort options and texture types.
import { messageOf, type Refusal, type RefusalReason } from './refusals';
import { capeFileFault, checkCapeDimensions, EARS_HEIGHT, EARS_WIDTH, type TextureType } from './texture-rules';

/** Items per gallery page (4 cards per row). */
export const GALLERY_PER_PAGE = 24;
/** Longest gallery title. */
export const GALLERY_TITLE_MAX = 20;
/**
 * Searches (a title, or several tags) count their matches up to this many; above it the total says this many and
 * `total_capped` is set.
 */
export const GALLERY_COUNT_CAP = 1000;
/** The search box debounce. */
export const GALLERY_SEARCH_DEBOUNCE_MS = 500;

/** The gallery's exact messages: file, title and tag checks, limits and likes. */
export const galleryMessages = {
  fileTooBig: 'The file is too big. Max file size is 500KB.',
  fileType: 'Textures must be either PNG or GIF',
  missingFields: 'You must fill in all the boxes',
  tooManyUploads: 'Too many uploads. Try again in 10 minutes.',
  tooManyDownloads: 'Too many downloads. Try again in a minute.',
  titleTooLong: `The title may be at most ${GALLERY_TITLE_MAX} characters`,
  titleCharacters: 'The title may only contain letters, numbers, underscores and spaces',
  unknownTag: 'Choose tags from the list',
  loginToLike: 'Login to be able to like items',
  tooManyWears: 'You have put on too many capes and ears. Try again in 10 minutes.',
  noSuchTexture: 'That texture does not exist.',
} as const;

/**
 * The name of one of the gallery's messages an upload can be refused with (the download and wear limits, the like
 * message and an unknown item's are not).
 */
export type GalleryUploadMessageKey = Exclude<
  keyof typeof galleryMessages,
  'tooManyDownloads' | 'loginToLike' | 'tooManyWears' | 'noSuchTexture'
>;

/** Why each gallery upload rule refuses, by message. */
export const galleryReasons = {
  fileTooBig: 'too_big',
  fileType: 'wrong_type',
  missingFields: 'missing_fields',
  tooManyUploads: 'rate_limited',
  titleTooLong: 'invalid_title',
  titleCharacters: 'invalid_title',
  unknownTag: 'unknown_tag',
} as const satisfies Record<GalleryUploadMessageKey, RefusalReason>;

/** A gallery upload rule's refusal: its reason code with its message. */
export function galleryRefusal(key: GalleryUploadMessageKey): Refusal {
  return { reason: galleryReasons[key], message: galleryMessages[key] };
}

/** The sort options: likes, downloads, name and uploaded, each ascending or descending. */
export const GALLERY_SORTS = [
  'likes_desc',
  'likes_asc',
  'downloads_desc',
  'downloads_asc',
  'name_asc',
  'name_desc',
  'uploaded_desc',
  'uploaded_asc',
] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];
/** The sort used when none is asked for. */
export const DEFAULT_GALLERY_SORT: GallerySort = 'likes_desc';

/** The texture type filters and their stored codes (0 cape, 1 ears, 2 animated cape). */
export const GALLERY_TYPES = { cape: 0, ears: 1, animated: 2 } as const;
export type GalleryTypeName = keyof typeof GALLERY_TYPES;

/** The characters a title or title search may contain: letters, digits, underscore and whitespace. */
const TITLE_CHARACTERS = 'A-Za-z0-9_\\s';
/** A title or title search made only of the allowed characters. */
export const GALLERY_TITLE_PATTERN = new RegExp(`^[${TITLE_CHARACTERS}]*$`);
const DISALLOWED_TITLE_CHARACTERS = new RegExp(`[^${TITLE_CHARACTERS}]`, 'g');

/** Removes every character a title or title search may not contain (letters, digits, underscore, whitespace). */
export function filterTitleInput(value: string): string {
  return value.replace(DISALLOWED_TITLE_CHARACTERS, '');
}

/**
 * Cleans what a user typed or pasted into the title box or title search: the disallowed characters go first, then it is
 * cut to 20.
 */
export function cleanTitle(value: string): string {
  return filterTitleInput(value).slice(0, GALLERY_TITLE_MAX);
}

/** Checks a gallery title; returns the refusal, or null when it passes. */
export function galleryTitleRefusal(title: string): Refusal | null {
  if (title.trim().length === 0) return galleryRefusal('missingFields');
  if (title.length > GALLERY_TITLE_MAX) return galleryRefusal('titleTooLong');
  if (filterTitleInput(title) !== title) return galleryRefusal('titleCharacters');
  return null;
}

/** Checks a gallery title; returns the message, or null when it passes. */
export function checkGalleryTitle(title: string): string | null {
  return messageOf(galleryTitleRefusal(title));
}

/** Checks a gallery form's title and chosen tags (at least one); returns the message, or null when they pass. */
export function checkGalleryFields(title: string, tags: readonly string[]): string | null {
  return tags.length === 0 ? galleryMessages.missingFields : checkGalleryTitle(title);
}

/** Checks a gallery file's size and type before it is loaded; returns the refusal, or null. */
export function galleryFileRefusal(file: { bytes: number; type: TextureType }): Refusal | null {
  const fault = capeFileFault(file);
  return fault && galleryRefusal(fault === 'tooBig' ? 'fileTooBig' : 'fileType');
}

/** Checks a gallery file's size and type before it is loaded; returns the message, or null. */
export function checkGalleryFile(file: { bytes: number; type: TextureType }): string | null {
  return messageOf(galleryFileRefusal(file));
}

/** Whether dimensions are those of ears (14 x 7). */
export function isEarsSize(image: { width: number; height: number }): boolean {
  return image.width === EARS_WIDTH && image.height === EARS_HEIGHT;
}

/** Checks a gallery texture's dimensions: 14 x 7 is ears, anything else must pass the cape rules. */
export function checkGalleryDimensions(image: { width: number; height: number }): string | null {
  return isEarsSize(image) ? null : checkCapeDimensions(image);
}
