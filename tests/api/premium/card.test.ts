// API tests for card payments (POST /api/premium/payment/intent), on both databases, against a local stand-in that
// speaks Stripe Checkout's protocol: the checkout session, and the signed webhook: only a correctly signed, fresh event
// of a paid checkout at the price and currency grants, once per event and per payment; forged, stale (replayed),
// underpaid and wrong-currency events grant nothing; a refund takes the feature back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, newBrowser, serverForSuite, type LoggedIn } from '../../helpers/server.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

const SECRET_KEY = 'sk_test_cloakroom';
const WEBHOOK_SECRET = 'whsec_cloakroom';

describe.each(backends)('card payments on $name', (backend) => {
  const env: Record<string, string> = {
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    PUBLIC_SITE_URL: 'http://site.example',
  };
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    env.STRIPE_API_URL = stripe.url;
  });
  afterAll(() => stripe.close());
  const suite = serverForSuite(backend, env);
  beforeAll(() => stripe.setWebhookUrl(`${suite.server.url}/api/premium/stripe/webhook`));

  const owns = async (player: LoggedIn, item: string) =>
    (
      (await (await player.jar.get('/api/premium')).json()) as { items: Array<{ key: string; owned: boolean }> }
    ).items.find((entry) => entry.key === item)!.owned;
  const lastOutcome = async () =>
    (
      await suite.server.db
        .selectFrom('payment_notifications')
        .select('outcome')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).outcome;
  /** A paid checkout session's object for a player and feature, with fields changed as given. */
  const paidSession = (uuid: string, item: string, changes: Record<string, unknown> = {}) => ({
    id: `cs_test_${Math.random().toString(16).slice(2)}`,
    object: 'checkout.session',
    payment_intent: `pi_${Math.random().toString(16).slice(2)}`,
    payment_status: 'paid',
    amount_total: 499,
    currency: 'gbp',
    metadata: { uuid, item },
    ...changes,
  });
  /** Sends a correctly signed event; resolves with the status. */
  const sendSigned = (payload: string) => stripe.send(payload, stripe.sign(payload));

  it('makes a checkout session for the player and the feature; refuses visitors, others and owners', async () => {
    const visitor = await newBrowser(suite.server);
    const player = await loginNewUser(suite.server);
    expect((await visitor.post('/api/premium/payment/intent', { uuid: player.uuid, item: 'glint' })).status).toBe(401);
    const state = await (await player.jar.get('/api/premium')).json();
    expect(state.providers).toEqual({ paypal: false, card: true });

    const intent = await player.jar.post('/api/premium/payment/intent', { uuid: player.uuid, item: 'glint' });
    expect(intent.status, await intent.clone().text()).toBe(200);
    const session = stripe.sessions.at(-1)!;
    expect(await intent.json()).toEqual({ url: `${stripe.url}/c/pay/${session.id}` });
    expect(session).toMatchObject({
      amount_total: 499,
      currency: 'gbp',
      metadata: { uuid: player.uuid, item: 'glint' },
      success_url: 'http://site.example/premium/success',
      cancel_url: 'http://site.example/premium',
      name: 'Cloakroom Cape glint',
    });

    const other = await loginNewUser(suite.server);
    expect((await player.jar.post('/api/premium/payment/intent', { uuid: other.uuid, item: 'glint' })).status).toBe(
      403,
    );
    expect((await player.jar.post('/api/premium/payment/intent', { uuid: player.uuid, item: 'wings' })).status).toBe(
      422,
    );

    // Paying on the hosted page sends the signed event: the feature is granted, and asking again is refused.
    const pay = await fetch(`${stripe.url}/c/pay/${session.id}`, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe('http://site.example/premium/success');
    expect(await owns(player, 'glint')).toBe(true);
    expect((await player.jar.post('/api/premium/payment/intent', { uuid: player.uuid, item: 'glint' })).status).toBe(
      422,
    );
  });

  it('answers 502 with a clear message when Stripe refuses the session', async () => {
    await stripe.close();
    const player = await loginNewUser(suite.server);
    const intent = await player.jar.post('/api/premium/payment/intent', { uuid: player.uuid, item: 'animated' });
    expect(intent.status).toBe(502);
    expect((await intent.json()).error).toBe('The card payment could not be started. Try again in a minute.');
    stripe = await startStripeStandIn({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      port: Number(new URL(env.STRIPE_API_URL!).port),
    });
    stripe.setWebhookUrl(`${suite.server.url}/api/premium/stripe/webhook`);
  });

  it('grants nothing for a forged, stale, unsigned, unpaid, underpaid, wrong-currency or unknown-player event', async () => {
    const player = await loginNewUser(suite.server);
    const good = stripe.event('checkout.session.completed', paidSession(player.uuid, 'animated'));
    const cases: Array<[string, string | undefined, number, string]> = [
      [good, stripe.sign(good, undefined, 'whsec_forged'), 400, 'refused: signature'],
      [good, undefined, 400, 'refused: signature'],
      [good, 't=123,v1=zz', 400, 'refused: signature'],
      // Signed correctly, ten minutes ago: a replay.
      [good, stripe.sign(good, Math.floor(Date.now() / 1000) - 600), 400, 'refused: stale'],
      // The body changed after signing.
      [good.replace('"amount_total":499', '"amount_total":1'), stripe.sign(good), 400, 'refused: signature'],
    ];
    for (const changes of [
      [{ payment_status: 'unpaid' }, 'refused: unpaid'],
      [{ amount_total: 1 }, 'refused: amount'],
      [{ currency: 'usd' }, 'refused: currency'],
      [{ metadata: { uuid: '0'.repeat(32), item: 'animated' } }, 'refused: player'],
      [{ metadata: { uuid: player.uuid, item: 'wings' } }, 'refused: metadata'],
    ] as const) {
      const payload = stripe.event('checkout.session.completed', paidSession(player.uuid, 'animated', changes[0]));
      cases.push([payload, stripe.sign(payload), 200, changes[1]]);
    }
    for (const [payload, signature, status, outcome] of cases) {
      expect(await stripe.send(payload, signature), outcome).toBe(status);
      expect(await lastOutcome(), outcome).toBe(outcome);
    }
    expect(await owns(player, 'animated')).toBe(false);
    const ignored = stripe.event('customer.created', { id: 'cus_1' });
    expect(await sendSigned(ignored)).toBe(200);
    expect(await lastOutcome()).toBe('ignored');
  });

  it('acts once per event and per payment, and a refund takes the feature back', async () => {
    const player = await loginNewUser(suite.server);
    const session = paidSession(player.uuid, 'dinnerbone');
    const payload = stripe.event('checkout.session.completed', session);
    expect(await sendSigned(payload)).toBe(200);
    expect(await lastOutcome()).toBe('granted');
    expect(await sendSigned(payload)).toBe(200);
    expect(await lastOutcome()).toBe('duplicate');
    // The same payment in a new event (async_payment_succeeded after completed) grants nothing twice either.
    expect(await sendSigned(stripe.event('checkout.session.async_payment_succeeded', session))).toBe(200);
    expect(await lastOutcome()).toBe('duplicate');
    expect(
      await suite.server.db.selectFrom('premium_payments').selectAll().where('user_uuid', '=', player.uuid).execute(),
    ).toHaveLength(1);
    expect(await owns(player, 'dinnerbone')).toBe(true);
    expect(await modProfile(suite.server.url, player.uuid)).toMatchObject({ upsideDown: true });

    expect(
      await sendSigned(
        stripe.event('charge.refunded', {
          id: 'ch_1',
          object: 'charge',
          payment_intent: session.payment_intent,
          refunded: true,
        }),
      ),
    ).toBe(200);
    expect(await lastOutcome()).toBe('revoked');
    expect(await owns(player, 'dinnerbone')).toBe(false);
    expect(await modProfile(suite.server.url, player.uuid)).toMatchObject({ upsideDown: false });
  });

  it('a dispute takes the feature back; a dispute the seller wins gives it again, a lost one does not', async () => {
    const player = await loginNewUser(suite.server);
    const session = paidSession(player.uuid, 'glint');
    expect(await sendSigned(stripe.event('checkout.session.completed', session))).toBe(200);
    const dispute = (status: string) => ({
      id: 'dp_1',
      object: 'dispute',
      charge: 'ch_1',
      payment_intent: session.payment_intent,
      status,
    });
    expect(await sendSigned(stripe.event('charge.dispute.created', dispute('needs_response')))).toBe(200);
    expect(await lastOutcome()).toBe('revoked');
    expect(await owns(player, 'glint')).toBe(false);
    expect(await sendSigned(stripe.event('charge.dispute.closed', dispute('won')))).toBe(200);
    expect(await lastOutcome()).toBe('restored');
    expect(await owns(player, 'glint')).toBe(true);

    // A second dispute, lost: the feature stays taken back.
    expect(await sendSigned(stripe.event('charge.dispute.created', { ...dispute('needs_response'), id: 'dp_2' }))).toBe(
      200,
    );
    expect(await sendSigned(stripe.event('charge.dispute.closed', { ...dispute('lost'), id: 'dp_2' }))).toBe(200);
    expect(await lastOutcome()).toBe('ignored');
    expect(await owns(player, 'glint')).toBe(false);
  });

  it('follows the real order of payment states: a won dispute gives nothing back after a refund', async () => {
    const player = await loginNewUser(suite.server);
    const session = paidSession(player.uuid, 'animated');
    expect(await sendSigned(stripe.event('checkout.session.completed', session))).toBe(200);
    expect(
      await sendSigned(
        stripe.event('charge.refunded', {
          id: 'ch_2',
          object: 'charge',
          payment_intent: session.payment_intent,
          refunded: true,
        }),
      ),
    ).toBe(200);
    expect(await owns(player, 'animated')).toBe(false);
    const won = {
      id: 'dp_3',
      object: 'dispute',
      charge: 'ch_2',
      payment_intent: session.payment_intent,
      status: 'won',
    };
    expect(await sendSigned(stripe.event('charge.dispute.closed', won))).toBe(200);
    expect(await lastOutcome()).toBe('out of order');
    expect(await owns(player, 'animated')).toBe(false);
  });
});
