// Admin actions on one player: read the record, drop the cached profile, remove the cape or
// the ears (which go on the blocklist and off every player wearing them), delete the account; each audited in the
// transaction of its change.
import { deleteAccount } from '../accounts/deletion.ts';
import type { Db } from '../db/database.ts';
import type { ProfileCache } from '../mod/profiles.ts';
import { slotTextures, type AssignmentContext } from '../textures/library/assign.ts';
import { PLAYER_TEXTURE_SELECTION, playerTextureHashes, type PlayerSlot } from '../textures/library/player-columns.ts';
import { capeFlagsDetail } from '../../src/lib/audit-labels.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';
import { evidenceDataUrl } from './evidence.ts';
import { removePictures, type RemovalContext } from './picture-removal.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { PremiumItem } from '../../src/lib/premium.ts';
import {
  dropModeratorGrant,
  grantFeature,
  lockFeatures,
  recordModeratorGrant,
  revokeFeature,
  setFeatureEnabled,
} from '../premium/features.ts';

/** A player as the edit user page shows them: name, uuid, join date, ban, textures and their effects. */
export interface AdminPlayerRecord {
  username: string;
  uuid: string;
  createdAt: number | null;
  banned: boolean;
  hasCape: boolean;
  hasEars: boolean;
  /** The worn pictures' paths (`/textures/<hash>`), or null. */
  cape: string | null;
  ears: string | null;
  profile: { animatedCape: boolean; capeGlint: boolean; upsideDown: boolean };
}

/** The player holding a name (any case; the newest account when several did), or null. */
export async function findPlayerByName(db: Db, username: string): Promise<{ uuid: string; username: string } | null> {
  const row = await db
    .selectFrom('users')
    .select(['uuid', 'username'])
    .where('username_lower', '=', username.toLowerCase())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row ?? null;
}

/**
 * A player's record for the edit user page (their cape and ears as data URLs, shown to moderators even when withheld),
 * or null for an unknown name.
 */
export async function adminPlayerRecord(
  db: Db,
  library: TextureLibrary,
  profiles: ProfileCache,
  username: string,
): Promise<AdminPlayerRecord | null> {
  const found = await findPlayerByName(db, username);
  if (!found) return null;
  const row = await db
    .selectFrom('users')
    .select(['users.created_at', 'users.banned', ...PLAYER_TEXTURE_SELECTION])
    .where('users.uuid', '=', found.uuid)
    .executeTakeFirstOrThrow();
  const textures = playerTextureHashes(row);
  const cached = await profiles.get(found.uuid);
  const profile = cached
    ? (JSON.parse(cached.json) as { animatedCape: boolean; capeGlint: boolean; upsideDown: boolean })
    : null;
  return {
    username: found.username,
    uuid: found.uuid,
    createdAt: row.created_at ? Number(row.created_at) : null,
    banned: row.banned === 1,
    hasCape: textures.cape !== null,
    hasEars: textures.ears !== null,
    cape: await evidenceDataUrl(library, textures.cape),
    ears: await evidenceDataUrl(library, textures.ears),
    profile: {
      animatedCape: profile?.animatedCape ?? false,
      capeGlint: profile?.capeGlint ?? false,
      upsideDown: profile?.upsideDown ?? false,
    },
  };
}

/** The player a uuid names, for an audit row, or null. */
async function playerOf(db: Db, uuid: string): Promise<{ uuid: string; username: string } | null> {
  return (
    (await db.selectFrom('users').select(['uuid', 'username']).where('uuid', '=', uuid).executeTakeFirst()) ?? null
  );
}

/** The blocklist's reason for a cape or ears a moderator removed on the edit user page (which asks for none). */
export const EDIT_USER_REMOVAL_REASON = 'Removed by a moderator on the edit user page';

/** Why removing a player's cape or ears did nothing: the player is unknown, or has none to remove. */
export type TextureRemovalRefusal = 'unknown' | 'nothing';

