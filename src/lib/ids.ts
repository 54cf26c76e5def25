// The id patterns, defined once: a game username, a player uuid, a texture hash and an app's client_id (no zod here, so
// islands can use them).

/** The longest game username. */
export const USERNAME_MAX = 16;
/** The characters of a game username: letters, digits and underscore (a character class's contents). */
const USERNAME_CHARACTERS = 'A-Za-z0-9_';
/** A game username: 1 to 16 letters, digits or underscores (a pattern source, no anchors). */
export const USERNAME_PATTERN = `[${USERNAME_CHARACTERS}]{1,${USERNAME_MAX}}`;
/** A character that can never be part of a username (for cleaning typed input). */
const NON_USERNAME_CHARACTERS = new RegExp(`[^${USERNAME_CHARACTERS}]`, 'g');

/** A player uuid as stored and shown: 32 lowercase hex digits, no dashes. */
export const PLAYER_UUID_PATTERN = '[0-9a-f]{32}';
/** A uuid as a lookup path takes it: 32 hex digits of any case, or the dashed 8-4-4-4-12 form. */
export const TYPED_UUID_PATTERN =
  '[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A uuid as outside services and the mod API send it: 32 hex digits of any case, each group's dash optional. */
const LOOSE_UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** A texture's SHA-256, the key of every stored texture: 64 lowercase hex digits. */
export const TEXTURE_HASH_PATTERN = '[0-9a-f]{64}';

/**
 * A player named in a site path before it is checked: a username or a uuid with or without dashes (letters, digits,
 * `_`, `-`; 1 to 36).
 */
export const PLAYER_PATH_ID_PATTERN = '[A-Za-z0-9_-]{1,36}';
/** A name or an undashed uuid, as the audit log's player filter takes them (letters, digits, underscores; 1 to 32). */
export const NAME_OR_UUID_FILTER_PATTERN = '[A-Za-z0-9_]{1,32}';

/** An app's client_id, as the operator CLI makes them: 22 base64url characters (16 random bytes). */
export const APP_CLIENT_ID_PATTERN = '[A-Za-z0-9_-]{22}';

/** A uuid with the dashes of its 8-4-4-4-12 form. */
export function dashedUuid(uuid: string): string {
  return `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20)}`;
}

/** A regular expression matching a whole string against a pattern source (its alternatives grouped). */
export function wholePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`);
}

const USERNAME = wholePattern(USERNAME_PATTERN);
const PLAYER_UUID = wholePattern(PLAYER_UUID_PATTERN);
const TEXTURE_HASH = wholePattern(TEXTURE_HASH_PATTERN);
const APP_CLIENT_ID = wholePattern(APP_CLIENT_ID_PATTERN);

/** Whether a string is a valid game username (letters, digits, underscore; 1 to 16). */
export function isUsername(value: string): boolean {
  return USERNAME.test(value);
}

/** Whether a string is a player uuid as stored (32 lowercase hex digits, no dashes). */
export function isPlayerUuid(value: string): boolean {
  return PLAYER_UUID.test(value);
}

/** Whether a string is a texture hash (64 lowercase hex digits). */
export function isTextureHash(value: string): boolean {
  return TEXTURE_HASH.test(value);
}

/** Whether a string has the shape of an app's client_id (22 base64url characters). */
export function isAppClientId(value: string): boolean {
  return APP_CLIENT_ID.test(value);
}

/** Returns the uuid as 32 lowercase hex characters (dashes removed), or null when it is not a uuid. */
export function normalizeUuid(value: string): string | null {
  return LOOSE_UUID.test(value) ? value.replaceAll('-', '').toLowerCase() : null;
}

/** A typed entry with every character a username cannot hold removed. */
export function usernameCharacters(value: string): string {
  return value.replace(NON_USERNAME_CHARACTERS, '');
}
