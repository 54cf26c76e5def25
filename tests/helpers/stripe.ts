// A local stand-in for Stripe Checkout that speaks its protocol: `POST /v1/checkout/sessions` (form-encoded, bearer
// secret key) makes a session with a hosted checkout page; paying there sends the signed `checkout.session.completed`
// event to the webhook URL (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.payload")`) and returns the buyer to
// success_url.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileAnswerLog, sendHostileAnswer, type HostileAnswer, type HostileAnswerLog } from './hostile-answers.ts';
import { requestBody } from './request-body.ts';

/** A checkout session as the stand-in keeps it. */
export interface StandInSession {
  id: string;
  payment_intent: string;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  name: string;
  payment_status: 'unpaid' | 'paid';
}

/** A running stand-in. */
export interface StripeStandIn {
  /** The API base URL (STRIPE_API_URL). */
  url: string;
  sessions: StandInSession[];
  /** Where paid sessions send their events. */
  setWebhookUrl(url: string): void;
  /** A webhook event's JSON for an object. */
  event(type: string, object: Record<string, unknown>, id?: string): string;
  /**
   * The Stripe-Signature header of a payload, signed at `timestamp` (seconds; now by default) with `secret` (the
   * webhook secret by default).
   */
  sign(payload: string, timestamp?: number, secret?: string): string;
  /** Makes checkout sessions answer a hostile answer (null: answer normally). */
  misbehave(kind: HostileAnswer | null): void;
  /** What the hostile answers sent so far. */
  hostile: HostileAnswerLog;
  /** Posts an event to the webhook URL with a signature header; resolves with the status. */
  send(payload: string, signature: string | undefined): Promise<number>;
  close(): Promise<void>;
}

/** Starts a stand-in on 127.0.0.1 that accepts `secretKey` and signs events with `webhookSecret`. */
export async function startStripeStandIn(options: {
  secretKey: string;
  webhookSecret: string;
  port?: number;
  webhookUrl?: string;
}): Promise<StripeStandIn> {
  const sessions: StandInSession[] = [];
  let webhookUrl = options.webhookUrl ?? '';
  let hostile: HostileAnswer | null = null;
  const hostileLog = hostileAnswerLog();
  let base = '';
  const event = (type: string, object: Record<string, unknown>, id = `evt_${randomBytes(8).toString('hex')}`) =>
    JSON.stringify({ id, object: 'event', type, data: { object } });
  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000), secret = options.webhookSecret) =>
    `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
  const send = async (payload: string, signature: string | undefined) =>
    (
      await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
        body: payload,
      })
    ).status;

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? '/', base);
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (hostile) return sendHostileAnswer(response, hostile, 'application/json', hostileLog);
      if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
        return response
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'Invalid API Key provided' } }));
      }
      const form = new URLSearchParams(await requestBody(request));
      const metadata: Record<string, string> = {};
      for (const [key, value] of form) if (key.startsWith('metadata[')) metadata[key.slice(9, -1)] = value;
      const session: StandInSession = {
        id: `cs_test_${randomBytes(6).toString('hex')}`,
        payment_intent: `pi_${randomBytes(6).toString('hex')}`,
        amount_total:
          Number(form.get('line_items[0][price_data][unit_amount]')) * Number(form.get('line_items[0][quantity]') ?? 1),
        currency: form.get('line_items[0][price_data][currency]') ?? '',
        metadata,
        success_url: form.get('success_url') ?? '',
        cancel_url: form.get('cancel_url') ?? '',
        name: form.get('line_items[0][price_data][product_data][name]') ?? '',
        payment_status: 'unpaid',
      };
      if (form.get('mode') !== 'payment' || !session.success_url || !Number.isInteger(session.amount_total)) {
        return response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'Missing required param' } }));
      }
      sessions.push(session);
      return response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: session.id,
          object: 'checkout.session',
          url: `${base}/c/pay/${session.id}`,
          payment_status: 'unpaid',
        }),
      );
    }
    const session = sessions.find((candidate) => url.pathname === `/c/pay/${candidate.id}`);
    if (session && request.method === 'GET') {
      return response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>Stripe checkout</title><h1>Pay by card</h1><p>${session.name}: ${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}</p>` +
            `<form method="post"><button>Pay</button></form>`,
        );
    }
    if (session && request.method === 'POST') {
      session.payment_status = 'paid';
      const payload = event('checkout.session.completed', { ...session, object: 'checkout.session' });
      const status = await send(payload, sign(payload)).catch(() => 0);
      if (status !== 200)
        return response
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(`The merchant answered the event with ${status}`);
      return response.writeHead(303, { location: session.success_url }).end();
    }
    if (request.method === 'GET' && url.pathname === '/')
      return response.writeHead(200, { 'content-type': 'text/plain' }).end('Stripe stand-in');
    response.writeHead(404).end();
  };
  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    sessions,
    setWebhookUrl: (value) => void (webhookUrl = value),
    misbehave: (kind) => void (hostile = kind),
    hostile: hostileLog,
    event,
    sign,
    send,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
