// Runs the outside services' stand-ins for the e2e suite until stopped: PayPal (tests/helpers/paypal.ts) on
// PAYPAL_STANDIN_PORT, Stripe Checkout (tests/helpers/stripe.ts) on STRIPE_STANDIN_PORT, whose events go to
// STRIPE_WEBHOOK_URL, and the game's player services with an OptiFine cape server (tests/helpers/game-services.ts) on
// GAME_SERVICES_PORT, knowing the players in E2E_GAME_PLAYERS, and the Microsoft login's services
// (tests/helpers/microsoft.ts) on MICROSOFT_STANDIN_PORT for the app MICROSOFT_CLIENT_ID / MICROSOFT_CLIENT_SECRET, and
// the ad network's script (tests/helpers/ad-network.ts) on AD_NETWORK_STANDIN_PORT.
import { startPaypalStandIn } from '../paypal.ts';
import { startStripeStandIn } from '../stripe.ts';
import { startGameServicesStandIn } from '../game-services.ts';
import { startMicrosoftStandIn } from '../microsoft.ts';
import { startAdNetworkStandIn } from '../ad-network.ts';
import { e2eGamePlayers } from './game-players.ts';

const env = process.env;
const paypal = await startPaypalStandIn({ port: Number(env.PAYPAL_STANDIN_PORT) });
const stripe = await startStripeStandIn({
  port: Number(env.STRIPE_STANDIN_PORT),
  secretKey: env.STRIPE_SECRET_KEY!,
  webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
  webhookUrl: env.STRIPE_WEBHOOK_URL!,
});
const game = await startGameServicesStandIn({ port: Number(env.GAME_SERVICES_PORT), players: await e2eGamePlayers() });
const microsoft = await startMicrosoftStandIn({
  port: Number(env.MICROSOFT_STANDIN_PORT),
  clientId: env.MICROSOFT_CLIENT_ID!,
  clientSecret: env.MICROSOFT_CLIENT_SECRET!,
});
const ads = await startAdNetworkStandIn({ port: Number(env.AD_NETWORK_STANDIN_PORT) });
console.log(
  `PayPal stand-in at ${paypal.url}, Stripe stand-in at ${stripe.url}, game services stand-in at ${game.url}, Microsoft stand-in at ${microsoft.url}, ad network stand-in at ${ads.scriptUrl}`,
);
