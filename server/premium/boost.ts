// Boosting the chat community: a player links their community account with a one-time code the
// bot binds to their member id; while that member boosts, the player gets the one cosmetic they chose for free;
// when the boost ends, a feature the boost gave is taken back (not one the player paid for or a moderator gave).
// Premium holders who paid get a one-time code for the community's premium role. Every change commits with its audit
// row, if any.
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import { isPremiumItem, type PremiumItem } from '../../src/lib/premium.ts';
import { DISCORD_BOT } from '../audit/actors.ts';
import { recordAdminAction } from '../audit/record.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { featureStates, grantFeature, keptFeatures, lockFeatures, revokeFeature } from './features.ts';

/** How long a link code works. */
export const LINK_CODE_TTL_MS = 10 * 60 * 1000;
/** How long a premium role code works. */
export const ROLE_CODE_TTL_MS = 24 * 60 * 60 * 1000;
/** Letters and digits that cannot be mistaken for one another. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A player the bot acted on. */
export interface LinkedPlayer {
  uuid: string;
  username: string;
}

/** A fresh 8-character code. */
function newCode(): string {
  return Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/**
 * Brings a player's features in line with their link: a linked, boosting member has their chosen cosmetic (granted when
 * they did not own it); anything a boost granted before and no longer should is taken back unless paid for or given by
 * a moderator. Marks the premium `boost_only` when all the player owns came from the boost.
 */
async function applyBoost(trx: Transaction<Database>, uuid: string): Promise<void> {
  await lockFeatures(trx, uuid);
  const link = await trx.selectFrom('discord_links').selectAll().where('user_uuid', '=', uuid).executeTakeFirst();
  const wanted = link?.discord_id && link.boosting === 1 && isPremiumItem(link.cosmetic) ? link.cosmetic : null;
  const kept = await keptFeatures(trx, uuid);
  let granted: PremiumItem | null = isPremiumItem(link?.granted_item) ? link.granted_item : null;
  if (granted && granted !== wanted) {
    if (!kept.has(granted)) await revokeFeature(trx, uuid, granted);
    granted = null;
  }
  if (wanted && wanted !== granted && !(await featureStates(trx, uuid))[wanted].owned) {
    await grantFeature(trx, uuid, wanted);
    granted = wanted;
  }
  if (link)
    await trx.updateTable('discord_links').set({ granted_item: granted }).where('user_uuid', '=', uuid).execute();
  await trx
    .updateTable('premium')
    .set({ boost_only: granted !== null && kept.size === 0 ? 1 : 0 })
    .where('user_uuid', '=', uuid)
    .execute();
}

/** Gives a player a new link code (replacing any earlier one); they send it to the bot. */
export async function issueLinkCode(db: Db, uuid: string, now = Date.now()): Promise<string> {
  const code = newCode();
  const expires = now + LINK_CODE_TTL_MS;
  await db
    .insertInto('discord_links')
    .values({ user_uuid: uuid, link_code: code, link_code_expires_at: expires, updated_at: now })
    .onConflict((oc) =>
      oc.column('user_uuid').doUpdateSet({ link_code: code, link_code_expires_at: expires, updated_at: now }),
    )
    .execute();
  return code;
}

/** A player's link: whether it is bound, whether the member boosts, and the chosen cosmetic. */
export async function linkState(
  db: Db,
  uuid: string,
): Promise<{ linked: boolean; boosting: boolean; cosmetic: string | null }> {
  const link = await db
    .selectFrom('discord_links')
    .select(['discord_id', 'boosting', 'cosmetic'])
    .where('user_uuid', '=', uuid)
    .executeTakeFirst();
  const linked = Boolean(link?.discord_id);
  return { linked, boosting: linked && link!.boosting === 1, cosmetic: link?.cosmetic ?? null };
}

/** Sets the cosmetic a linked, boosting player gets; false (nothing changed) when they are not both. */
export async function chooseCosmetic(db: Db, uuid: string, item: PremiumItem, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const link = await trx
      .selectFrom('discord_links')
      .select(['discord_id', 'boosting'])
      .where('user_uuid', '=', uuid)
      .executeTakeFirst();
    if (!link?.discord_id || link.boosting !== 1) return false;
    await trx
      .updateTable('discord_links')
      .set({ cosmetic: item, updated_at: now })
      .where('user_uuid', '=', uuid)
      .execute();
    await applyBoost(trx, uuid);
    return true;
  });
}

