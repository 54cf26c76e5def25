// Server-side sessions: a random token in the `session` cookie, its SHA-256 stored in the database.
import type { Db } from '../db/database.ts';
import { hashSecret, newSecret } from './secrets.ts';

/** The session cookie's name. */
export const SESSION_COOKIE = 'session';

/** Starts a session for a user; returns the token for the cookie. */
export async function createSession(db: Db, userUuid: string, lifetimeMs: number, now = Date.now()): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('sessions')
    .values({ id: hashSecret(token), user_uuid: userUuid, created_at: now, expires_at: now + lifetimeMs })
    .execute();
  return token;
}

/** The uuid of the user a live session token belongs to, or null. */
export async function sessionUser(db: Db, token: string, now = Date.now()): Promise<string | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['user_uuid', 'expires_at'])
    .where('id', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row) return null;
  if (row.expires_at <= now) {
    await endSession(db, token);
    return null;
  }
  return row.user_uuid;
}

/** Ends one session. */
export async function endSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', hashSecret(token)).execute();
}
