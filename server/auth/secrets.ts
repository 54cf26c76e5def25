// Secrets handed to a browser or an app (session tokens, device codes, access and refresh tokens): random, and stored
// only as their SHA-256, so a copy of the database logs no one in.
import { createHash, randomBytes } from 'node:crypto';

/** A new random secret: 32 bytes as base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a secret: its SHA-256, in hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
