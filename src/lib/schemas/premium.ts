// The premium schemas: prices and ownership, the checkout, the feature toggles and the boost page's calls.
import { z } from 'zod';
import { playerUuidSchema } from './ids';

export const premiumItemSchema = z.enum(['animated', 'glint', 'dinnerbone'], {
  message: 'Choose animated, glint or dinnerbone.',
});
/** GET /api/premium: each feature's price and, for a logged-in player, whether they own it and have it on. */
export const premiumStateSchema = z
  .object({
    currency: z.string(),
    items: z.array(z.object({ key: premiumItemSchema, price: z.string(), owned: z.boolean(), enabled: z.boolean() })),
    providers: z
      .object({ paypal: z.boolean(), card: z.boolean() })
      .meta({ description: 'Which ways to pay are set up' }),
  })
  .meta({ id: 'PremiumState' });
/** GET /api/premium/init: where the checkout form goes, and the fields it carries. */
export const premiumInitSchema = z
  .object({
    paypalUrl: z.string(),
    paypalEmail: z.string(),
    currency: z.string(),
    prices: z.record(premiumItemSchema, z.string()),
    returnUrl: z.string(),
    notifyUrl: z.string(),
  })
  .meta({ id: 'PremiumInit' });
/** POST /api/premium/payment/intent: the buyer (the logged-in player) and the feature. */
export const paymentIntentBodySchema = z.object({
  uuid: playerUuidSchema,
  item: premiumItemSchema.meta({ description: 'animated, glint or dinnerbone' }),
});
/** What POST /api/premium/payment/intent answers: the hosted checkout to go to. */
export const paymentIntentSchema = z.object({ url: z.string() }).meta({ id: 'PaymentIntent' });
/** POST /api/premium/glint and /dinnerbone: the feature's new state (absent: the other state). */
export const premiumToggleBodySchema = z.object({ enabled: z.boolean().optional() });
/** What POST /api/premium/glint and /dinnerbone answer: the feature's new state. */
export const premiumToggleSchema = z
  .object({ success: z.literal(true), enabled: z.boolean() })
  .meta({ id: 'PremiumToggle' });

// ---- Premium boost and the chat-community bot ----

/** A yes-or-no answer of the boost page's polls (`linked`, `boosting`). */
export const successFlagSchema = z.object({ success: z.boolean() }).meta({ id: 'SuccessFlag' });
/** A one-time code the player gives the bot (link code, premium role code). */
export const codeSchema = z.object({ code: z.string() }).meta({ id: 'Code' });
/** GET /api/premium/boost/discord/usable: the cosmetics a boost can give, by key. */
export const usableCosmeticsSchema = z
  .object({ cosmetics: z.record(z.string(), z.string()) })
  .meta({ id: 'UsableCosmetics' });
/** GET /api/premium/boost/discord/cosmetic: the chosen cosmetic, or null. */
export const cosmeticSchema = z.object({ cosmetic: z.string().nullable() }).meta({ id: 'Cosmetic' });
/** POST /api/premium/boost/discord/cosmetic: the cosmetic to get while boosting. */
export const cosmeticBodySchema = z.object({ cosmetic: premiumItemSchema });
