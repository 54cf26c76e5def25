// Runs the payment stand-ins for the e2e suite until stopped: PayPal (tests/helpers/paypal.ts) on PAYPAL_STANDIN_PORT and
// Stripe Checkout (tests/helpers/stripe.ts) on STRIPE_STANDIN_PORT, whose events go to STRIPE_WEBHOOK_URL.
import { startPaypalStandIn } from '../helpers/paypal.ts';
import { startStripeStandIn } from '../helpers/stripe.ts';

const env = process.env;
const paypal = await startPaypalStandIn({ port: Number(env.PAYPAL_STANDIN_PORT) });
const stripe = await startStripeStandIn({
  port: Number(env.STRIPE_STANDIN_PORT),
  secretKey: env.STRIPE_SECRET_KEY!,
  webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
  webhookUrl: env.STRIPE_WEBHOOK_URL!,
});
console.log(`PayPal stand-in at ${paypal.url}, Stripe stand-in at ${stripe.url}`);
