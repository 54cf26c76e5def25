// Who owns which premium feature and whether they have it on (the `premium` table): granting and taking back a feature,
// the on/off switch of glint and upside down, the lock that makes a player's feature changes take turns, and what a
// player keeps whatever a boost does (a completed payment, a moderator's grant). Callers publish the player's change
// notice after their transaction.
import type { Transaction } from 'kysely';
import type { PremiumItem } from '../../src/lib/premium.ts';
import { isPremiumItem, PREMIUM_ITEMS } from '../../src/lib/premium.ts';
import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';

/** A feature that can be switched on and off by its owner. */
export type ToggledItem = 'glint' | 'dinnerbone';

/** The `premium` columns that hold each feature's ownership and on/off state (the animation has no switch). */
const COLUMNS: Record<
  PremiumItem,
  { owned: 'animated' | 'glint' | 'dinnerbone'; enabled: 'glint_enabled' | 'dinnerbone_enabled' | null }
> = {
  animated: { owned: 'animated', enabled: null },
  glint: { owned: 'glint', enabled: 'glint_enabled' },
  dinnerbone: { owned: 'dinnerbone', enabled: 'dinnerbone_enabled' },
};

/** Writes premium columns of a player, creating their row when needed. */
async function setColumns(
  trx: Transaction<Database> | Db,
  uuid: string,
  values: Record<string, number>,
): Promise<void> {
  await trx
    .insertInto('premium')
    .values({ user_uuid: uuid, ...values })
    .onConflict((oc) => oc.column('user_uuid').doUpdateSet(values))
    .execute();
}

/**
 * Makes the transaction the only one changing a player's features until it ends, so that what it reads (payments,
 * grants, the boost) still holds when it writes. PostgreSQL locks the player's premium row (made when missing); SQLite
 * transactions already run one at a time.
 */
export async function lockFeatures(trx: Transaction<Database>, uuid: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx
    .insertInto('premium')
    .values({ user_uuid: uuid })
    .onConflict((oc) => oc.column('user_uuid').doNothing())
    .execute();
  await trx.selectFrom('premium').select('user_uuid').where('user_uuid', '=', uuid).forUpdate().execute();
}

/** The features a player keeps whatever their boost does: paid for (a completed payment) or given by a moderator. */
export async function keptFeatures(trx: Transaction<Database>, uuid: string): Promise<Set<PremiumItem>> {
  const paid = await trx
    .selectFrom('premium_payments')
    .select('item')
    .where('user_uuid', '=', uuid)
    .where('status', '=', 'completed')
    .execute();
  const granted = await trx.selectFrom('premium_grants').select('item').where('user_uuid', '=', uuid).execute();
  return new Set([...paid, ...granted].map((row) => row.item).filter(isPremiumItem));
}

/** Records that a moderator gave a player a feature (a refund or a boost ending leaves it). */
export async function recordModeratorGrant(
  trx: Transaction<Database>,
  uuid: string,
  item: PremiumItem,
  moderatorUuid: string,
  now = Date.now(),
): Promise<void> {
  await trx
    .insertInto('premium_grants')
    .values({ user_uuid: uuid, item, granted_by: moderatorUuid, granted_at: now })
    .onConflict((oc) => oc.columns(['user_uuid', 'item']).doUpdateSet({ granted_by: moderatorUuid, granted_at: now }))
    .execute();
}

/** Forgets a moderator's grant of a feature (a moderator took it away). */
export async function dropModeratorGrant(trx: Transaction<Database>, uuid: string, item: PremiumItem): Promise<void> {
  await trx.deleteFrom('premium_grants').where('user_uuid', '=', uuid).where('item', '=', item).execute();
}

/** Gives a player a feature, switched on. */
export async function grantFeature(trx: Transaction<Database>, uuid: string, item: PremiumItem): Promise<void> {
  const { owned, enabled } = COLUMNS[item];
  await setColumns(trx, uuid, { [owned]: 1, ...(enabled ? { [enabled]: 1 } : {}) });
}

/** Takes a feature back (a refund, a reversal, a moderator). */
export async function revokeFeature(trx: Transaction<Database>, uuid: string, item: PremiumItem): Promise<void> {
  const { owned, enabled } = COLUMNS[item];
  await setColumns(trx, uuid, { [owned]: 0, ...(enabled ? { [enabled]: 0 } : {}) });
}

/** Switches an owned feature on or off; false (and nothing changed) when the player does not own it. */
export async function setFeatureEnabled(
  trx: Transaction<Database> | Db,
  uuid: string,
  item: ToggledItem,
  on: boolean,
): Promise<boolean> {
  const { owned, enabled } = COLUMNS[item];
  const result = await trx
    .updateTable('premium')
    .set({ [enabled!]: on ? 1 : 0 })
    .where('user_uuid', '=', uuid)
    .where(owned, '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Each feature's state for a player (none owned for a visitor). */
export async function featureStates(
  db: Db | Transaction<Database>,
  uuid: string | null,
): Promise<Record<PremiumItem, { owned: boolean; enabled: boolean }>> {
  const row = uuid
    ? await db.selectFrom('premium').selectAll().where('user_uuid', '=', uuid).executeTakeFirst()
    : undefined;
  const states = {} as Record<PremiumItem, { owned: boolean; enabled: boolean }>;
  for (const item of PREMIUM_ITEMS) {
    const { owned, enabled } = COLUMNS[item];
    const owns = row?.[owned] === 1;
    states[item] = { owned: owns, enabled: owns && (enabled === null || row?.[enabled] === 1) };
  }
  return states;
}