/**
 * Removes a player's cape or ears, from them and from every other player wearing the same picture, and puts it on the
 * blocklist, audited with how many players lost it; answers that count, or why nothing was done (then no audit row).
 */
export async function removePlayerTexture(
  context: RemovalContext,
  moderator: Moderator,
  uuid: string,
  slot: PlayerSlot,
): Promise<{ players: number } | TextureRemovalRefusal> {
  const player = await playerOf(context.db, uuid);
  if (!player) return 'unknown';
  const worn = await slotTextures(context.db, uuid, slot);
  if (!worn) return 'nothing';
  return removePictures(context, moderator, {
    pictures: [worn],
    audit: { action: slot === 'cape' ? 'CAPE_DELETE' : 'EARS_DELETE', target: player },
    reason: EDIT_USER_REMOVAL_REASON,
  });
}

/** Drops every process's cached profile of a player (audited); false for an unknown player. */
export async function refreshPlayerCache(
  context: AssignmentContext,
  moderator: Moderator,
  uuid: string,
): Promise<boolean> {
  const player = await playerOf(context.db, uuid);
  if (!player) return false;
  await context.db
    .transaction()
    .execute((trx) => recordAdminAction(trx, moderator, { action: 'CACHE', target: player }));
  await context.bus.publish(uuid);
  return true;
}

/**
 * Deletes a player's account and everything it owns (audited with the account's last row); false for an unknown player.
 */
export async function deletePlayer(context: AssignmentContext, moderator: Moderator, uuid: string): Promise<boolean> {
  const player = await playerOf(context.db, uuid);
  if (!player) return false;
  await deleteAccount(context.db, context.library, context.bus, uuid, moderator, (trx) =>
    recordAdminAction(trx, moderator, { action: 'DELETE', target: player }),
  );
  return true;
}

/** The cape flags a moderator can set on the edit user page. */
export interface CapeFlags {
  animatedCape?: boolean | undefined;
  capeGlint?: boolean | undefined;
  upsideDown?: boolean | undefined;
}

/**
 * Sets a player's cape flags (audited, the mod API told at once): on grants the feature and turns it on (a grant that
 * is recorded, so a refund or a boost ending leaves it), off turns glint and upside down off (the player keeps them to
 * turn on again) and takes the animation away (with its grant). 'unknown' for an unknown player, 'no-cape' when they
 * wear none (the flags mean nothing then), null when done.
 */
export async function setCapeFlags(
  context: AssignmentContext,
  moderator: Moderator,
  uuid: string,
  flags: CapeFlags,
): Promise<'unknown' | 'no-cape' | null> {
  const refusal = await context.db.transaction().execute(async (trx) => {
    const player = await trx
      .selectFrom('users')
      .select(['users.uuid', 'users.username', ...PLAYER_TEXTURE_SELECTION])
      .where('users.uuid', '=', uuid)
      .executeTakeFirst();
    if (!player) return 'unknown' as const;
    if (playerTextureHashes(player).cape === null) return 'no-cape' as const;
    await lockFeatures(trx, uuid);
    const switches: Array<[boolean | undefined, PremiumItem]> = [
      [flags.animatedCape, 'animated'],
      [flags.capeGlint, 'glint'],
      [flags.upsideDown, 'dinnerbone'],
    ];
    for (const [on, item] of switches) {
      if (on === true) {
        await grantFeature(trx, uuid, item);
        await recordModeratorGrant(trx, uuid, item, moderator.uuid);
      } else if (on === false && item === 'animated') {
        await revokeFeature(trx, uuid, item);
        await dropModeratorGrant(trx, uuid, item);
      } else if (on === false && item !== 'animated') await setFeatureEnabled(trx, uuid, item, false);
    }
    if (switches.every(([on]) => on === undefined)) return null;
    await recordAdminAction(trx, moderator, { action: 'CAPE_FLAGS', target: player, detail: capeFlagsDetail(flags) });
    return null;
  });
  if (!refusal) await context.bus.publish(uuid);
  return refusal;
}
