// Player identifiers: uuid normalisation, username checks and the offline-mode uuid.
import { createHash } from 'node:crypto';

const USERNAME = /^[A-Za-z0-9_]{1,16}$/;
const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** Whether a string is a valid game username (letters, digits, underscore; 1 to 16). */
export function isUsername(value: string): boolean {
  return USERNAME.test(value);
}

/** Returns the uuid as 32 lowercase hex characters (dashes removed), or null when it is not a uuid. */
export function normalizeUuid(value: string): string | null {
  return UUID.test(value) ? value.replaceAll('-', '').toLowerCase() : null;
}

/** The uuid an offline-mode server gives a player: UUID v3 of `OfflinePlayer:<name>`, 32 hex characters. */
export function offlineUuid(username: string): string {
  const bytes = createHash('md5').update(`OfflinePlayer:${username}`, 'utf8').digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex');
}
