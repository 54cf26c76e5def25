// The browser's check of a creator's picture before it is sent (the server checks again).
import { CREATOR_INPUT_MAX_BYTES, creatorMessages } from '../../lib/creator-rules';

/** The picture types the cape creator takes. */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Checks a picked picture's size and type; returns the message, or null when it passes. */
export function checkPicture(
  file: File,
  types: readonly string[],
  typeMessage: string = creatorMessages.inputType,
): string | null {
  if (file.size > CREATOR_INPUT_MAX_BYTES) return creatorMessages.inputTooBig;
  if (!types.includes(file.type)) return typeMessage;
  return null;
}

/** A short key for a file (name, size, time): a new pick of the same file is the same settings. */
export function fileKey(file: File | null): string {
  return file ? `${file.name}:${file.size}:${file.lastModified}` : '';
}
