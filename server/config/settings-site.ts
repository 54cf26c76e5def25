// The settings of premium and payments, and those built into the site's pages: each one's parser, default and
// description.
import { z } from 'zod';
import { PURCHASES_UNAVAILABLE } from '../../src/lib/premium.ts';
import { list, price } from './parsers.ts';
import { settingsOf } from './setting.ts';

/** The settings of premium and payments, and those built into the site's pages. */
export const SITE_SETTINGS = {
  ...settingsOf('Premium and payments', {
    PREMIUM_ANIMATED_PRICE: {
      schema: price.default('4.99'),
      description: "the animated cape's one-time price (two decimals)",
    },
    PREMIUM_GLINT_PRICE: {
      schema: price.default('4.99'),
      description: "the cape glint's one-time price (two decimals)",
    },
    PREMIUM_DINNERBONE_PRICE: {
      schema: price.default('4.99'),
      description: 'the Dinnerbone (upside down) one-time price (two decimals)',
    },
    PREMIUM_CURRENCY: {
      schema: z
        .string()
        .regex(/^[A-Z]{3}$/, { message: 'a three-letter currency code such as GBP' })
        .default('GBP'),
      description: "the prices' currency (ISO code)",
    },
    PAYPAL_URL: {
      schema: z.string().url().default('https://www.paypal.com/cgi-bin/webscr'),
      description:
        "PayPal Standard checkout (`https://www.sandbox.paypal.com/cgi-bin/webscr` to test); the pages' Content-Security-Policy lets the Buy form post there",
    },
    PAYPAL_EMAIL: {
      schema: z.string().optional(),
      description: `the PayPal account payments go to; until set, the premium page offers no PayPal, and with no card payments either it says "${PURCHASES_UNAVAILABLE}" and shows no Buy button (\`/api/premium/init\` answers 501)`,
    },
    PAYPAL_IPN_VERIFY_URL: {
      schema: z.string().url().default('https://ipnpb.paypal.com/cgi-bin/webscr'),
      description:
        'where payment notifications are posted back for verification (`https://ipnpb.sandbox.paypal.com/cgi-bin/webscr` for the sandbox)',
    },
    PUBLIC_SITE_URL: {
      schema: z.string().url().optional(),
      default: 'the first `PUBLIC_SITE_ORIGINS`, else `PUBLIC_BASE_URL`, else `http://localhost:$PORT`',
      description:
        "the site's address, where PayPal and Stripe send the buyer back (`/premium/success`), Microsoft sends the player after a login, and apps send the player to enter their sign-in code (`/device`)",
    },
    STRIPE_API_URL: {
      schema: z.string().url().default('https://api.stripe.com'),
      description: "Stripe's API base URL",
    },
    STRIPE_SECRET_KEY: {
      schema: z.string().optional(),
      description:
        'card payments via Stripe Checkout; until it and `STRIPE_WEBHOOK_SECRET` are set, the page offers PayPal only (`/api/premium/payment/intent` answers 501)',
    },
    STRIPE_WEBHOOK_SECRET: {
      schema: z.string().optional(),
      description:
        'the signing secret of the webhook registered at Stripe as `$PUBLIC_BASE_URL/api/premium/stripe/webhook`, for events ' +
        '`checkout.session.completed`, `checkout.session.async_payment_succeeded`, `charge.refunded`, `charge.dispute.created` and `charge.dispute.closed`',
    },
    PAYMENT_NOTIFICATIONS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(60),
      description:
        'payment notifications (PayPal IPN, Stripe webhook) each client address may send to each endpoint per minute (then 429; PayPal and Stripe send a refused one again later)',
    },
    PAYMENT_NOTIFICATION_RETENTION_DAYS: {
      schema: z.coerce.number().positive().default(90),
      description:
        'days stored payment notifications are kept before the leftover sweep removes them (the payments they granted stay)',
    },
  }),
  ...settingsOf('Site (built into the pages)', {
    PUBLIC_SITE_NAME: { schema: z.string().default('Cloakroom'), description: 'site name in titles and texts' },
    PUBLIC_SITE_ORIGINS: {
      schema: list,
      description: 'comma-separated site origins allowed to call the API with credentials (CORS)',
    },
    PUBLIC_DOWNLOAD_URL: {
      schema: z.string().url().default('https://modrinth.com/mod/cloakroom'),
      description: 'external mod download page (`/download/:platform?/:version?` redirects there)',
    },
    PUBLIC_API_URL: {
      schema: z.union([z.literal(''), z.string().url()]).optional(),
      default: 'empty (same origin)',
      description:
        "API host, when the static site is served from elsewhere (the pages' Content-Security-Policy allows it); also the address apps sign in at (the device flow's issuer and endpoints), else `PUBLIC_BASE_URL`",
    },
    PUBLIC_AD_CLIENT: {
      schema: z.string().optional(),
      default: 'empty',
      description:
        'ad network client id; empty shows no ad slots (when set, the pages show the slots and their Content-Security-Policy allows the ad hosts)',
    },
    PUBLIC_AD_SCRIPT_URL: {
      schema: z.url().optional(),
      default: '`https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js`',
      description: "the ad network's script the slots load (its origin joins the policy's script sources)",
    },
  }),
};
