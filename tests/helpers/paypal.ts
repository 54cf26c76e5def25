// A local stand-in for PayPal Standard that speaks its protocol: the checkout page our form posts to (`cmd=_xclick`),
// which on "Pay" sends the Instant Payment Notification to the form's notify_url and returns the buyer to its return
// URL; and the IPN verification endpoint (`cmd=_notify-validate`), which answers VERIFIED only for a message it sent
// itself, byte for byte, and INVALID for anything else (a forgery).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileAnswerLog, sendHostileAnswer, type HostileAnswer, type HostileAnswerLog } from './hostile-answers.ts';
import { requestBody } from './request-body.ts';

/** A running stand-in. */
export interface PaypalStandIn {
  /** The checkout and verification URL (PayPal uses one: `/cgi-bin/webscr`). */
  url: string;
  /**
   * Makes an IPN message as PayPal would send it (recorded, so its verification answers VERIFIED); returns its body.
   */
  issue(fields: Record<string, string>): string;
  /** Sends a message to a notify URL as PayPal does; resolves with the status our server answered. */
  notify(notifyUrl: string, body: string): Promise<number>;
  /** While false, the verification endpoint answers 503 (PayPal unreachable for our server). */
  setAvailable(available: boolean): void;
  /**
   * Makes the verification endpoint answer this status and body, or a hostile answer, instead (null: answer normally).
   */
  failVerification(failure: { status: number; body: string } | HostileAnswer | null): void;
  /** What the hostile answers sent so far. */
  hostile: HostileAnswerLog;
  /** How many verification requests it has answered. */
  verifications(): number;
  close(): Promise<void>;
}

/** Escapes text for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Starts a stand-in on 127.0.0.1 (port 0 picks a free one); `receiverEmail` is the merchant account it pays. */
export async function startPaypalStandIn(
  options: { port?: number; receiverEmail?: string } = {},
): Promise<PaypalStandIn> {
  const sent = new Set<string>();
  let available = true;
  let verifyFailure: { status: number; body: string } | HostileAnswer | null = null;
  const hostileLog = hostileAnswerLog();
  let verified = 0;
  let nextTxn = 1;

  const issue = (fields: Record<string, string>) => {
    const body = new URLSearchParams(fields).toString();
    sent.add(body);
    return body;
  };
  const notify = async (notifyUrl: string, body: string) =>
    (await fetch(notifyUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }))
      .status;

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = request.method === 'POST' ? await requestBody(request, 'latin1') : '';
    const form = new URLSearchParams(body || (request.url ?? '').split('?')[1] || '');
    if (form.get('cmd') === '_notify-validate') {
      verified += 1;
      if (!available) return response.writeHead(503).end();
      if (verifyFailure === 'endless' || verifyFailure === 'stall')
        return sendHostileAnswer(response, verifyFailure, 'text/plain', hostileLog);
      if (verifyFailure)
        return response.writeHead(verifyFailure.status, { 'content-type': 'text/html' }).end(verifyFailure.body);
      const message = body.slice('cmd=_notify-validate&'.length);
      return response.writeHead(200, { 'content-type': 'text/plain' }).end(sent.has(message) ? 'VERIFIED' : 'INVALID');
    }
    if (form.get('cmd') === '_xclick') {
      // The checkout page: what is bought, and a Pay button that carries the order on.
      const hidden = [...form]
        .filter(([name]) => name !== 'cmd')
        .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
        .join('');
      return response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>PayPal checkout</title><h1>Pay ${escapeHtml(form.get('business') ?? '')}</h1>` +
            `<p>${escapeHtml(form.get('item_name') ?? '')}: ${escapeHtml(form.get('amount') ?? '')} ${escapeHtml(form.get('currency_code') ?? '')}</p>` +
            `<form method="post" action="/cgi-bin/webscr">${hidden}<input type="hidden" name="cmd" value="_pay"><button>Pay now</button></form>`,
        );
    }
    if (form.get('cmd') === '_pay') {
      // Paid: the notification goes to the merchant's server, then the buyer goes back to the merchant's site.
      const message = issue({
        payment_status: 'Completed',
        txn_id: `STANDIN${String(nextTxn++).padStart(9, '0')}`,
        txn_type: 'web_accept',
        receiver_email: options.receiverEmail ?? form.get('business') ?? '',
        business: form.get('business') ?? '',
        item_name: form.get('item_name') ?? '',
        mc_gross: form.get('amount') ?? '',
        mc_currency: form.get('currency_code') ?? '',
        custom: form.get('custom') ?? '',
        payer_email: 'buyer@example.com',
        charset: 'UTF-8',
      });
      const status = await notify(form.get('notify_url') ?? '', message).catch(() => 0);
      if (status !== 200)
        return response
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(`The merchant answered the notification with ${status}`);
      return response.writeHead(302, { location: form.get('return') ?? '/' }).end();
    }
    if (request.method === 'GET' && request.url === '/')
      return response.writeHead(200, { 'content-type': 'text/plain' }).end('PayPal stand-in');
    response.writeHead(404).end();
  };
  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cgi-bin/webscr`,
    issue,
    notify,
    setAvailable: (value) => void (available = value),
    failVerification: (failure) => void (verifyFailure = failure),
    hostile: hostileLog,
    verifications: () => verified,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
