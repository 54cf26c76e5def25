// User queries: create or update accounts, read them in the API's shape, delete them.
import type { Premium, User } from '../../src/lib/schemas/types.ts';
import type { Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { readSiteCounts } from './site-counts.ts';

/** The group `cloakroom code --admin` puts an account in (a row the migrations seed). */
export const ADMIN_GROUP_ID = 2;

/** A stored account with its group and premium features. */
export interface UserRow {
  uuid: string;
  username: string;
  banned: boolean;
  group: { name: string; emoji: string; admin: boolean };
  premium: Premium | null;
}

/** Notes that the player logs in now; true when it is the account's first login. */
export async function recordLogin(db: Db, uuid: string, now = Date.now()): Promise<boolean> {
  const first = await db
    .updateTable('users')
    .set({ last_login_at: now })
    .where('uuid', '=', uuid)
    .where('last_login_at', 'is', null)
    .executeTakeFirst();
  if (Number(first.numUpdatedRows) === 1) return true;
  await db.updateTable('users').set({ last_login_at: now }).where('uuid', '=', uuid).execute();
  return false;
}

/**
 * Creates the account or updates its username; resolves to whether an existing account was renamed (a change to the
 * player's mod API answers, which are found by name too: the caller announces it on the change bus, or logs it).
 */
export async function upsertUser(db: Db, uuid: string, username: string, now = Date.now()): Promise<boolean> {
  const before = await db.selectFrom('users').select('username').where('uuid', '=', uuid).executeTakeFirst();
  await db
    .insertInto('users')
    .values({
      uuid,
      username,
      username_lower: username.toLowerCase(),
      created_at: now,
      answers_at: Math.floor(now / 1000),
    })
    .onConflict((oc) => oc.column('uuid').doUpdateSet({ username, username_lower: username.toLowerCase() }))
    .execute();
  return before !== undefined && before.username !== username;
}

/** The registered, unbanned players among these uuids, with their current names, in the uuids' order. */
export async function registeredPlayers(
  db: Db,
  uuids: readonly string[],
): Promise<Array<{ uuid: string; username: string }>> {
  if (uuids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['uuid', 'username'])
    .where('uuid', 'in', uuids)
    .where('banned', '=', 0)
    .execute();
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  return uuids.flatMap((uuid) => {
    const row = byUuid.get(uuid);
    return row ? [{ uuid: row.uuid, username: row.username }] : [];
  });
}

/** Puts an account in the admin group. */
export async function makeAdmin(db: Db, uuid: string): Promise<void> {
  await db.updateTable('users').set({ group_id: ADMIN_GROUP_ID }).where('uuid', '=', uuid).execute();
}

/** Reads one account with its group, or undefined. */
export async function findUser(db: Db, uuid: string): Promise<UserRow | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('groups', 'groups.id', 'users.group_id')
    .leftJoin('premium', 'premium.user_uuid', 'users.uuid')
    .select(['users.uuid', 'users.username', 'users.banned', 'groups.name', 'groups.emoji', 'groups.admin'])
    .select(['premium.animated', 'premium.glint', 'premium.dinnerbone', 'premium.boost_only'])
    .where('users.uuid', '=', uuid)
    .executeTakeFirst();
  if (!row) return undefined;
  const owns = row.animated === 1 || row.glint === 1 || row.dinnerbone === 1;
  return {
    uuid: row.uuid,
    username: row.username,
    banned: row.banned === 1,
    group: { name: row.name, emoji: row.emoji, admin: row.admin === 1 },
    premium: owns
      ? {
          animated: row.animated === 1,
          glint: row.glint === 1,
          dinnerbone: row.dinnerbone === 1,
          boost_only: row.boost_only === 1,
        }
      : null,
  };
}

/** The account as `GET /api/user` answers it. */
export function toApiUser(row: UserRow): User {
  return { uuid: row.uuid, username: row.username, group: row.group, premium: row.premium };
}

/** How many accounts exist (the trigger-kept counter: no count over every player). */
export async function countUsers(db: Db): Promise<number> {
  return (await readSiteCounts(db)).users;
}

/**
 * Deletes an account and, through the foreign keys, everything it owns (clear its textures first: see
 * server/textures/library/assign.ts).
 */
export async function deleteUser(db: Db | Transaction<Database>, uuid: string): Promise<void> {
  await db.deleteFrom('users').where('uuid', '=', uuid).execute();
}

/** The reason text of a player's ban, or null when they are not banned. */
export async function banReason(db: Db, uuid: string): Promise<string | null> {
  const ban = await db.selectFrom('user_bans').select('reason_text').where('user_uuid', '=', uuid).executeTakeFirst();
  return ban?.reason_text ?? null;
}
