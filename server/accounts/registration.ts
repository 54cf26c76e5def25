// Registration codes: the one-time login code of a player named by username, for the operator CLI and the admin page.
// The name is resolved through the Mojang API (or to the offline-mode uuid), the account is created or renamed, and a
// banned account gets no code.
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { findUser, makeAdmin, upsertUser, type UserRow } from '../db/users.ts';
import { fetchProfileByName } from '../integrations/mojang.ts';
import { issueLoginCode } from '../auth/login-codes.ts';
import { offlineUuid } from '../auth/player-ids.ts';

/** What an operator or admin can do when the Mojang API cannot be reached (a machine without internet access, say). */
export const MOJANG_UNREACHABLE_HINT =
  'To try the site without internet access, set OFFLINE_MODE=true; otherwise check MOJANG_API_URL.';
/** What a moderator is told when the game profile service cannot be reached, with what the operator can do about it. */
export const PROFILE_SERVICE_DOWN_MESSAGE = `The game profile service could not be reached. Try again in a minute. ${MOJANG_UNREACHABLE_HINT}`;

/** How a name is turned into a game profile. */
export interface ProfileLookup {
  offlineMode: boolean;
  mojangApiUrl: string;
}

/** What asking for a registration code came to. */
export type RegistrationOutcome =
  | { kind: 'unknown' }
  | { kind: 'banned'; user: UserRow; renamed: boolean }
  | { kind: 'issued'; user: UserRow; code: string; renamed: boolean };

/**
 * Resolves `username`, creates or renames the account (making it an admin when asked), and issues its login code; the
 * account's changes, the code and `inTransaction` (an audit row, say) commit together; `renamed` tells whether an
 * existing account took a new name (its mod API answers changed). Throws OutsideServiceError when the Mojang API cannot
 * answer.
 */
export async function issueRegistrationCode(
  db: Db,
  lookup: ProfileLookup,
  username: string,
  options: { admin?: boolean; inTransaction?: (trx: Transaction<Database>, user: UserRow) => Promise<void> } = {},
): Promise<RegistrationOutcome> {
  const profile = lookup.offlineMode
    ? { uuid: offlineUuid(username), username }
    : await fetchProfileByName(lookup.mojangApiUrl, username);
  if (!profile) return { kind: 'unknown' };
  return db.transaction().execute(async (trx) => {
    const renamed = await upsertUser(trx, profile.uuid, profile.username);
    if (options.admin) await makeAdmin(trx, profile.uuid);
    const user = (await findUser(trx, profile.uuid))!;
    if (user.banned) return { kind: 'banned', user, renamed } as const;
    const code = await issueLoginCode(trx, profile.uuid);
    await options.inTransaction?.(trx, user);
    return { kind: 'issued', user, code, renamed } as const;
  });
}
