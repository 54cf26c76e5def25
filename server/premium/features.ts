// Who owns which premium feature and whether they have it on (the `premium` table): granting and taking back a feature,
// and the on/off switch of glint and upside down. Callers publish the player's change notice after their transaction.
import type { Transaction } from 'kysely';
import type { PremiumItem } from '../../src/lib/premium.ts';
import { PREMIUM_ITEMS } from '../../src/lib/premium.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** A feature that can be switched on and off by its owner. */
export type ToggledItem = 'glint' | 'dinnerbone';

/** The `premium` columns that hold each feature's ownership and on/off state (the animation has no switch). */
const COLUMNS: Record<PremiumItem, { owned: 'animated' | 'glint' | 'dinnerbone'; enabled: 'glint_enabled' | 'dinnerbone_enabled' | null }> = {
  animated: { owned: 'animated', enabled: null },
  glint: { owned: 'glint', enabled: 'glint_enabled' },
  dinnerbone: { owned: 'dinnerbone', enabled: 'dinnerbone_enabled' },
};

/** Writes premium columns of a player, creating their row when needed. */
async function setColumns(trx: Transaction<Database> | Db, uuid: string, values: Record<string, number>): Promise<void> {
  await trx
    .insertInto('premium')
    .values({ user_uuid: uuid, ...values })
    .onConflict((oc) => oc.column('user_uuid').doUpdateSet(values))
    .execute();
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
export async function setFeatureEnabled(trx: Transaction<Database> | Db, uuid: string, item: ToggledItem, on: boolean): Promise<boolean> {
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
export async function featureStates(db: Db | Transaction<Database>, uuid: string | null): Promise<Record<PremiumItem, { owned: boolean; enabled: boolean }>> {
  const row = uuid ? await db.selectFrom('premium').selectAll().where('user_uuid', '=', uuid).executeTakeFirst() : undefined;
  const states = {} as Record<PremiumItem, { owned: boolean; enabled: boolean }>;
  for (const item of PREMIUM_ITEMS) {
    const { owned, enabled } = COLUMNS[item];
    const owns = row?.[owned] === 1;
    states[item] = { owned: owns, enabled: owns && (enabled === null || row?.[enabled] === 1) };
  }
  return states;
}
