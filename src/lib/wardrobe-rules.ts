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
