// One-time 6-digit login codes: issued to a player, valid 10 minutes, used once.
import { randomInt } from 'node:crypto';
import type { Db } from '../db/database.ts';

/** How long a login code stays valid. */
export const LOGIN_CODE_TTL_MS = 10 * 60 * 1000;

/** Whether a value has the shape of a login code: exactly six digits. */
export function isLoginCode(value: unknown): value is string {
  return typeof value === 'string' && /^\d{6}$/.test(value);
}

/** Issues a fresh code for a player, replacing any code they had; returns the code. */
export async function issueLoginCode(db: Db, userUuid: string, now = Date.now()): Promise<string> {
  await db.deleteFrom('login_codes').where('expires_at', '<=', now).execute();
  await db.deleteFrom('login_codes').where('user_uuid', '=', userUuid).execute();
  for (let attempt = 0; attempt < 20; attempt++) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const inserted = await db
      .insertInto('login_codes')
      .values({ code, user_uuid: userUuid, expires_at: now + LOGIN_CODE_TTL_MS })
      .onConflict((oc) => oc.column('code').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return code;
  }
  throw new Error('Could not find a free login code');
}

/** Uses up a code: returns the player's uuid when the code is valid, null otherwise. */
export async function redeemLoginCode(db: Db, code: string, now = Date.now()): Promise<string | null> {
  const row = await db
    .deleteFrom('login_codes')
    .where('code', '=', code)
    .returning(['user_uuid', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return null;
  return row.user_uuid;
}
