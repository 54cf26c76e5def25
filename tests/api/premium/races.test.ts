// API tests for writes that race one another, on both databases (PostgreSQL runs them at once for real): two refunds of
// the two payments for one feature always take it back; identical deliveries of one refund are all recorded and act
// once (PayPal and Stripe); a like racing its item's deletion answers 404, never 500. Each race runs many times.
import { beforeAll, describe, expect, it } from 'vitest';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { paymentServicesForSuite, PAYMENT_ACCOUNT } from '../../helpers/payment-services.ts';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, serverForSuite, type LoggedIn } from '../../helpers/server.ts';

const { merchant: MERCHANT } = PAYMENT_ACCOUNT;
let txn = 1;

/** The outcomes of 20 deliveries of one refund: all recorded, one revocation, the rest duplicates. */
function expectActedOnce(seen: string[], trial: string): void {
  expect(seen, trial).toHaveLength(20);
  expect(
    seen.filter((outcome) => outcome === 'revoked'),
    trial,
  ).toHaveLength(1);
  expect(
    seen.filter((outcome) => outcome === 'duplicate'),
    trial,
  ).toHaveLength(19);
}

describe.each(backends)('races on $name', (backend) => {
  const env: Record<string, string> = {
    LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
    PAYMENT_NOTIFICATIONS_PER_MINUTE: '100000',
  };
  const services = paymentServicesForSuite(env);
  const suite = serverForSuite(backend, env);
  beforeAll(() => services.stripe.setWebhookUrl(`${suite.server.url}/api/premium/stripe/webhook`));

  /** Sends an IPN PayPal issued; resolves with our server's status. */
  const sendIpn = (fields: Record<string, string>) =>
    services.paypal.notify(`${suite.server.url}/api/premium/payment`, services.paypal.issue(fields));
  /** A completed payment for a player and feature. */
  const payment = (uuid: string, item: string) => ({
    payment_status: 'Completed',
    txn_id: `RACE${txn++}`,
    receiver_email: MERCHANT,
    mc_gross: '4.99',
    mc_currency: 'GBP',
    custom: `${uuid}:${item}`,
  });
  /** The refund of a payment, as PayPal notifies it (a transaction of its own that names its parent). */
  const refund = (paid: Record<string, string>) => ({
    ...paid,
    txn_id: `RACE${txn++}`,
    parent_txn_id: paid.txn_id!,
    payment_status: 'Refunded',
    mc_gross: '-4.99',
  });
  const owns = async (uuid: string, item: 'glint' | 'dinnerbone') =>
    ((await suite.server.db.selectFrom('premium').select(item).where('user_uuid', '=', uuid).executeTakeFirst())?.[
      item
    ] ?? 0) === 1;
  const outcomes = async (txnId: string) =>
    (
      await suite.server.db.selectFrom('payment_notifications').select('outcome').where('txn_id', '=', txnId).execute()
    ).map((row) => row.outcome);

  it(
    'takes the feature back when both payments for it are refunded at once (every trial)',
    { timeout: 60_000 },
    async () => {
      for (let trial = 0; trial < 15; trial++) {
        const player = await loginNewUser(suite.server);
        const [a, b] = [payment(player.uuid, 'glint'), payment(player.uuid, 'glint')];
        expect(await sendIpn(a)).toBe(200);
        expect(await sendIpn(b)).toBe(200);
        expect(await owns(player.uuid, 'glint')).toBe(true);
        expect(await Promise.all([sendIpn(refund(a)), sendIpn(refund(b))])).toEqual([200, 200]);
        const statuses = await suite.server.db
          .selectFrom('premium_payments')
          .select('status')
          .where('user_uuid', '=', player.uuid)
          .execute();
        expect(statuses.map((row) => row.status)).toEqual(['refunded', 'refunded']);
        expect(await owns(player.uuid, 'glint'), `trial ${trial}`).toBe(false);
      }
    },
  );

  it(
    'records 20 identical deliveries of a PayPal refund and acts on it once (every trial)',
    { timeout: 60_000 },
    async () => {
      for (let trial = 0; trial < 6; trial++) {
        const player = await loginNewUser(suite.server);
        const paid = payment(player.uuid, 'dinnerbone');
        expect(await sendIpn(paid)).toBe(200);
        const refunded = refund(paid);
        expect(new Set(await Promise.all(Array.from({ length: 20 }, () => sendIpn(refunded))))).toEqual(new Set([200]));
        const seen = await outcomes(refunded.txn_id);
        expectActedOnce(seen, `trial ${trial}`);
        expect(await owns(player.uuid, 'dinnerbone')).toBe(false);
      }
    },
  );

  it(
    'records 20 identical deliveries of a Stripe refund event and acts on it once (every trial)',
    { timeout: 60_000 },
    async () => {
      for (let trial = 0; trial < 6; trial++) {
        const player = await loginNewUser(suite.server);
        const paymentIntent = `pi_race${txn++}`;
        const checkout = services.stripe.event('checkout.session.completed', {
          id: `cs_race${txn++}`,
          object: 'checkout.session',
          payment_intent: paymentIntent,
          payment_status: 'paid',
          amount_total: 499,
          currency: 'gbp',
          metadata: { uuid: player.uuid, item: 'glint' },
        });
        expect(await services.stripe.send(checkout, services.stripe.sign(checkout))).toBe(200);
        expect(await owns(player.uuid, 'glint')).toBe(true);
        const eventId = `evt_race${txn++}`;
        const refunded = services.stripe.event(
          'charge.refunded',
          { id: `ch_race${txn++}`, object: 'charge', payment_intent: paymentIntent, refunded: true },
          eventId,
        );
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () => services.stripe.send(refunded, services.stripe.sign(refunded))),
        );
        expect(new Set(statuses)).toEqual(new Set([200]));
        const seen = await outcomes(eventId);
        expectActedOnce(seen, `trial ${trial}`);
        expect(await owns(player.uuid, 'glint')).toBe(false);
      }
    },
  );

  it(
    'answers a like racing its item’s deletion with 200 or 404, never 500, and the deletion goes through',
    { timeout: 120_000 },
    async () => {
      const author = await loginNewUser(suite.server);
      const fans: LoggedIn[] = [];
      for (let i = 0; i < 12; i++) fans.push(await loginNewUser(suite.server));
      const seen: number[] = [];
      for (let trial = 0; trial < 12; trial++) {
        const form = new FormData();
        form.append('title', `Race ${trial}`);
        form.append('tags', JSON.stringify(['cute']));
        form.append(
          'file',
          new Blob([new Uint8Array(await solidPng(64, 32, frameColour(150 + trial)))], { type: 'image/png' }),
          'texture.png',
        );
        const created = await author.jar.sendForm('POST', '/api/gallery/new', form);
        expect(created.status).toBe(201);
        const { hash } = (await created.json()) as { hash: string };
        // Half the fans have liked already, so their click takes the like back while the item goes.
        for (const fan of fans.slice(0, 6))
          expect((await fan.jar.post('/api/gallery/like', { hash })).status).toBe(200);
        const likes = fans.map((fan) => fan.jar.post('/api/gallery/like', { hash }));
        const deletion = author.jar.post('/api/gallery/delete', { hash });
        const answers = await Promise.all(likes);
        expect((await deletion).status, `trial ${trial}`).toBe(200);
        for (const answer of answers) {
          seen.push(answer.status);
          if (answer.status === 404) expect(await answer.json()).toEqual({ error: 'That texture does not exist.' });
        }
        expect(
          await suite.server.db.selectFrom('gallery_items').select('hash').where('hash', '=', hash).executeTakeFirst(),
        ).toBeUndefined();
      }
      expect(seen.filter((status) => status !== 200 && status !== 404)).toEqual([]);
    },
  );
});
