// Card payments through Stripe Checkout: a hosted checkout session made with Stripe's REST API (form-encoded
// `POST /v1/checkout/sessions`, bearer secret key), and its webhook, whose `Stripe-Signature` (an HMAC-SHA256 of
// `timestamp.payload` with the endpoint secret) and timestamp are checked before anything is read from it. Protocol:
// Stripe's API reference (docs.stripe.com/api/checkout/sessions/create) and "Check the webhook signatures"
// (docs.stripe.com/webhooks#verify-manually).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PREMIUM_FEATURES, isPremiumItem, type PremiumItem } from '../../src/lib/premium.ts';
import type { PremiumConfig } from '../config/index.ts';
import type { Db } from '../db/database.ts';
import { fetchOutside, OUTSIDE_JSON_MAX_BYTES } from '../integrations/outside-fetch.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import {
  cents,
  changePaymentStatus,
  grantPayment,
  receiveNotification,
  storeRefusedNotification,
  type PaymentStatus,
} from './payments.ts';
import { isPlayerUuid } from '../../src/lib/ids.ts';

const PROVIDER = 'stripe';
/** How old a signed webhook may be (Stripe's libraries use five minutes): an older one is a replay. */
export const SIGNATURE_TOLERANCE_S = 300;

/** What became of a webhook event (stored beside it). */
export type StripeOutcome =
  | 'granted'
  | 'duplicate'
  | 'revoked'
  | 'restored'
  | 'ignored'
  | 'out of order'
  | `refused: ${'signature' | 'stale' | 'body' | 'unpaid' | 'amount' | 'currency' | 'metadata' | 'player' | 'unknown payment'}`;

/**
 * Makes a Stripe Checkout session for one feature; resolves with the URL to send the buyer to; OutsideServiceError when
 * Stripe does not make it.
 */
export async function createCheckoutSession(
  premium: PremiumConfig,
  order: { uuid: string; item: PremiumItem; siteName: string; successUrl: string; cancelUrl: string },
  timeoutMs = 10_000,
): Promise<string> {
  const form = new URLSearchParams({
    mode: 'payment',
    success_url: order.successUrl,
    cancel_url: order.cancelUrl,
    client_reference_id: order.uuid,
    'metadata[uuid]': order.uuid,
    'metadata[item]': order.item,
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': premium.currency.toLowerCase(),
    'line_items[0][price_data][unit_amount]': String(cents(premium.prices[order.item])),
    'line_items[0][price_data][product_data][name]': `${order.siteName} ${PREMIUM_FEATURES[order.item].name}`,
  });
  const answer = await fetchOutside({
    service: 'Stripe',
    url: `${premium.stripe.apiUrl}/v1/checkout/sessions`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${premium.stripe.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form,
    maxBytes: OUTSIDE_JSON_MAX_BYTES,
    timeoutMs,
  });
  const session = answer.jsonOrNull() as { url?: unknown } | null;
  if (!answer.ok || typeof session?.url !== 'string')
    throw answer.unexpected(answer.ok ? 'no checkout URL' : undefined);
  return session.url;
}

/** Whether a `Stripe-Signature` header signs `body` with `secret` (any of its v1 signatures), and how old it is. */
export function checkSignature(
  header: string | undefined,
  body: Buffer,
  secret: string,
  now = Date.now(),
): 'valid' | 'invalid' | 'stale' {
  const parts = (header ?? '').split(',').map((part) => part.split('=', 2) as [string, string?]);
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts
    .filter(([key, value]) => key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) return 'invalid';
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  if (!signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected))) return 'invalid';
  return Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_S ? 'stale' : 'valid';
}

/** The parts of an event this site reads. */
interface StripeEvent {
  id: string;
  type: string;
  data: {
    object: {
      payment_status?: string;
      amount_total?: number;
      currency?: string;
      metadata?: Record<string, string>;
      payment_intent?: string | null;
      id?: string;
      /** A dispute's state (`won`, `lost`, `warning_closed`, ...). */
      status?: string;
    };
  };
}

