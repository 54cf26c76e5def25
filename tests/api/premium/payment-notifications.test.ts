// API tests for the payment notification endpoints under abuse, on both databases, against the PayPal and Stripe
// stand-ins: each address may send only so many notifications a minute (then 429 with a clear message), a refused body
// is kept short, a message lacking the fields a real IPN has is never posted to PayPal for verification, and stored
// notifications are swept once they are older than the retention period.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTextureLibrary } from '../../../server/operations/create-library.ts';
import { sweepLeftovers } from '../../../server/operations/sweep.ts';
import { paymentServicesForSuite, PAYMENT_ACCOUNT } from '../../helpers/payment-services.ts';
import { backends, type Backend } from '../../../support/backends.ts';
import { loginNewUser, serverForSuite, startServer, type TestServer } from '../../helpers/server.ts';

const { merchant: MERCHANT, secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } = PAYMENT_ACCOUNT;
const DAY = 24 * 60 * 60 * 1000;
const IPN_PATH = '/api/premium/payment';
const WEBHOOK_PATH = '/api/premium/stripe/webhook';
let txn = 5000;

/** Random text that no database compresses, `length` characters long. */
function incompressible(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/** A junk Stripe event of about 64 KB (the largest body the endpoint reads), with a signature that does not match. */
function junkEvent(): { body: string; signature: string } {
  return {
    body: JSON.stringify({ id: `evt_${incompressible(12)}`, type: 'charge.refunded', junk: incompressible(65_000) }),
    signature: `t=1,v1=${'0'.repeat(64)}`,
  };
}

/** A junk IPN of about 64 KB: form-encoded, but with none of the fields PayPal sends. */
function junkIpn(): string {
  return `junk=${incompressible(65_000)}`;
}

/** Posts a body to one of the endpoints; resolves with the status. */
async function post(
  server: TestServer,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers, body });
}
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The database's size on disk: the SQLite file after a checkpoint folds its write-ahead log in, or PostgreSQL's own
 * figure.
 */
async function databaseBytes(backend: Backend, server: TestServer): Promise<number> {
  if (backend.name === 'postgres') {
    const { rows } = await sql<{ size: number }>`SELECT pg_database_size(current_database()) AS size`.execute(
      server.db,
    );
    return Number(rows[0]!.size);
  }
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(server.db);
  return fs.statSync(server.config.databaseUrl.replace(/^sqlite:/, '')).size;
}

/** Sends `count` bodies made by `make`, ten at a time; resolves with every status. */
async function sendMany(count: number, send: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, count - sent) }, () => send()));
    statuses.push(...batch.map((response) => response.status));
  }
  return statuses;
}

