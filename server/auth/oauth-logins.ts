// Microsoft logins under way: the state, the PKCE verifier and the ref of a login are kept in the database under the
// SHA-256 of a random token that only the starting browser holds (an HttpOnly cookie), so the callback works in any API
// process, only in that browser, once, and for 10 minutes.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';

/** The cookie that ties a Microsoft login to the browser that started it. */
export const OAUTH_LOGIN_COOKIE = 'oauth_login';
/** The only path the cookie is sent to: the Microsoft login calls. */
export const OAUTH_LOGIN_COOKIE_PATH = '/api/account/oauth';
/** How long a started Microsoft login can be finished. */
export const OAUTH_LOGIN_TTL_MS = 10 * 60 * 1000;

/** What a started login keeps for its callback. */
export interface PendingOAuthLogin {
  state: string;
  codeVerifier: string;
  ref: string;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Keeps a new login's state, verifier and ref (replacing the browser's earlier one, if `previousToken` is given);
 * returns the token for the cookie.
 */
export async function savePendingOAuthLogin(
  db: Db,
  login: PendingOAuthLogin,
  previousToken?: string,
  now = Date.now(),
): Promise<string> {
  await db.deleteFrom('oauth_logins').where('expires_at', '<=', now).execute();
  if (previousToken) await db.deleteFrom('oauth_logins').where('id', '=', hashToken(previousToken)).execute();
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('oauth_logins')
    .values({
      id: hashToken(token),
      state: login.state,
      code_verifier: login.codeVerifier,
      ref: login.ref,
      created_at: now,
      expires_at: now + OAUTH_LOGIN_TTL_MS,
    })
    .execute();
  return token;
}

/**
 * Uses up the browser's login: returns what it kept when the token names a live login, null otherwise (unknown, used or
 * expired).
 */
export async function takePendingOAuthLogin(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<PendingOAuthLogin | null> {
  const row = await db
    .deleteFrom('oauth_logins')
    .where('id', '=', hashToken(token))
    .returning(['state', 'code_verifier', 'ref', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return null;
  return { state: row.state, codeVerifier: row.code_verifier, ref: row.ref };
}
