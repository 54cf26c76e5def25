// API tests for the payment providers' outside calls, on both databases, against local stand-ins for PayPal and Stripe:
// when PayPal's verification or Stripe's checkout fails (an error body, an endless answer), the caller gets a 502 with
// a fixed message and never the provider's text, and an endless answer is not read past its cap.
import { describe, expect, it, vi } from 'vitest';
import {
  CHECKOUT_UNAVAILABLE_MESSAGE,
  IPN_UNVERIFIED_MESSAGE,
  PAYPAL_IPN_PATH,
} from '../../../server/routes/premium.ts';
import { paymentServicesForSuite, PAYMENT_ACCOUNT } from '../../helpers/payment-services.ts';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, randomUuid, serverForSuite } from '../../helpers/server.ts';

const { merchant: MERCHANT } = PAYMENT_ACCOUNT;
/** More than a reader that stops at its cap lets an endless answer write (the cap plus socket buffers). */
const ENDLESS_READ_BOUND = 32 * 1024 * 1024;
/** Text in PayPal's error page that must stay in our log. */
const PAYPAL_ERROR_PAGE =
  '<html><body>Internal Server Error: ipnpb-7f3a node trace id 5c1e, upstream db timeout</body></html>';
let txn = 5000;

/** A completed payment notification with every field a real one carries. */
function completedPayment(): Record<string, string> {
  return {
    payment_status: 'Completed',
    txn_id: `SERVICES${txn++}`,
    txn_type: 'web_accept',
    receiver_email: MERCHANT,
    business: MERCHANT,
    item_name: 'Cloakroom Cape glint',
    mc_gross: '4.99',
    mc_currency: 'GBP',
    custom: `${randomUuid()}:glint`,
    payer_email: 'buyer@example.com',
    payer_id: 'BUYER7Q2K4N8L',
    payer_status: 'verified',
    receiver_id: 'MERCHANT3X9Z',
    payment_date: '10:15:03 Nov 25, 2026 PST',
    payment_type: 'instant',
    quantity: '1',
    charset: 'UTF-8',
    notify_version: '3.9',
    ipn_track_id: `a1b2c3${txn}`,
    verify_sign: 'AFcWxV21C7fd0v3bYYYRCpSSRl31A5GnVqI5TQDiXrO6T5sSr0N0wz1p',
  };
}

describe.each(backends)('payment services failing on $name', (backend) => {
  const env: Record<string, string> = {
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    PUBLIC_SITE_URL: 'http://site.example',
  };
  const services = paymentServicesForSuite(env);
  const suite = serverForSuite(backend, env);

  /** Posts a notification as anyone can; resolves with the status and the body we answered. */
  async function notify(body: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${suite.server.url}${PAYPAL_IPN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return { status: response.status, text: await response.text() };
  }

  it("answers a fixed message, not PayPal's error page, when the verification fails, and keeps the notification", async () => {
    services.paypal.failVerification({ status: 500, body: PAYPAL_ERROR_PAGE });
    try {
      const fields = completedPayment();
      const answer = await notify(new URLSearchParams(fields).toString());
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.text)).toEqual({ error: IPN_UNVERIFIED_MESSAGE });
      expect(answer.text).not.toContain('ipnpb');
      const stored = await suite.server.db
        .selectFrom('payment_notifications')
        .select('outcome')
        .where('txn_id', '=', fields.txn_id!)
        .execute();
      expect(stored).toEqual([{ outcome: 'verification unavailable' }]);
    } finally {
      services.paypal.failVerification(null);
    }
  });

  it('stops reading an endless verification answer at its cap and answers 502', async () => {
    const { bytesSent, cutShort } = services.paypal.hostile;
    services.paypal.failVerification('endless');
    try {
      const answer = await notify(new URLSearchParams(completedPayment()).toString());
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.text)).toEqual({ error: IPN_UNVERIFIED_MESSAGE });
    } finally {
      services.paypal.failVerification(null);
    }
    await vi.waitFor(() => expect(services.paypal.hostile.cutShort - cutShort).toBe(1));
    expect(services.paypal.hostile.bytesSent - bytesSent).toBeLessThan(ENDLESS_READ_BOUND);
  });

  it("stops reading an endless checkout answer from Stripe at its cap and answers 502 with the card payment's message", async () => {
    const player = await loginNewUser(suite.server);
    const { bytesSent, cutShort } = services.stripe.hostile;
    services.stripe.misbehave('endless');
    try {
      const intent = await player.jar.post('/api/premium/payment/intent', { uuid: player.uuid, item: 'glint' });
      expect(intent.status).toBe(502);
      expect(await intent.json()).toEqual({ error: CHECKOUT_UNAVAILABLE_MESSAGE });
    } finally {
      services.stripe.misbehave(null);
    }
    await vi.waitFor(() => expect(services.stripe.hostile.cutShort - cutShort).toBe(1));
    expect(services.stripe.hostile.bytesSent - bytesSent).toBeLessThan(ENDLESS_READ_BOUND);
  });
});
