// The zod schemas of the id patterns (player uuid, texture hash, player id, username), built from src/lib/ids.ts.
import { z } from 'zod';
import {
  NAME_OR_UUID_FILTER_PATTERN,
  PLAYER_UUID_PATTERN,
  TEXTURE_HASH_PATTERN,
  TYPED_UUID_PATTERN,
  USERNAME_PATTERN,
  wholePattern,
} from '../ids';
import { galleryMessages } from '../gallery-rules';

/** A player uuid: 32 lowercase hex digits, no dashes. */
export const playerUuidSchema = z.string().regex(wholePattern(PLAYER_UUID_PATTERN)).meta({
  description: 'Player uuid: 32 lowercase hex digits, no dashes',
  example: '069a79f444e94726a5befca90e38aaf5',
});
/** A texture's SHA-256, the key of every stored texture. */
export const textureHashSchema = z
  .string()
  .regex(wholePattern(TEXTURE_HASH_PATTERN), { message: galleryMessages.noSuchTexture })
  .meta({ description: 'SHA-256 of the stored PNG (64 lowercase hex digits)' });
/**
 * A player's name or uuid in a lookup path: a uuid with or without dashes, or a username (1–16 letters, digits,
 * underscores).
 */
export const playerIdSchema = z
  .string()
  .regex(wholePattern(`${TYPED_UUID_PATTERN}|${USERNAME_PATTERN}`), {
    message: 'Enter a username (at most 16 letters, digits and underscores) or a uuid.',
  })
  .meta({ description: 'A username (any case) or a uuid (with or without dashes)' });

/** A player uuid field that refuses anything else with `message`. */
export function playerUuidField(message: string) {
  return z.string().regex(wholePattern(PLAYER_UUID_PATTERN), { message });
}

/** A player uuid filter that may be empty (no filter), refusing anything else with `message`. */
export function optionalPlayerUuidField(message: string) {
  return z.string().regex(wholePattern(`(?:${PLAYER_UUID_PATTERN})?`), { message });
}

/**
 * A game username field (1 to 16 letters, digits or underscores) that refuses anything else with `message` (and a
 * missing one with `missingMessage`).
 */
export function usernameField(message: string, missingMessage?: string) {
  return z
    .string(missingMessage === undefined ? undefined : { message: missingMessage })
    .regex(wholePattern(USERNAME_PATTERN), { message });
}

/** A name or undashed uuid filter (the audit log's), refusing anything else with `message`. */
export function nameOrUuidFilterField(message: string) {
  return z.string().regex(wholePattern(NAME_OR_UUID_FILTER_PATTERN), { message });
}
