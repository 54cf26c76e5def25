// Payments that grant premium features, whatever the provider: a payment row per provider transaction (so a replayed
// notification grants nothing twice) written in the transaction of its grant, refunds and reversals that take the feature
// back, and the stored notifications with what became of each.
import type { PremiumItem } from '../../src/lib/premium.ts';
import { isPremiumItem } from '../../src/lib/premium.ts';
import type { Db } from '../db/database.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';
import { grantFeature, revokeFeature } from './features.ts';

/** A payment that a provider reported as complete. */
export interface CompletedPayment {
  provider: string;
  txnId: string;
  uuid: string;
  item: PremiumItem;
  amount: string;
  currency: string;
}

/** Outcomes that changed a player's features (their mod profile must be told). */
const CHANGING_OUTCOMES = new Set(['granted', 'revoked', 'restored']);

/**
 * Stores a notification as it arrived (outcome "received") and returns its id with `settle`, which records what
 * became of it and, when that changed a player's features, tells the mod API's profile caches.
 */
export async function receiveNotification(
  context: { db: Db; bus: InvalidationBus },
  provider: string,
  body: string,
  txnId: string | null,
  now = Date.now(),
): Promise<{ id: number; settle: <O extends string>(outcome: O, uuid?: string) => Promise<O> }> {
  const { db, bus } = context;
  const { id } = await db
    .insertInto('payment_notifications')
    .values({ provider, received_at: now, body, txn_id: txnId, outcome: 'received' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const settle = async <O extends string>(outcome: O, uuid?: string): Promise<O> => {
    await db.updateTable('payment_notifications').set({ outcome }).where('id', '=', id).execute();
    if (uuid && CHANGING_OUTCOMES.has(outcome)) await bus.publish(uuid);
    return outcome;
  };
  return { id, settle };
}

/** Grants the feature of a completed payment once per transaction: 'granted', 'duplicate', or 'refused: player' for an unknown player. */
export async function grantPayment(db: Db, payment: CompletedPayment, now = Date.now()): Promise<'granted' | 'duplicate' | 'refused: player'> {
  return db.transaction().execute(async (trx) => {
    const player = await trx.selectFrom('users').select('uuid').where('uuid', '=', payment.uuid).executeTakeFirst();
    if (!player) return 'refused: player' as const;
    const inserted = await trx
      .insertInto('premium_payments')
      .values({
        provider: payment.provider,
        txn_id: payment.txnId,
        user_uuid: payment.uuid,
        item: payment.item,
        amount: payment.amount,
        currency: payment.currency,
        status: 'completed',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['provider', 'txn_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return 'duplicate' as const;
    await grantFeature(trx, payment.uuid, payment.item);
    return 'granted' as const;
  });
}

/**
 * Moves a payment to `status`: `completed` gives the feature again (a cancelled reversal), anything else (refunded,
 * reversed) takes it back unless another completed payment of the player paid for it too. Returns the outcome and the
 * player whose profile changed.
 */
export async function changePaymentStatus(
  db: Db,
  provider: string,
  txnId: string,
  status: string,
  now = Date.now(),
): Promise<{ outcome: 'revoked' | 'restored' | 'duplicate' | 'refused: unknown payment'; uuid?: string }> {
  return db.transaction().execute(async (trx) => {
    const payment = await trx
      .selectFrom('premium_payments')
      .select(['user_uuid', 'item', 'status'])
      .where('provider', '=', provider)
      .where('txn_id', '=', txnId)
      .executeTakeFirst();
    if (!payment || !isPremiumItem(payment.item)) return { outcome: 'refused: unknown payment' as const };
    if (payment.status === status) return { outcome: 'duplicate' as const };
    await trx.updateTable('premium_payments').set({ status, updated_at: now }).where('provider', '=', provider).where('txn_id', '=', txnId).execute();
    if (status === 'completed') {
      await grantFeature(trx, payment.user_uuid, payment.item);
      return { outcome: 'restored' as const, uuid: payment.user_uuid };
    }
    const otherPayment = await trx
      .selectFrom('premium_payments')
      .select('txn_id')
      .where('user_uuid', '=', payment.user_uuid)
      .where('item', '=', payment.item)
      .where('status', '=', 'completed')
      .executeTakeFirst();
    if (!otherPayment) await revokeFeature(trx, payment.user_uuid, payment.item);
    return { outcome: 'revoked' as const, uuid: payment.user_uuid };
  });
}

/** Amounts in cents, or null when the text is not an amount. */
export function cents(amount: string | null | undefined): number | null {
  return typeof amount === 'string' && /^\d{1,7}(\.\d{1,2})?$/.test(amount) ? Math.round(Number(amount) * 100) : null;
}