/** Reads an event's JSON, or null when it is not one. */
function parseEvent(body: Buffer): StripeEvent | null {
  try {
    const event = JSON.parse(body.toString('utf8')) as StripeEvent;
    return typeof event?.id === 'string' &&
      typeof event.type === 'string' &&
      typeof event.data?.object === 'object' &&
      event.data.object !== null
      ? event
      : null;
  } catch {
    return null;
  }
}

/** Whether an earlier delivery of this event was already acted on. */
async function seenBefore(db: Db, eventId: string, storedId: number): Promise<boolean> {
  const earlier = await db
    .selectFrom('payment_notifications')
    .select('id')
    .where('provider', '=', PROVIDER)
    .where('txn_id', '=', eventId)
    .where('id', '<', storedId)
    .where('outcome', 'in', ['granted', 'revoked', 'restored', 'duplicate', 'ignored'])
    .executeTakeFirst();
  return earlier !== undefined;
}

/**
 * What a refund or dispute event does to its payment: a refund or a new dispute takes it back, a dispute closed in the
 * seller's favour (won, or an inquiry closed without a chargeback) gives it again; null for anything else.
 */
function paymentChange(event: StripeEvent): PaymentStatus | null {
  if (event.type === 'charge.refunded') return 'refunded';
  if (event.type === 'charge.dispute.created') return 'reversed';
  if (
    event.type === 'charge.dispute.closed' &&
    (event.data.object.status === 'won' || event.data.object.status === 'warning_closed')
  )
    return 'completed';
  return null;
}

/**
 * Handles one webhook delivery (its raw bytes and signature header): checks the signature and its age, stores it (only
 * the start of a body that fails), then grants for a paid checkout of the right amount and currency, takes back for a
 * refund or a dispute, gives back for a dispute won, and ignores other events; each event acts once. Returns what
 * became of it.
 */
export async function handleStripeWebhook(
  context: { db: Db; bus: InvalidationBus; premium: PremiumConfig },
  body: Buffer,
  signature: string | undefined,
  now = Date.now(),
): Promise<StripeOutcome> {
  const { db, bus, premium } = context;
  const check = premium.stripe.webhookSecret
    ? checkSignature(signature, body, premium.stripe.webhookSecret, now)
    : 'invalid';
  if (check !== 'valid') {
    const refusal = check === 'stale' ? ('refused: stale' as const) : ('refused: signature' as const);
    return storeRefusedNotification(db, { provider: PROVIDER, body: body.toString('utf8'), txnId: null }, refusal, now);
  }
  const event = parseEvent(body);
  const notification = { provider: PROVIDER, body: body.toString('utf8'), txnId: event?.id ?? null, trusted: true };
  const { id: stored, settle } = await receiveNotification({ db, bus }, notification, now);
  if (!event) return settle('refused: body');
  if (await seenBefore(db, event.id, stored)) return settle('duplicate');
  const object = event.data.object;

  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    if (object.payment_status !== 'paid') return settle('refused: unpaid');
    const uuid = object.metadata?.uuid ?? '';
    const item = object.metadata?.item;
    if (!isPlayerUuid(uuid) || !isPremiumItem(item)) return settle('refused: metadata');
    if (object.currency !== premium.currency.toLowerCase()) return settle('refused: currency');
    if (object.amount_total !== cents(premium.prices[item])) return settle('refused: amount');
    const txnId = object.payment_intent ?? object.id;
    if (!txnId) return settle('refused: body');
    const amount = (object.amount_total / 100).toFixed(2);
    const outcome = await grantPayment(
      db,
      { provider: PROVIDER, txnId, uuid, item, amount, currency: premium.currency },
      now,
    );
    return settle(outcome, uuid);
  }
  const change = paymentChange(event);
  if (change) {
    if (!object.payment_intent) return settle('refused: unknown payment');
    const changed = await changePaymentStatus(db, PROVIDER, object.payment_intent, change, now);
    return settle(changed.outcome, changed.uuid);
  }
  return settle('ignored');
}
