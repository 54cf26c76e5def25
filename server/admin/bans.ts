// Bans and unbans of players, each audited, and the ban list.
import type { Transaction } from 'kysely';
import { disconnectEveryApp } from '../auth/app-grants.ts';
import type { Db } from '../db/database.ts';
import { rowsPage } from '../db/rows-page.ts';
import type { Database } from '../db/schema.ts';
import { setAuthorItemsHidden } from '../gallery/visibility.ts';
import type { AssignmentContext } from '../textures/library/assign.ts';
import { PLAYER_TEXTURE_SELECTION, playerTextureHashes } from '../textures/library/player-columns.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';
import { BAN_REASONS } from '../../src/lib/ban-reasons.ts';

/** Why a ban or unban did nothing. */
export type BanRefusal = 'unknown' | 'already-banned' | 'not-banned' | 'self';

/** Every texture a player shows: their cape, its strip, their ears and their gallery items' pictures. */
async function texturesOf(trx: Transaction<Database>, uuid: string): Promise<string[]> {
  const player = await trx
    .selectFrom('users')
    .select(PLAYER_TEXTURE_SELECTION)
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  const items = await trx
    .selectFrom('gallery_items')
    .select(['hash', 'strip_hash'])
    .where('author_uuid', '=', uuid)
    .execute();
  const hashes = [
    ...Object.values(playerTextureHashes(player)),
    ...items.flatMap((item) => [item.hash, item.strip_hash]),
  ];
  return hashes.filter((hash): hash is string => Boolean(hash));
}

/**
 * Bans a player for a reason (optionally the player whose report led to it); returns why not, or null when done. A
 * banned player cannot log in; their sessions and login codes end at once (a session's row stays until it expires or
 * the unban, so that the player's next call is told why they were logged out); the mod API stops showing their cape and
 * ears (the profile cache hears of it through the change notice); their gallery items are hidden from every gallery
 * call and their open reports are closed as BAN. Their textures stop being served by every URL unless someone else
 * shows the same picture (the moderators still see them). Every app they connected is disconnected for good.
 */
export async function banPlayer(
  { db, bus, library }: AssignmentContext,
  moderator: Moderator,
  ban: { uuid: string; reasonKey: string; reportedBy?: string | null },
  now = Date.now(),
): Promise<BanRefusal | null> {
  // Every open report of the player is answered by the ban.
  if (ban.uuid === moderator.uuid) return 'self';
  let textures: string[] = [];
  const refusal = await db.transaction().execute(async (trx) => {
    const player = await trx
      .selectFrom('users')
      .select(['uuid', 'username', 'banned'])
      .where('uuid', '=', ban.uuid)
      .executeTakeFirst();
    if (!player) return 'unknown' as const;
    if (player.banned === 1) return 'already-banned' as const;
    textures = await texturesOf(trx, player.uuid);
    const reasonText = BAN_REASONS[ban.reasonKey]!;
    await trx.updateTable('users').set({ banned: 1 }).where('uuid', '=', player.uuid).execute();
    await trx.deleteFrom('user_bans').where('user_uuid', '=', player.uuid).execute();
    await trx
      .insertInto('user_bans')
      .values({
        user_uuid: player.uuid,
        reason_key: ban.reasonKey,
        reason_text: reasonText,
        reported_by_uuid: ban.reportedBy ?? null,
        banned_by_uuid: moderator.uuid,
        created_at: now,
      })
      .execute();
    await trx.deleteFrom('login_codes').where('user_uuid', '=', player.uuid).execute();
    await disconnectEveryApp(trx, player.uuid, moderator, 'the player was banned', now);
    await setAuthorItemsHidden(trx, player.uuid, true);
    await trx
      .updateTable('user_reports')
      .set({ resolved_at: now, resolved_by: moderator.uuid, resolution: 'BAN' })
      .where('user_uuid', '=', player.uuid)
      .where('resolved_at', 'is', null)
      .execute();
    await recordAdminAction(trx, moderator, { action: 'BAN', target: player, reason: reasonText }, now);
    return null;
  });
  if (refusal) return refusal;
  await library.retire(textures, now);
  await bus.publish(ban.uuid);
  return null;
}

/**
 * Lifts a player's ban; returns why not, or null when done. Their gallery items are shown again (likes and downloads
 * intact) and their textures served again; the apps they had connected stay disconnected.
 */
export async function unbanPlayer(
  { db, bus, library }: AssignmentContext,
  moderator: Moderator,
  uuid: string,
  now = Date.now(),
): Promise<BanRefusal | null> {
  let textures: string[] = [];
  const refusal = await db.transaction().execute(async (trx) => {
    const player = await trx
      .selectFrom('users')
      .select(['uuid', 'username', 'banned'])
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    if (!player) return 'unknown' as const;
    if (player.banned !== 1) return 'not-banned' as const;
    textures = await texturesOf(trx, uuid);
    await trx.updateTable('users').set({ banned: 0 }).where('uuid', '=', uuid).execute();
    await trx.deleteFrom('user_bans').where('user_uuid', '=', uuid).execute();
    // The sessions the ban ended stay ended: the player logs in again.
    await trx.deleteFrom('sessions').where('user_uuid', '=', uuid).execute();
    await setAuthorItemsHidden(trx, uuid, false);
    await recordAdminAction(trx, moderator, { action: 'UNBAN', target: player }, now);
    return null;
  });
  if (refusal) return refusal;
  await library.restore(textures);
  await bus.publish(uuid);
  return null;
}

/** A ban as the ban list shows it: the player, who reported them, the reason, the moderator and when. */
export interface BanListEntry {
  id: number;
  uuid: string;
  username: string;
  reported_by_username: string | null;
  reason_text: string;
  banned_by_username: string | null;
  createdAt: number;
}

/** One page of the bans, newest first, and how many there are. */
export async function banPage(db: Db, page: number, perPage: number): Promise<{ rows: BanListEntry[]; total: number }> {
  const { rows, total } = await rowsPage(
    db.selectFrom('user_bans'),
    (bans) =>
      bans
        .innerJoin('users as player', 'player.uuid', 'user_bans.user_uuid')
        .leftJoin('users as reporter', 'reporter.uuid', 'user_bans.reported_by_uuid')
        .leftJoin('users as moderator', 'moderator.uuid', 'user_bans.banned_by_uuid')
        .select([
          'user_bans.id',
          'player.uuid',
          'player.username',
          'reporter.username as reported_by_username',
          'user_bans.reason_text',
          'moderator.username as banned_by_username',
          'user_bans.created_at',
        ])
        .orderBy('user_bans.id', 'desc'),
    page,
    perPage,
  );
  return { rows: rows.map(({ created_at, ...row }) => ({ ...row, createdAt: Number(created_at) })), total };
}
