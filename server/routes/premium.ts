// The premium calls: the features' prices and the player's state of each, the PayPal checkout form's
// settings, the card checkout (Stripe), the glint and upside down switches, and the providers' payment notifications
// (PayPal IPN, Stripe webhook).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  paymentIntentBodySchema,
  paymentIntentSchema,
  premiumInitSchema,
  premiumStateSchema,
  premiumToggleSchema,
} from '../../src/lib/schemas/premium.ts';
import { PREMIUM_ITEMS, PURCHASES_UNAVAILABLE } from '../../src/lib/premium.ts';
import { requireUser } from '../auth/plugin.ts';
import { HttpError, whenServiceFails } from '../http/errors.ts';
import { emptyResponse, errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { perAddressRateLimit } from '../http/user-rate-limit.ts';
import { featureStates, setFeatureEnabled, type ToggledItem } from '../premium/features.ts';
import { handleIpn } from '../premium/paypal-ipn.ts';
import { createCheckoutSession, handleStripeWebhook } from '../premium/stripe.ts';
import type { AppContext } from '../operations/app-context.ts';

/** The path PayPal posts its notifications to (exempt from the XSRF check: PayPal's message is checked with PayPal). */
export const PAYPAL_IPN_PATH = '/api/premium/payment';
/** The answer to a payment notification PayPal could not verify (PayPal sends it again later). */
export const IPN_UNVERIFIED_MESSAGE = 'The notification could not be verified with PayPal. Send it again later.';
/** What a buyer is told when Stripe does not make the checkout session. */
export const CHECKOUT_UNAVAILABLE_MESSAGE = 'The card payment could not be started. Try again in a minute.';
/** The path Stripe posts its events to (exempt from the XSRF check: each event is signed). */
export const STRIPE_WEBHOOK_PATH = '/api/premium/stripe/webhook';
/** The calls payment providers make, which carry no session and no XSRF token. */
export const PAYMENT_NOTIFICATION_PATHS = [PAYPAL_IPN_PATH, STRIPE_WEBHOOK_PATH];
/** What a client past its notification limit is told (PayPal and Stripe send a refused notification again later). */
const TOO_MANY_NOTIFICATIONS_MESSAGE = 'Too many payment notifications from this address. Try again in a minute.';
/** The largest notification read: PayPal's messages and Stripe's events are a few kilobytes. */
const IPN_BODY_LIMIT = 64 * 1024;
const TOGGLES: Array<{ item: ToggledItem; name: string }> = [
  { item: 'glint', name: 'cape glint' },
  { item: 'dinnerbone', name: 'upside down' },
];

/**
 * Registers routes in a scope where bodies of `contentType` arrive as their bytes (providers sign or verify the exact
 * bytes).
 */
async function withRawBodies(
  app: FastifyInstance,
  contentType: string,
  routes: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(contentType, { parseAs: 'buffer', bodyLimit: IPN_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    routes(scope);
  });
}

/** A notification's bytes; 400 with `message` when the body is empty or came in another format. */
function rawBody(body: unknown, message: string): Buffer {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(400, message);
  return body;
}

/** Registers the premium calls. */
export async function premiumRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus, config } = options;
  const { premium } = config;
  const cardPayments = Boolean(premium.stripe.secretKey && premium.stripe.webhookSecret);
  /** Each endpoint's limit per client address, counted before the body is read. */
  const notificationLimit = (name: string) => ({
    rateLimit: perAddressRateLimit(name, config.paymentNotificationsPerMinute, 60_000, TOO_MANY_NOTIFICATIONS_MESSAGE),
  });

  app.get(
    '/api/premium',
    {
      schema: {
        summary: "The premium features' prices and, for a logged-in player, which they own and have on",
        response: { 200: premiumStateSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await request.currentUser();
      const states = await featureStates(db, user?.uuid ?? null);
      return {
        currency: premium.currency,
        items: PREMIUM_ITEMS.map((key) => ({ key, price: premium.prices[key], ...states[key] })),
        providers: { paypal: Boolean(premium.paypal.email), card: cardPayments },
      };
    },
  );

  app.get(
    '/api/premium/init',
    {
      config: { auth: 'session' },
      schema: {
        summary: 'Where the PayPal checkout form goes, and the fields it carries',
        response: { 200: premiumInitSchema, ...errorResponses },
      },
    },
    async () => {
      if (!premium.paypal.email) throw new HttpError(501, PURCHASES_UNAVAILABLE);
      return {
        paypalUrl: premium.paypal.url,
        paypalEmail: premium.paypal.email,
        currency: premium.currency,
        prices: premium.prices,
        returnUrl: `${config.siteUrl}/premium/success`,
        notifyUrl: `${config.publicBaseUrl}${PAYPAL_IPN_PATH}`,
      };
    },
  );

  app.post(
    '/api/premium/payment/intent',
    {
      config: { auth: 'session' },
      schema: {
        summary: 'A hosted card checkout (Stripe Checkout) for one feature; the browser goes to its url',
        body: paymentIntentBodySchema,
        response: { 200: paymentIntentSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { uuid, item } = request.body;
      if (uuid !== user.uuid) throw new HttpError(403, 'You can only buy features for your own account.');
      if (!cardPayments) throw new HttpError(501, 'Card payments are not set up on this site yet.');
      if ((await featureStates(db, uuid))[item].owned) throw new HttpError(422, 'You already own this feature.');
      const url = await createCheckoutSession(premium, {
        uuid,
        item,
        siteName: config.siteName,
        successUrl: `${config.siteUrl}/premium/success`,
        cancelUrl: `${config.siteUrl}/premium`,
      }).catch(whenServiceFails(CHECKOUT_UNAVAILABLE_MESSAGE));
      return { url };
    },
  );

  for (const { item, name } of TOGGLES) {
    app.post(
      `/api/premium/${item}`,
      {
        config: { auth: 'session' },
        schema: {
          summary: `Switch ${name} on or off (owners only); the mod API shows the change at once`,
          body: z.object({ enabled: z.boolean().optional() }),
          response: { 200: premiumToggleSchema, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const current = (await featureStates(db, user.uuid))[item];
        if (!current.owned) throw new HttpError(403, `You don't own ${name}. Buy it on the premium page first.`);
        const enabled = request.body.enabled ?? !current.enabled;
        await setFeatureEnabled(db, user.uuid, item, enabled);
        await bus.publish(user.uuid);
        return { success: true as const, enabled };
      },
    );
  }

  // PayPal posts form-encoded messages; they are kept as bytes, since the verification posts them back unchanged.
  await withRawBodies(app, 'application/x-www-form-urlencoded', (ipn) =>
    ipn.withTypeProvider<ZodTypeProvider>().post(
      PAYPAL_IPN_PATH,
      {
        config: notificationLimit('paypal-ipn'),
        schema: {
          summary: "PayPal's payment notifications (IPN): verified with PayPal before anything is granted",
          response: { 200: emptyResponse('Received (an empty answer, as PayPal expects)'), ...errorResponses },
        },
      },
      async (request, reply) => {
        const body = rawBody(request.body, 'A payment notification is form-encoded.');
        const outcome = await handleIpn({ db, bus, premium }, body).catch(whenServiceFails(IPN_UNVERIFIED_MESSAGE));
        request.log.info({ outcome }, 'PayPal notification');
        return reply.status(200).send(null);
      },
    ),
  );

  // Stripe signs the exact bytes of each event: they are kept as they came.
  await withRawBodies(app, 'application/json', (webhook) =>
    webhook.withTypeProvider<ZodTypeProvider>().post(
      STRIPE_WEBHOOK_PATH,
      {
        config: notificationLimit('stripe-webhook'),
        schema: {
          summary: "Stripe's webhook events: the signature and its age are checked before anything is granted",
          response: { 200: z.object({ received: z.literal(true) }), ...errorResponses },
        },
      },
      async (request, reply) => {
        const body = rawBody(request.body, 'A webhook event is JSON.');
        const signature = request.headers['stripe-signature'];
        const outcome = await handleStripeWebhook(
          { db, bus, premium },
          body,
          typeof signature === 'string' ? signature : undefined,
        );
        request.log.info({ outcome }, 'Stripe event');
        // Stripe sends an event again until it gets a 2xx: a bad signature is answered 400, so a forgery is never
        // taken.
        if (outcome === 'refused: signature' || outcome === 'refused: stale')
          throw new HttpError(400, 'The signature does not match.');
        return reply.status(200).send({ received: true as const });
      },
    ),
  );
}
