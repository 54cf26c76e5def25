// PayPal Standard's Instant Payment Notification (IPN): every message is stored (cut short until PayPal vouches for
// it), a message with the fields a real one carries is posted back to PayPal for verification (`cmd=_notify-validate`
// and the message's bytes unchanged), and only a VERIFIED, Completed payment to our account, of the feature's price in
// our currency, with a transaction id not seen before, grants the feature. Refunds and reversals take it back, a
// cancelled reversal gives it again. Protocol: PayPal's "IPN integration guide" (developer.paypal.com,
// /api/nvp-soap/ipn/IPNIntro/ and IPNandPDTVariables/).
import type { PremiumConfig } from '../config/index.ts';
import type { Db } from '../db/database.ts';
import { fetchOutside, OUTSIDE_JSON_MAX_BYTES } from '../integrations/outside-fetch.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import { isPremiumItem, type PremiumItem } from '../../src/lib/premium.ts';
import {
  cents,
  changePaymentStatus,
  grantPayment,
  receiveNotification,
  storeRefusedNotification,
  type PaymentStatus,
} from './payments.ts';
import { isPlayerUuid } from '../../src/lib/ids.ts';

const PROVIDER = 'paypal';
/** The payment statuses PayPal's IPN sends (IPNandPDTVariables, `payment_status`). */
const PAYMENT_STATUSES = new Set([
  'Canceled_Reversal',
  'Completed',
  'Created',
  'Denied',
  'Expired',
  'Failed',
  'Pending',
  'Refunded',
  'Reversed',
  'Processed',
  'Voided',
]);
/** The statuses that move an earlier payment (named by `parent_txn_id`), and the status they move it to. */
const PAYMENT_CHANGES: Record<string, PaymentStatus> = {
  Refunded: 'refunded',
  Reversed: 'reversed',
  Canceled_Reversal: 'completed',
};
/** A transaction id as PayPal makes them (17 letters and digits), with room to spare. */
const TXN_ID_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/** What became of a notification (stored beside it). */
export type IpnOutcome =
  | 'granted'
  | 'duplicate'
  | 'unverified'
  | 'revoked'
  | 'restored'
  | 'ignored'
  | 'verification unavailable'
  | 'out of order'
  | `refused: ${'fields' | 'status' | 'receiver' | 'amount' | 'currency' | 'custom' | 'player' | 'unknown payment'}`;

/** The `custom` field our checkout form sends: the buyer's uuid and the feature, as `uuid:item`. */
export function checkoutCustom(uuid: string, item: PremiumItem): string {
  return `${uuid}:${item}`;
}

/**
 * Posts a notification back to PayPal: true for VERIFIED, false for INVALID; OutsideServiceError otherwise (the
 * notification is then answered 502, so PayPal sends it again).
 */
export async function verifyIpn(verifyUrl: string, body: Buffer, timeoutMs = 10_000): Promise<boolean> {
  const answer = await fetchOutside({
    service: "PayPal's IPN verification",
    url: verifyUrl,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Cloakroom-IPN-Verifier' },
    body: Buffer.concat([Buffer.from('cmd=_notify-validate&'), body]),
    maxBytes: OUTSIDE_JSON_MAX_BYTES,
    timeoutMs,
  });
  const text = answer.text().trim();
  if (answer.ok && text === 'VERIFIED') return true;
  if (answer.ok && text === 'INVALID') return false;
  throw answer.unexpected();
}

/**
 * Whether a message carries the fields every real IPN about a payment has (its transaction id, a known status, the
 * receiver), and those its status needs: the buyer's `custom` and the amount of a completed payment, the parent
 * transaction of a refund or reversal. Anything less is junk, not worth a verification post to PayPal.
 */
function hasRealFields(fields: URLSearchParams): boolean {
  const present = (name: string) => (fields.get(name) ?? '').length > 0;
  const status = fields.get('payment_status') ?? '';
  if (!TXN_ID_PATTERN.test(fields.get('txn_id') ?? '') || !PAYMENT_STATUSES.has(status) || !present('receiver_email'))
    return false;
  if (status === 'Completed') return present('custom') && present('mc_gross') && present('mc_currency');
  return !Object.hasOwn(PAYMENT_CHANGES, status) || TXN_ID_PATTERN.test(fields.get('parent_txn_id') ?? '');
}

/** What the notification asks for, checked against our settings, before the database is touched. */
function paymentOf(
  fields: URLSearchParams,
  premium: PremiumConfig,
): { outcome: IpnOutcome } | { uuid: string; item: PremiumItem } {
  const [uuid = '', item = ''] = (fields.get('custom') ?? '').split(':');
  if (!isPlayerUuid(uuid) || !isPremiumItem(item)) return { outcome: 'refused: custom' };
  if ((fields.get('receiver_email') ?? '').toLowerCase() !== (premium.paypal.email ?? '').toLowerCase())
    return { outcome: 'refused: receiver' };
  if (fields.get('mc_currency') !== premium.currency) return { outcome: 'refused: currency' };
  if (cents(fields.get('mc_gross')) !== cents(premium.prices[item])) return { outcome: 'refused: amount' };
  return { uuid, item };
}

/**
 * Handles one IPN message (its raw bytes): stores it, verifies it with PayPal, and grants, revokes or ignores; returns
 * what became of it. A grant and its payment row commit together, and the player's mod profile is told at once.
 */
export async function handleIpn(
  context: { db: Db; bus: InvalidationBus; premium: PremiumConfig },
  body: Buffer,
  now = Date.now(),
): Promise<IpnOutcome> {
  const { db, bus, premium } = context;
  const fields = new URLSearchParams(body.toString('latin1'));
  const notification = { provider: PROVIDER, body: body.toString('latin1'), txnId: fields.get('txn_id') };
  if (!hasRealFields(fields)) return storeRefusedNotification(db, notification, 'refused: fields', now);
  const { settle, trust } = await receiveNotification({ db, bus }, { ...notification, trusted: false }, now);

  let verified: boolean;
  try {
    verified = await verifyIpn(premium.paypal.ipnVerifyUrl, body);
  } catch (error) {
    await settle('verification unavailable');
    throw error;
  }
  if (!verified) return settle('unverified');
  await trust();
  const status = fields.get('payment_status')!;
  const change = PAYMENT_CHANGES[status];
  if (change) {
    const changed = await changePaymentStatus(db, PROVIDER, fields.get('parent_txn_id')!, change, now);
    return settle(changed.outcome, changed.uuid);
  }
  if (status !== 'Completed')
    return settle(status === 'Pending' || status === 'Processed' ? 'ignored' : 'refused: status');
  const payment = paymentOf(fields, premium);
  if ('outcome' in payment) return settle(payment.outcome);
  const outcome = await grantPayment(
    db,
    {
      provider: PROVIDER,
      txnId: notification.txnId!,
      uuid: payment.uuid,
      item: payment.item,
      amount: fields.get('mc_gross')!,
      currency: premium.currency,
    },
    now,
  );
  return settle(outcome, payment.uuid);
}