/** Removes a player's link and takes back what their boost gave. */
async function removeLink(trx: Transaction<Database>, uuid: string): Promise<void> {
  await trx
    .updateTable('discord_links')
    .set({ discord_id: null, boosting: 0, cosmetic: null })
    .where('user_uuid', '=', uuid)
    .execute();
  await applyBoost(trx, uuid);
  await trx.deleteFrom('discord_links').where('user_uuid', '=', uuid).execute();
}

/** Unlinks a player from the site; false when they had no link. */
export async function unlinkPlayer(db: Db, uuid: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const link = await trx
      .selectFrom('discord_links')
      .select('user_uuid')
      .where('user_uuid', '=', uuid)
      .executeTakeFirst();
    if (!link) return false;
    await removeLink(trx, uuid);
    return true;
  });
}

/** The player linked to a member id, inside a transaction. */
async function playerOfMember(trx: Transaction<Database>, discordId: string): Promise<LinkedPlayer | undefined> {
  return trx
    .selectFrom('discord_links')
    .innerJoin('users', 'users.uuid', 'discord_links.user_uuid')
    .select(['users.uuid', 'users.username'])
    .where('discord_links.discord_id', '=', discordId)
    .executeTakeFirst();
}

/** What a bot action did: the player it acted on and the detail of its audit row. */
interface BotOutcome {
  player: LinkedPlayer;
  detail: string;
}

/**
 * Runs a bot action in one transaction with its audit row: `act` changes a player and says what it did, or answers null
 * when there is nothing to act on. The player, or null.
 */
async function botAction(
  db: Db,
  action: string,
  now: number,
  act: (trx: Transaction<Database>) => Promise<BotOutcome | null>,
): Promise<LinkedPlayer | null> {
  return db.transaction().execute(async (trx) => {
    const outcome = await act(trx);
    if (!outcome) return null;
    await recordAdminAction(trx, DISCORD_BOT, { action, target: outcome.player, detail: outcome.detail }, now);
    return outcome.player;
  });
}

/** A bot action on the player linked to a member: `change` changes them and answers the audit detail. */
async function memberAction(
  db: Db,
  discordId: string,
  action: string,
  now: number,
  change: (trx: Transaction<Database>, player: LinkedPlayer) => Promise<string>,
): Promise<LinkedPlayer | null> {
  return botAction(db, action, now, async (trx) => {
    const player = await playerOfMember(trx, discordId);
    return player ? { player, detail: await change(trx, player) } : null;
  });
}

/**
 * The bot binds a link code to a member (a member linked to another player moves over); null for a wrong or expired
 * code.
 */
export async function bindLinkCode(
  db: Db,
  code: string,
  discordId: string,
  now = Date.now(),
): Promise<LinkedPlayer | null> {
  return botAction(db, 'BOT_LINK', now, async (trx) => {
    const found = await trx
      .selectFrom('discord_links')
      .innerJoin('users', 'users.uuid', 'discord_links.user_uuid')
      .select(['users.uuid', 'users.username', 'discord_links.link_code_expires_at'])
      .where('discord_links.link_code', '=', code)
      .executeTakeFirst();
    if (!found || Number(found.link_code_expires_at) <= now) return null;
    const previous = await playerOfMember(trx, discordId);
    if (previous && previous.uuid !== found.uuid) await removeLink(trx, previous.uuid);
    await trx
      .updateTable('discord_links')
      .set({ discord_id: discordId, link_code: null, link_code_expires_at: null, updated_at: now })
      .where('user_uuid', '=', found.uuid)
      .execute();
    await applyBoost(trx, found.uuid);
    return { player: { uuid: found.uuid, username: found.username }, detail: `member ${discordId}` };
  });
}