describe.each(backends)('payment notifications under abuse on $name', (backend) => {
  const env: Record<string, string> = {
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    // High enough that every junk body below reaches the handler: what is stored of it is what these tests measure.
    PAYMENT_NOTIFICATIONS_PER_MINUTE: '100000',
  };
  const services = paymentServicesForSuite(env);
  const suite = serverForSuite(backend, env);
  beforeAll(() => services.stripe.setWebhookUrl(`${suite.server.url}${WEBHOOK_PATH}`));

  const lastNotification = async () =>
    suite.server.db
      .selectFrom('payment_notifications')
      .select(['outcome', 'body'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  /**
   * The junk grew the database by less than 1 MB since `before`, and the last notification was refused and kept short.
   */
  const expectStoredShort = async (before: number, outcome: string) => {
    const grown = (await databaseBytes(backend, suite.server)) - before;
    expect(grown, `grew by ${grown} bytes`).toBeLessThan(1024 * 1024);
    const stored = await lastNotification();
    expect(stored.outcome).toBe(outcome);
    expect(stored.body.length).toBeLessThanOrEqual(2048);
  };

  it('300 junk 64 KB webhooks with bad signatures are refused and grow the database by less than 1 MB', async () => {
    const before = await databaseBytes(backend, suite.server);
    const statuses = await sendMany(300, () => {
      const { body, signature } = junkEvent();
      return post(suite.server, WEBHOOK_PATH, body, { ...JSON_TYPE, 'stripe-signature': signature });
    });
    expect(new Set(statuses)).toEqual(new Set([400]));
    await expectStoredShort(before, 'refused: signature');
  });

  it('300 junk 64 KB IPNs are refused without a verification post and grow the database by less than 1 MB', async () => {
    const before = await databaseBytes(backend, suite.server);
    const posts = services.paypal.verifications();
    const statuses = await sendMany(300, () => post(suite.server, IPN_PATH, junkIpn(), FORM));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(services.paypal.verifications() - posts, 'verification posts to PayPal').toBe(0);
    await expectStoredShort(before, 'refused: fields');
  });

  it('posts no IPN lacking a field a real one has to PayPal, and grants nothing for it', async () => {
    const player = await loginNewUser(suite.server);
    const real = {
      payment_status: 'Completed',
      txn_id: `TXN${txn++}`,
      receiver_email: MERCHANT,
      mc_gross: '4.99',
      mc_currency: 'GBP',
      custom: `${player.uuid}:glint`,
    };
    for (const missing of Object.keys(real)) {
      const fields: Record<string, string> = { ...real, txn_id: `TXN${txn++}` };
      delete fields[missing];
      const posts = services.paypal.verifications();
      expect(
        await services.paypal.notify(`${suite.server.url}${IPN_PATH}`, services.paypal.issue(fields)),
        missing,
      ).toBe(200);
      expect(services.paypal.verifications() - posts, `without ${missing}`).toBe(0);
      expect((await lastNotification()).outcome, missing).toBe('refused: fields');
    }
    // A refund names the payment it refunds.
    const posts = services.paypal.verifications();
    expect(
      await services.paypal.notify(
        `${suite.server.url}${IPN_PATH}`,
        services.paypal.issue({ ...real, txn_id: `TXN${txn++}`, payment_status: 'Refunded' }),
      ),
    ).toBe(200);
    expect(services.paypal.verifications() - posts).toBe(0);
    expect((await lastNotification()).outcome).toBe('refused: fields');
    const owned = await suite.server.db
      .selectFrom('premium')
      .select('glint')
      .where('user_uuid', '=', player.uuid)
      .executeTakeFirst();
    expect(owned?.glint ?? 0).toBe(0);

    // A complete one is still verified and granted, and kept whole.
    const body = services.paypal.issue({ ...real, txn_id: `TXN${txn++}`, memo: incompressible(3000) });
    expect(await services.paypal.notify(`${suite.server.url}${IPN_PATH}`, body)).toBe(200);
    expect(services.paypal.verifications() - posts).toBe(1);
    expect(await lastNotification()).toEqual({ outcome: 'granted', body });
  });

  it('keeps a forged IPN short: PayPal answers INVALID, and only the start of its body is stored', async () => {
    const player = await loginNewUser(suite.server);
    const forged = new URLSearchParams({
      payment_status: 'Completed',
      txn_id: `TXN${txn++}`,
      receiver_email: MERCHANT,
      mc_gross: '4.99',
      mc_currency: 'GBP',
      custom: `${player.uuid}:glint`,
      memo: incompressible(60_000),
    }).toString();
    expect(await services.paypal.notify(`${suite.server.url}${IPN_PATH}`, forged)).toBe(200);
    const stored = await lastNotification();
    expect(stored.outcome).toBe('unverified');
    expect(stored.body).toBe(forged.slice(0, stored.body.length));
    expect(stored.body.length).toBeLessThanOrEqual(2048);
  });

  it('sweeps notifications older than the retention period, and keeps newer ones', async () => {
    const retentionMs = suite.server.config.paymentNotificationRetentionMs;
    expect(retentionMs).toBe(90 * DAY);
    const { body, signature } = junkEvent();
    expect((await post(suite.server, WEBHOOK_PATH, body, { ...JSON_TYPE, 'stripe-signature': signature })).status).toBe(
      400,
    );
    const newest = await suite.server.db
      .selectFrom('payment_notifications')
      .select(['id', 'received_at'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const count = async () =>
      Number(
        (
          await suite.server.db
            .selectFrom('payment_notifications')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const all = await count();
    const library = createTextureLibrary(suite.server.config, suite.server.db);
    const sweep = (now: number) =>
      sweepLeftovers(suite.server.db, library, { graceMs: DAY, now, notificationRetentionMs: retentionMs });

    // Just inside the retention period, nothing goes.
    expect((await sweep(Number(newest.received_at) + retentionMs - 60_000)).notifications).toBeLessThan(all);
    expect(
      await suite.server.db
        .selectFrom('payment_notifications')
        .select('id')
        .where('id', '=', newest.id)
        .executeTakeFirst(),
    ).toBeDefined();
    // Past it, every one goes.
    expect((await sweep(Number(newest.received_at) + retentionMs + 1)).notifications).toBeGreaterThan(0);
    expect(await count()).toBe(0);
  });
});

describe.each(backends)('payment notification rate limits on $name', (backend) => {
  let server: TestServer;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await backend.createDatabase();
    drop = database.drop;
    server = await startServer(database.url, {
      PAYPAL_EMAIL: MERCHANT,
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      // The paypal stand-in is not needed: every IPN below lacks the fields a real one has, so none is verified.
      PAYMENT_NOTIFICATIONS_PER_MINUTE: '5',
      TRUST_PROXY: '1',
    });
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  const stored = async () =>
    Number(
      (
        await server.db
          .selectFrom('payment_notifications')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('answers 429 with a clear message past the limit of each address, on each endpoint, and stores nothing then', async () => {
    for (const [path, body, headers] of [
      [WEBHOOK_PATH, junkEvent().body, { ...JSON_TYPE, 'stripe-signature': 't=1,v1=00' }],
      [IPN_PATH, junkIpn(), FORM],
    ] as const) {
      for (let i = 0; i < 5; i++)
        expect((await post(server, path, body, { ...headers, ...from('203.0.113.7') })).status, path).not.toBe(429);
      const before = await stored();
      const limited = await post(server, path, body, { ...headers, ...from('203.0.113.7') });
      expect(limited.status, path).toBe(429);
      expect(await limited.json()).toEqual({
        error: 'Too many payment notifications from this address. Try again in a minute.',
      });
      expect(await stored()).toBe(before);
      // Another address is not held back.
      expect((await post(server, path, body, { ...headers, ...from('203.0.113.8') })).status, path).not.toBe(429);
    }
  });
});
