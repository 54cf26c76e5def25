// The offline-mode uuid a server gives a player (the id patterns themselves live in src/lib/ids.ts).
import { createHash } from 'node:crypto';

/** The uuid an offline-mode server gives a player: UUID v3 of `OfflinePlayer:<name>`, 32 hex characters. */
export function offlineUuid(username: string): string {
  const bytes = createHash('md5').update(`OfflinePlayer:${username}`, 'utf8').digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex');
}
