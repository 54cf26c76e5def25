// The PayPal and Stripe stand-ins of a test suite: started before its server, with the server's settings pointed at
// them.
import { afterAll, beforeAll } from 'vitest';
import { startPaypalStandIn, type PaypalStandIn } from './paypal.ts';
import { startStripeStandIn, type StripeStandIn } from './stripe.ts';

/** The merchant account, Stripe secret key and webhook secret the payment suites use. */
export const PAYMENT_ACCOUNT = {
  merchant: 'payments@cloakroom.example',
  secretKey: 'sk_test_cloakroom',
  webhookSecret: 'whsec_cloakroom',
};

/** A suite's running stand-ins (set once its beforeAll has run). */
export interface PaymentServices {
  paypal: PaypalStandIn;
  stripe: StripeStandIn;
}

/**
 * Starts both stand-ins before the suite's server (call it before serverForSuite) and closes them after; fills `env`
 * with the account's settings and the stand-ins' addresses.
 */
export function paymentServicesForSuite(env: Record<string, string>): PaymentServices {
  const services = {} as PaymentServices;
  Object.assign(env, {
    PAYPAL_EMAIL: PAYMENT_ACCOUNT.merchant,
    STRIPE_SECRET_KEY: PAYMENT_ACCOUNT.secretKey,
    STRIPE_WEBHOOK_SECRET: PAYMENT_ACCOUNT.webhookSecret,
  });
  beforeAll(async () => {
    services.paypal = await startPaypalStandIn();
    services.stripe = await startStripeStandIn({
      secretKey: PAYMENT_ACCOUNT.secretKey,
      webhookSecret: PAYMENT_ACCOUNT.webhookSecret,
    });
    Object.assign(env, {
      PAYPAL_URL: services.paypal.url,
      PAYPAL_IPN_VERIFY_URL: services.paypal.url,
      STRIPE_API_URL: services.stripe.url,
    });
  });
  afterAll(async () => {
    await services.paypal?.close();
    await services.stripe?.close();
  });
  return services;
}