/** The bot reports whether a member boosts; null for a member nobody linked. */
export async function setBoosting(
  db: Db,
  discordId: string,
  boosting: boolean,
  now = Date.now(),
): Promise<LinkedPlayer | null> {
  return memberAction(db, discordId, 'BOT_BOOSTING', now, async (trx, player) => {
    await trx
      .updateTable('discord_links')
      .set({ boosting: boosting ? 1 : 0, updated_at: now })
      .where('user_uuid', '=', player.uuid)
      .execute();
    await applyBoost(trx, player.uuid);
    return boosting ? 'boosting' : 'not boosting';
  });
}

/** The bot unlinks a member; null for a member nobody linked. */
export async function unlinkMember(db: Db, discordId: string, now = Date.now()): Promise<LinkedPlayer | null> {
  return memberAction(db, discordId, 'BOT_UNLINK', now, async (trx, player) => {
    await removeLink(trx, player.uuid);
    return `member ${discordId}`;
  });
}

/** Linked members in member id order after `after` (for the bot's periodic re-check), at most `limit`. */
export async function linkedMembers(db: Db, after: string, limit: number) {
  const rows = await db
    .selectFrom('discord_links')
    .innerJoin('users', 'users.uuid', 'discord_links.user_uuid')
    .select(['discord_links.discord_id', 'users.uuid', 'users.username', 'discord_links.boosting'])
    .where('discord_links.discord_id', 'is not', null)
    .where('discord_links.discord_id', '>', after)
    .orderBy('discord_links.discord_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    discordId: row.discord_id!,
    uuid: row.uuid,
    username: row.username,
    boosting: row.boosting === 1,
  }));
}

/**
 * A premium role code for a player who owns a feature not only through a boost; 'no-premium' or 'boost-only' otherwise.
 */
export async function issueRoleCode(
  db: Db,
  uuid: string,
  now = Date.now(),
): Promise<string | 'no-premium' | 'boost-only'> {
  return db.transaction().execute(async (trx) => {
    const states = await featureStates(trx, uuid);
    if (!Object.values(states).some((state) => state.owned)) return 'no-premium' as const;
    if ((await keptFeatures(trx, uuid)).size === 0) {
      const premium = await trx
        .selectFrom('premium')
        .select('boost_only')
        .where('user_uuid', '=', uuid)
        .executeTakeFirst();
      if (premium?.boost_only === 1) return 'boost-only' as const;
    }
    const code = newCode();
    await trx.deleteFrom('discord_role_codes').where('user_uuid', '=', uuid).execute();
    await trx
      .insertInto('discord_role_codes')
      .values({ code, user_uuid: uuid, expires_at: now + ROLE_CODE_TTL_MS, claimed_by: null })
      .execute();
    return code;
  });
}

/** The bot claims a premium role code for a member; null for a wrong, used or expired code. */
export async function claimRoleCode(
  db: Db,
  code: string,
  discordId: string,
  now = Date.now(),
): Promise<LinkedPlayer | null> {
  return botAction(db, 'BOT_ROLE', now, async (trx) => {
    const row = await trx
      .selectFrom('discord_role_codes')
      .innerJoin('users', 'users.uuid', 'discord_role_codes.user_uuid')
      .select(['users.uuid', 'users.username', 'discord_role_codes.expires_at', 'discord_role_codes.claimed_by'])
      .where('discord_role_codes.code', '=', code)
      .executeTakeFirst();
    if (!row || row.claimed_by !== null || Number(row.expires_at) <= now) return null;
    await trx.updateTable('discord_role_codes').set({ claimed_by: discordId }).where('code', '=', code).execute();
    return { player: { uuid: row.uuid, username: row.username }, detail: `member ${discordId}` };
  });
}
