// Payments that grant premium features, whatever the provider: a payment row per provider transaction (so a replayed
// notification grants nothing twice) written in the transaction of its grant, refunds and reversals that take the
// feature back in the order they really happen, and the stored notifications with what became of each (an untrusted one
// kept short, every one kept for the retention period). Each change to a player's features holds their lock
// (features.ts).
import type { PremiumItem } from '../../src/lib/premium.ts';
import { isPremiumItem } from '../../src/lib/premium.ts';
import type { Db } from '../db/database.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import { grantFeature, keptFeatures, lockFeatures, revokeFeature } from './features.ts';

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
 * How much of a body nobody vouched for (a bad signature, no verification yet, junk) is stored: enough to see what it
 * was.
 */
export const UNTRUSTED_BODY_CHARS = 1024;
/** The longest transaction or event id stored with a notification (providers' ids are a few dozen characters). */
const MAX_TXN_ID_CHARS = 255;

/** A notification as it arrived. */
export interface IncomingNotification {
  provider: string;
  /** Its body as text. */
  body: string;
  /** The provider's transaction or event id, when it names one. */
  txnId: string | null;
  /** Whether the provider vouched for it already (a valid signature); an untrusted body is stored cut short. */
  trusted: boolean;
}

/** A body as stored: cut short unless trusted, and without NUL characters (which PostgreSQL text cannot hold). */
function storedBody(body: string, trusted: boolean): string {
  return (trusted ? body : body.slice(0, UNTRUSTED_BODY_CHARS)).replaceAll('\u0000', '\uFFFD');
}

/** A `payment_notifications` row (a transaction id too long to be a provider's is left out). */
function notificationRow(provider: string, body: string, txnId: string | null, outcome: string, now: number) {
  return {
    provider,
    received_at: now,
    body,
    txn_id: txnId !== null && txnId.length <= MAX_TXN_ID_CHARS ? txnId : null,
    outcome,
  };
}

/**
 * Stores a notification as it arrived (outcome "received") and returns its id with `settle`, which records what became
 * of it and, when that changed a player's features, tells the mod API's profile caches; and `trust`, which stores the
 * whole body of a notification the provider has since vouched for (PayPal verified it).
 */
export async function receiveNotification(
  context: { db: Db; bus: InvalidationBus },
  notification: IncomingNotification,
  now = Date.now(),
): Promise<{
  id: number;
  settle: <O extends string>(outcome: O, uuid?: string) => Promise<O>;
  trust: () => Promise<void>;
}> {
  const { db, bus } = context;
  const { provider, body, txnId, trusted } = notification;
  const { id } = await db
    .insertInto('payment_notifications')
    .values(notificationRow(provider, storedBody(body, trusted), txnId, 'received', now))
    .returning('id')
    .executeTakeFirstOrThrow();
  const settle = async <O extends string>(outcome: O, uuid?: string): Promise<O> => {
    await db.updateTable('payment_notifications').set({ outcome }).where('id', '=', id).execute();
    if (uuid && CHANGING_OUTCOMES.has(outcome)) await bus.publish(uuid);
    return outcome;
  };
  const trust = async () => {
    if (trusted) return;
    await db
      .updateTable('payment_notifications')
      .set({ body: storedBody(body, true) })
      .where('id', '=', id)
      .execute();
  };
  return { id, settle, trust };
}

/**
 * Stores a notification refused before anything was done with it (junk, a bad signature), in one write; returns
 * `outcome`.
 */
export async function storeRefusedNotification<O extends string>(
  db: Db,
  notification: Omit<IncomingNotification, 'trusted'>,
  outcome: O,
  now = Date.now(),
): Promise<O> {
  await db
    .insertInto('payment_notifications')
    .values(
      notificationRow(notification.provider, storedBody(notification.body, false), notification.txnId, outcome, now),
    )
    .execute();
  return outcome;
}

/** Removes the notifications received before `before` (the retention period's start); returns how many. */
export async function removeOldNotifications(db: Db, before: number): Promise<number> {
  const removed = await db.deleteFrom('payment_notifications').where('received_at', '<', before).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/**
 * Grants the feature of a completed payment once per transaction: 'granted', 'duplicate', or 'refused: player' for an
 * unknown player.
 */
export async function grantPayment(
  db: Db,
  payment: CompletedPayment,
  now = Date.now(),
): Promise<'granted' | 'duplicate' | 'refused: player'> {
  return db.transaction().execute(async (trx) => {
    const player = await trx.selectFrom('users').select('uuid').where('uuid', '=', payment.uuid).executeTakeFirst();
    if (!player) return 'refused: player' as const;
    await lockFeatures(trx, payment.uuid);
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

/** A payment's statuses. */
export type PaymentStatus = 'completed' | 'refunded' | 'reversed';

/**
 * The statuses a payment can move to from each status, in the order they really happen: a completed payment is refunded
 * or reversed (a chargeback), a reversal can be cancelled (the seller won), and a refund is final.
 */
const NEXT_STATUSES: Record<PaymentStatus, PaymentStatus[]> = {
  completed: ['refunded', 'reversed'],
  reversed: ['completed'],
  refunded: [],
};

/**
 * Moves a payment to `status`: `completed` gives the feature again (a cancelled reversal), refunded or reversed take it
 * back unless the player keeps it otherwise (another completed payment, a moderator's grant). A move out of the real
 * order changes nothing ('out of order'), nor does one to the status the payment has already ('duplicate': a repeated
 * delivery, or a cancelled reversal of a payment never reversed). Returns the outcome and the player whose profile
 * changed.
 */
export async function changePaymentStatus(
  db: Db,
  provider: string,
  txnId: string,
  status: PaymentStatus,
  now = Date.now(),
): Promise<{
  outcome: 'revoked' | 'restored' | 'duplicate' | 'out of order' | 'refused: unknown payment';
  uuid?: string;
}> {
  return db.transaction().execute(async (trx) => {
    const payment = () =>
      trx
        .selectFrom('premium_payments')
        .select(['user_uuid', 'item', 'status'])
        .where('provider', '=', provider)
        .where('txn_id', '=', txnId)
        .executeTakeFirst();
    const found = await payment();
    if (!found || !isPremiumItem(found.item)) return { outcome: 'refused: unknown payment' as const };
    // Read again under the player's lock: a change that committed meanwhile is seen.
    await lockFeatures(trx, found.user_uuid);
    const { user_uuid: uuid, item, status: current } = (await payment())!;
    if (!isPremiumItem(item)) return { outcome: 'refused: unknown payment' as const };
    if (current === status) return { outcome: 'duplicate' as const };
    if (!(NEXT_STATUSES[current as PaymentStatus] ?? []).includes(status)) return { outcome: 'out of order' as const };
    await trx
      .updateTable('premium_payments')
      .set({ status, updated_at: now })
      .where('provider', '=', provider)
      .where('txn_id', '=', txnId)
      .execute();
    if (status === 'completed') {
      await grantFeature(trx, uuid, item);
      return { outcome: 'restored' as const, uuid };
    }
    if (!(await keptFeatures(trx, uuid)).has(item)) await revokeFeature(trx, uuid, item);
    return { outcome: 'revoked' as const, uuid };
  });
}

/** Amounts in cents, or null when the text is not an amount. */
export function cents(amount: string | null | undefined): number | null {
  return typeof amount === 'string' && /^\d{1,7}(\.\d{1,2})?$/.test(amount) ? Math.round(Number(amount) * 100) : null;
}
