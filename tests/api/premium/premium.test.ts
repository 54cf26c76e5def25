// API tests for premium, on both databases, against a local stand-in that speaks PayPal's IPN protocol:
// the state and checkout settings, the switches, and payment notifications: only a verified, completed payment of the
// right amount and currency to our account grants, once; forged, replayed, underpaid, wrong-currency and other refusals
// grant nothing; refunds and reversals take the feature back; every notification is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { startPaypalStandIn, type PaypalStandIn } from '../../helpers/paypal.ts';
import { loginNewUser, newBrowser, serverForSuite, type LoggedIn } from '../../helpers/server.ts';
import { animatedGif, frameColour, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

const MERCHANT = 'payments@cloakroom.example';
let txn = 1000;

describe.each(backends)('premium on $name', (backend) => {
  const env: Record<string, string> = {
    PAYPAL_EMAIL: MERCHANT,
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    PUBLIC_SITE_ORIGINS: 'http://site.example',
  };
  let paypal: PaypalStandIn;
  beforeAll(async () => {
    paypal = await startPaypalStandIn();
    env.PAYPAL_URL = paypal.url;
    env.PAYPAL_IPN_VERIFY_URL = paypal.url;
  });
  afterAll(() => paypal.close());
  const suite = serverForSuite(backend, env);

  const notifyUrl = () => `${suite.server.url}/api/premium/payment`;
  /** A completed payment notification as PayPal sends it for a player and feature, with fields changed as given. */
  const payment = (uuid: string, item: string, changes: Record<string, string> = {}) => ({
    payment_status: 'Completed',
    txn_id: `TXN${txn++}`,
    receiver_email: MERCHANT,
    mc_gross: '4.99',
    mc_currency: 'GBP',
    custom: `${uuid}:${item}`,
    ...changes,
  });
  /** Sends a message PayPal issued (verifies as VERIFIED) to our server; resolves with the status. */
  const sendIssued = (fields: Record<string, string>) => paypal.notify(notifyUrl(), paypal.issue(fields));
  const state = async (player: LoggedIn) =>
    (await (await player.jar.get('/api/premium')).json()) as {
      items: Array<{ key: string; owned: boolean; enabled: boolean }>;
    };
  const owns = async (player: LoggedIn, item: string) =>
    (await state(player)).items.find((entry) => entry.key === item)!.owned;
  const profile = (uuid: string) => modProfile(suite.server.url, uuid);
  const notifications = async () =>
    suite.server.db
      .selectFrom('payment_notifications')
      .select(['txn_id', 'outcome'])
      .orderBy('id')
      .execute() as Promise<Array<{ txn_id: string | null; outcome: string }>>;

  it('tells visitors the prices and players what they own; the checkout settings are for players', async () => {
    const visitor = await newBrowser(suite.server);
    const prices = await (await visitor.get('/api/premium')).json();
    expect(prices).toEqual({
      currency: 'GBP',
      items: ['animated', 'glint', 'dinnerbone'].map((key) => ({ key, price: '4.99', owned: false, enabled: false })),
      providers: { paypal: true, card: false },
    });
    expect((await visitor.get('/api/premium/init')).status).toBe(401);
    const player = await loginNewUser(suite.server);
    const init = await player.jar.get('/api/premium/init');
    expect(init.status).toBe(200);
    expect(await init.json()).toEqual({
      paypalUrl: paypal.url,
      paypalEmail: MERCHANT,
      currency: 'GBP',
      prices: { animated: '4.99', glint: '4.99', dinnerbone: '4.99' },
      returnUrl: 'http://site.example/premium/success',
      notifyUrl: `${suite.server.config.publicBaseUrl}/api/premium/payment`,
    });
  });

  it('grants a verified payment once: the feature is on and the mod API shows it; a replay grants nothing more', async () => {
    const player = await loginNewUser(suite.server);
    expect((await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(70)))).status).toBe(200);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: false });

    const body = paypal.issue(payment(player.uuid, 'glint'));
    expect(await paypal.notify(notifyUrl(), body)).toBe(200);
    expect(await owns(player, 'glint')).toBe(true);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });
    const user = await (await player.jar.get('/api/user')).json();
    expect(user.premium).toMatchObject({ glint: true, animated: false });

    expect(await paypal.notify(notifyUrl(), body)).toBe(200);
    const rows = await suite.server.db
      .selectFrom('premium_payments')
      .selectAll()
      .where('user_uuid', '=', player.uuid)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ item: 'glint', amount: '4.99', currency: 'GBP', status: 'completed' });
    expect((await notifications()).slice(-2).map((row) => row.outcome)).toEqual(['granted', 'duplicate']);
  });

  it('turns an animated cape on in the mod API once the animation is bought: cape_url becomes the strip', async () => {
    const player = await loginNewUser(suite.server);
    expect(
      (
        await player.jar.upload('/api/upload-cape', await animatedGif(64, 32, 4), {
          filename: 'cape.gif',
          type: 'image/gif',
        })
      ).status,
    ).toBe(200);
    const before = (await profile(player.uuid)) as {
      animatedCape: boolean;
      cape_url: string;
      animated_cape_url: string;
    };
    expect(before.animatedCape).toBe(false);
    expect(before.cape_url).not.toBe(before.animated_cape_url);
    expect(await sendIssued(payment(player.uuid, 'animated'))).toBe(200);
    const after = (await profile(player.uuid)) as {
      animatedCape: boolean;
      cape_url: string;
      animated_cape_url: string;
    };
    expect(after.animatedCape).toBe(true);
    expect(after.cape_url).toBe(after.animated_cape_url);
  });

  it('grants nothing for a forged, underpaid, wrong-currency, wrong-receiver, pending, unknown-player or malformed notification', async () => {
    const player = await loginNewUser(suite.server);
    const cases: Array<[string, number, string]> = [
      // A forgery: never issued by PayPal, so its verification answers INVALID.
      [new URLSearchParams(payment(player.uuid, 'animated')).toString(), 200, 'unverified'],
      [paypal.issue(payment(player.uuid, 'animated', { mc_gross: '0.01' })), 200, 'refused: amount'],
      [paypal.issue(payment(player.uuid, 'animated', { mc_gross: '4.98' })), 200, 'refused: amount'],
      [paypal.issue(payment(player.uuid, 'animated', { mc_currency: 'USD' })), 200, 'refused: currency'],
      [
        paypal.issue(payment(player.uuid, 'animated', { receiver_email: 'someone.else@example.com' })),
        200,
        'refused: receiver',
      ],
      [paypal.issue(payment(player.uuid, 'animated', { payment_status: 'Pending' })), 200, 'ignored'],
      [paypal.issue(payment(player.uuid, 'animated', { payment_status: 'Failed' })), 200, 'refused: status'],
      [paypal.issue(payment('0'.repeat(32), 'animated')), 200, 'refused: player'],
      [paypal.issue(payment(player.uuid, 'wings')), 200, 'refused: custom'],
      [paypal.issue(payment(player.uuid, 'animated', { custom: 'nonsense' })), 200, 'refused: custom'],
    ];
    for (const [body, status, outcome] of cases) {
      expect(await paypal.notify(notifyUrl(), body), body).toBe(status);
      expect((await notifications()).at(-1)!.outcome, body).toBe(outcome);
    }
    expect(await owns(player, 'animated')).toBe(false);
    expect(
      await suite.server.db.selectFrom('premium_payments').selectAll().where('user_uuid', '=', player.uuid).execute(),
    ).toEqual([]);
  });

  it('answers 502 while PayPal cannot verify (PayPal sends it again), and grants on the retry', async () => {
    const player = await loginNewUser(suite.server);
    const body = paypal.issue(payment(player.uuid, 'dinnerbone'));
    paypal.setAvailable(false);
    try {
      expect(await paypal.notify(notifyUrl(), body)).toBe(502);
    } finally {
      paypal.setAvailable(true);
    }
    expect(await owns(player, 'dinnerbone')).toBe(false);
    expect(await paypal.notify(notifyUrl(), body)).toBe(200);
    expect(await owns(player, 'dinnerbone')).toBe(true);
    expect((await notifications()).slice(-2).map((row) => row.outcome)).toEqual([
      'verification unavailable',
      'granted',
    ]);
  });

  it('takes the feature back on a refund or reversal, and gives it again when a reversal is cancelled', async () => {
    const player = await loginNewUser(suite.server);
    expect((await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(71)))).status).toBe(200);
    const paid = payment(player.uuid, 'glint');
    expect(await sendIssued(paid)).toBe(200);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });

    expect(
      await sendIssued({
        ...paid,
        txn_id: `TXN${txn++}`,
        parent_txn_id: paid.txn_id,
        payment_status: 'Reversed',
        mc_gross: '-4.99',
      }),
    ).toBe(200);
    expect(await owns(player, 'glint')).toBe(false);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: false });
    expect(
      await sendIssued({
        ...paid,
        txn_id: `TXN${txn++}`,
        parent_txn_id: paid.txn_id,
        payment_status: 'Canceled_Reversal',
      }),
    ).toBe(200);
    expect(await owns(player, 'glint')).toBe(true);
    expect(
      await sendIssued({
        ...paid,
        txn_id: `TXN${txn++}`,
        parent_txn_id: paid.txn_id,
        payment_status: 'Refunded',
        mc_gross: '-4.99',
      }),
    ).toBe(200);
    expect(await owns(player, 'glint')).toBe(false);
    expect((await notifications()).slice(-3).map((row) => row.outcome)).toEqual(['revoked', 'restored', 'revoked']);
    // A refund of a payment we never saw changes nothing.
    expect(
      await sendIssued({ ...paid, txn_id: `TXN${txn++}`, parent_txn_id: 'NEVERSEEN', payment_status: 'Refunded' }),
    ).toBe(200);
    expect((await notifications()).at(-1)!.outcome).toBe('refused: unknown payment');
  });

  it('follows the real order of payment states: a cancelled reversal gives the feature back only after a reversal', async () => {
    const player = await loginNewUser(suite.server);
    const paid = payment(player.uuid, 'animated');
    expect(await sendIssued(paid)).toBe(200);
    const after = (parent: Record<string, string>, changes: Record<string, string>) =>
      sendIssued({ ...parent, txn_id: `TXN${txn++}`, parent_txn_id: parent.txn_id!, ...changes });
    // Refunded: a refund is final, so neither a cancelled reversal nor a reversal changes it.
    expect(await after(paid, { payment_status: 'Refunded', mc_gross: '-4.99' })).toBe(200);
    expect(await owns(player, 'animated')).toBe(false);
    expect(await after(paid, { payment_status: 'Canceled_Reversal' })).toBe(200);
    expect(await owns(player, 'animated')).toBe(false);
    expect((await notifications()).at(-1)!.outcome).toBe('out of order');
    expect(await after(paid, { payment_status: 'Reversed', mc_gross: '-4.99' })).toBe(200);
    expect((await notifications()).at(-1)!.outcome).toBe('out of order');
    expect(await owns(player, 'animated')).toBe(false);
    const row = await suite.server.db
      .selectFrom('premium_payments')
      .select('status')
      .where('txn_id', '=', paid.txn_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('refunded');

    // No reversal yet: a cancelled reversal finds the payment completed already, and changes nothing.
    const second = payment(player.uuid, 'animated');
    expect(await sendIssued(second)).toBe(200);
    expect(await after(second, { payment_status: 'Canceled_Reversal' })).toBe(200);
    expect((await notifications()).at(-1)!.outcome).toBe('duplicate');
    expect(await owns(player, 'animated')).toBe(true);
  });

  it("keeps a moderator's grant through a refund of the same feature", async () => {
    const admin = await loginNewUser(suite.server, undefined, { admin: true });
    const player = await loginNewUser(suite.server);
    expect((await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(73)))).status).toBe(200);
    const paid = payment(player.uuid, 'glint');
    expect(await sendIssued(paid)).toBe(200);
    expect((await admin.jar.post('/api/admin/user/profile', { uuid: player.uuid, capeGlint: true })).status).toBe(200);
    const grant = await suite.server.db
      .selectFrom('premium_grants')
      .selectAll()
      .where('user_uuid', '=', player.uuid)
      .execute();
    expect(grant).toEqual([
      { user_uuid: player.uuid, item: 'glint', granted_by: admin.uuid, granted_at: expect.any(Number) },
    ]);

    expect(
      await sendIssued({
        ...paid,
        txn_id: `TXN${txn++}`,
        parent_txn_id: paid.txn_id,
        payment_status: 'Refunded',
        mc_gross: '-4.99',
      }),
    ).toBe(200);
    expect((await notifications()).at(-1)!.outcome).toBe('revoked');
    expect(await owns(player, 'glint')).toBe(true);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });

    // Without a grant, the same refund takes the feature back.
    const other = await loginNewUser(suite.server);
    const otherPaid = payment(other.uuid, 'glint');
    expect(await sendIssued(otherPaid)).toBe(200);
    expect(
      await sendIssued({
        ...otherPaid,
        txn_id: `TXN${txn++}`,
        parent_txn_id: otherPaid.txn_id,
        payment_status: 'Refunded',
        mc_gross: '-4.99',
      }),
    ).toBe(200);
    expect(await owns(other, 'glint')).toBe(false);
  });

  it('switches glint and upside down for owners only; the mod API follows at once', async () => {
    const visitor = await newBrowser(suite.server);
    expect((await visitor.post('/api/premium/glint')).status).toBe(401);
    const player = await loginNewUser(suite.server);
    expect((await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(72)))).status).toBe(200);
    const refused = await player.jar.post('/api/premium/dinnerbone');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe("You don't own upside down. Buy it on the premium page first.");

    expect(await sendIssued(payment(player.uuid, 'dinnerbone'))).toBe(200);
    expect(await profile(player.uuid)).toMatchObject({ upsideDown: true });
    const off = await player.jar.post('/api/premium/dinnerbone');
    expect(await off.json()).toEqual({ success: true, enabled: false });
    expect(await profile(player.uuid)).toMatchObject({ upsideDown: false });
    expect((await state(player)).items.find((entry) => entry.key === 'dinnerbone')).toMatchObject({
      owned: true,
      enabled: false,
    });
    expect(await (await player.jar.post('/api/premium/dinnerbone', { enabled: true })).json()).toEqual({
      success: true,
      enabled: true,
    });
    expect(await profile(player.uuid)).toMatchObject({ upsideDown: true });
    expect((await player.jar.post('/api/premium/dinnerbone', { enabled: 'yes' })).status).toBe(422);
  });

  it('refuses a notification that is not form-encoded, empty or oversized, and stores none of them', async () => {
    const before = (await notifications()).length;
    const raw = await fetch(notifyUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(400);
    expect((await raw.json()).error).toBe('A payment notification is form-encoded.');
    const empty = await fetch(notifyUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(empty.status).toBe(400);
    const huge = await fetch(notifyUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a='.padEnd(70_000, 'x'),
    });
    expect(huge.status).toBe(413);
    expect(await notifications()).toHaveLength(before);
  });
});
