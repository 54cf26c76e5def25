// End-to-end tests in the system Chromium against the real server (one normal, one in maintenance mode).
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { offlineUuid } from './server/auth/player-ids.ts';
import { CHROMIUM_FLAGS } from './scripts/chromium-flags.ts';

/** Where the e2e servers keep their data; recreated by each run. */
export const E2E_DATA_DIR = path.resolve('test-results/e2e-data');
/** The normal server's port (`E2E_PORT` moves both servers, so two checkouts can run their suites at once). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4410);
/** The maintenance-mode server's port. */
export const E2E_MAINTENANCE_PORT = E2E_PORT + 1;
/** The PayPal stand-in's port (tests/helpers/paypal.ts): the checkout page and the IPN verification. */
export const E2E_PAYPAL_PORT = E2E_PORT + 2;
/** The Stripe stand-in's port (tests/helpers/stripe.ts): the checkout session API and its hosted page. */
export const E2E_STRIPE_PORT = E2E_PORT + 3;
const STRIPE_KEYS = { STRIPE_SECRET_KEY: 'sk_test_e2e', STRIPE_WEBHOOK_SECRET: 'whsec_e2e' };
/** The game services stand-in's port (tests/helpers/game-services.ts): player profiles, skins and OptiFine capes. */
export const E2E_GAME_SERVICES_PORT = E2E_PORT + 4;
/** The Microsoft login stand-in's port (tests/helpers/microsoft.ts): sign-in page, token endpoint, Xbox Live, XSTS and game services. */
export const E2E_MICROSOFT_PORT = E2E_PORT + 5;
/** The ad network stand-in's port (tests/helpers/ad-network.ts): the ad script the e2e site's ad slots load. */
export const E2E_AD_NETWORK_PORT = E2E_PORT + 6;
/** A server as a fresh install runs it (the plain site, built at its start as `npm start` builds it; no payments, no ads), for what such a site shows. */
export const E2E_FRESH_PORT = E2E_PORT + 7;
/** Where the fresh install keeps its data; recreated by each run. */
export const E2E_FRESH_DATA_DIR = `${E2E_DATA_DIR}-fresh`;
/** The fresh install's built site: the tests never build into the checkout's dist/, which an operator's processes may serve. */
const E2E_FRESH_SITE_DIR = path.resolve('test-results/e2e-fresh-site');
/** A server whose outside services (the player service, the OptiFine cape server) cannot be reached, for what pages say then. */
export const E2E_CUT_OFF_PORT = E2E_PORT + 8;
/** Where the cut-off server keeps its data; recreated by each run. */
export const E2E_CUT_OFF_DATA_DIR = `${E2E_DATA_DIR}-cut-off`;
/** A port nothing listens on: the cut-off server's outside services point there. */
const E2E_CLOSED_PORT = E2E_PORT + 9;
/** The split deploy: the API on its own host name and port (the site calls it there; PUBLIC_API_URL). */
export const E2E_SPLIT_API_PORT = E2E_PORT + 10;
/** The split deploy's static host, serving only the built files by their generated rules (tests/helpers/e2e/static-host.ts). */
export const E2E_SPLIT_SITE_PORT = E2E_PORT + 11;
/** Two host names of one site, which the split deploy's browser resolves to this machine. */
export const E2E_SPLIT_SITE = `http://site.cloakroom.test:${E2E_SPLIT_SITE_PORT}`;
export const E2E_SPLIT_API = `http://api.cloakroom.test:${E2E_SPLIT_API_PORT}`;
/** Where the split deploy's API keeps its data, and the site it builds for the static host; recreated by each run. */
export const E2E_SPLIT_DATA_DIR = `${E2E_DATA_DIR}-split`;
const E2E_SPLIT_SITE_DIR = path.resolve('test-results/e2e-split-site');

/** The e2e site, built at the start of each run with the ad settings below (dist/ stays the plain build). */
const E2E_SITE_DIR = path.resolve('test-results/e2e-site');
/** The app registration the e2e server uses with the Microsoft stand-in. */
const MICROSOFT_APP = { MICROSOFT_CLIENT_ID: 'e2e-client-id', MICROSOFT_CLIENT_SECRET: 'e2e-client-secret' };
/** The chat-community bot's key on the e2e server (the tests play the bot). */
export const E2E_BOT_KEY = 'bot-key-e2e';
/** The merchant account the e2e server sells to. */
export const E2E_PAYPAL_EMAIL = 'payments@cloakroom.example';
/** The e2e site's game auth server, companion game server, community chat and support address. */
export const E2E_AUTH_SERVER_HOST = 'auth.capes.example';
export const E2E_GAME_SERVER_HOST = 'play.capes.example';
export const E2E_DISCORD_URL = 'https://discord.example/invite/capes';
export const E2E_SUPPORT_EMAIL = 'support@capes.example';
/** The player the e2e site lists as its contributor (CONTRIBUTORS), by the uuid the offline-mode server gives the name. */
export const E2E_CONTRIBUTOR = 'E2EContributor';

const serverEnv = {
  OFFLINE_MODE: 'true',
  SKIP_SITE_BUILD: 'true',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  // Every test logs in from 127.0.0.1; the limit itself is covered by the API tests.
  LOGIN_ATTEMPTS_PER_MINUTE: '1000',
  LOGIN_FAILURES_PER_MINUTE: '1000',
  // Every app sign-in asks for its code from 127.0.0.1 too; the API tests cover that limit (429 slow_down).
  OAUTH_DEVICE_REQUESTS_PER_MINUTE: '1000',
  // Visitors' code lookups (the /device page and the login pages naming the app) all count against 127.0.0.1; the API
  // tests cover that limit (429).
  OAUTH_CODE_ENTRIES_PER_MINUTE: '1000',
  // The gallery tests seed more than a page of textures through the API (the 429 message is tested with an intercepted answer).
  GALLERY_UPLOADS_PER_10_MINUTES: '1000',
  // Payments go to the local PayPal stand-in; the buyer comes back to the address the browser uses.
  PAYPAL_EMAIL: E2E_PAYPAL_EMAIL,
  PAYPAL_URL: `http://127.0.0.1:${E2E_PAYPAL_PORT}/cgi-bin/webscr`,
  PAYPAL_IPN_VERIFY_URL: `http://127.0.0.1:${E2E_PAYPAL_PORT}/cgi-bin/webscr`,
  PUBLIC_SITE_URL: `http://127.0.0.1:${E2E_PORT}`,
  STRIPE_API_URL: `http://127.0.0.1:${E2E_STRIPE_PORT}`,
  ...STRIPE_KEYS,
  DISCORD_BOT_KEY: E2E_BOT_KEY,
  // Head capes and OptiFine lookups go to the local game services stand-in.
  MOJANG_API_URL: `http://127.0.0.1:${E2E_GAME_SERVICES_PORT}`,
  MOJANG_SESSION_URL: `http://127.0.0.1:${E2E_GAME_SERVICES_PORT}`,
  OPTIFINE_CAPES_URL: `http://127.0.0.1:${E2E_GAME_SERVICES_PORT}`,
  // The stand-in's skin URLs are on 127.0.0.1.
  OUTSIDE_URLS_ALLOW_PRIVATE: 'true',
  // The Microsoft login goes to the local stand-in for Microsoft, Xbox Live, XSTS and the game services.
  ...MICROSOFT_APP,
  MICROSOFT_AUTHORITY_URL: `http://127.0.0.1:${E2E_MICROSOFT_PORT}/consumers`,
  XBL_AUTH_URL: `http://127.0.0.1:${E2E_MICROSOFT_PORT}`,
  XSTS_AUTH_URL: `http://127.0.0.1:${E2E_MICROSOFT_PORT}`,
  MINECRAFT_SERVICES_URL: `http://127.0.0.1:${E2E_MICROSOFT_PORT}`,
  // The community's own services, which a fresh install leaves empty (and so hides what depends on them).
  PUBLIC_AUTH_SERVER_HOST: E2E_AUTH_SERVER_HOST,
  PUBLIC_GAME_SERVER_HOST: E2E_GAME_SERVER_HOST,
  PUBLIC_DISCORD_URL: E2E_DISCORD_URL,
  PUBLIC_SUPPORT_EMAIL: E2E_SUPPORT_EMAIL,
  CONTRIBUTORS: offlineUuid(E2E_CONTRIBUTOR),
  // The site shows ads from the local ad network stand-in.
  PUBLIC_AD_CLIENT: 'ca-pub-e2e',
  PUBLIC_AD_SCRIPT_URL: `http://127.0.0.1:${E2E_AD_NETWORK_PORT}/pagead/js/adsbygoogle.js`,
  SITE_DIR: E2E_SITE_DIR,
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  // Guards against a hang, not speed goals: the tests wait for states. On this machine's busy hours (other work on the two
  // shared cores) the suite runs 3–4× slower than when quiet, and a 10 s test took over 30 s.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: 'npx tsx tests/helpers/e2e/standins.ts',
      url: `http://127.0.0.1:${E2E_PAYPAL_PORT}/`,
      env: {
        PAYPAL_STANDIN_PORT: String(E2E_PAYPAL_PORT),
        STRIPE_STANDIN_PORT: String(E2E_STRIPE_PORT),
        GAME_SERVICES_PORT: String(E2E_GAME_SERVICES_PORT),
        MICROSOFT_STANDIN_PORT: String(E2E_MICROSOFT_PORT),
        AD_NETWORK_STANDIN_PORT: String(E2E_AD_NETWORK_PORT),
        ...MICROSOFT_APP,
        STRIPE_WEBHOOK_URL: `http://127.0.0.1:${E2E_PORT}/api/premium/stripe/webhook`,
        ...STRIPE_KEYS,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // Builds the e2e site into E2E_SITE_DIR first (web servers start one after another, so the others find it built).
      command: `rm -rf ${E2E_DATA_DIR} && npx tsx server/main.ts`,
      url: `http://127.0.0.1:${E2E_PORT}/api/home`,
      env: { ...serverEnv, SKIP_SITE_BUILD: 'false', PORT: String(E2E_PORT), DATA_DIR: E2E_DATA_DIR },
      reuseExistingServer: false,
      timeout: 240_000,
    },
    {
      command: 'npx tsx server/main.ts',
      url: `http://127.0.0.1:${E2E_MAINTENANCE_PORT}/`,
      env: {
        ...serverEnv,
        PORT: String(E2E_MAINTENANCE_PORT),
        DATA_DIR: `${E2E_DATA_DIR}-maintenance`,
        MAINTENANCE: 'true',
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `rm -rf ${E2E_CUT_OFF_DATA_DIR} && npx tsx server/main.ts`,
      url: `http://127.0.0.1:${E2E_CUT_OFF_PORT}/api/home`,
      env: {
        ...serverEnv,
        PORT: String(E2E_CUT_OFF_PORT),
        DATA_DIR: E2E_CUT_OFF_DATA_DIR,
        PUBLIC_SITE_URL: `http://127.0.0.1:${E2E_CUT_OFF_PORT}`,
        MOJANG_API_URL: `http://127.0.0.1:${E2E_CLOSED_PORT}`,
        MOJANG_SESSION_URL: `http://127.0.0.1:${E2E_CLOSED_PORT}`,
        OPTIFINE_CAPES_URL: `http://127.0.0.1:${E2E_CLOSED_PORT}`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The API of the split deploy builds the site for the static host (its PUBLIC_* settings name the two hosts).
      command: `rm -rf ${E2E_SPLIT_DATA_DIR} && npx tsx server/main.ts`,
      url: `http://127.0.0.1:${E2E_SPLIT_API_PORT}/api/home`,
      env: {
        OFFLINE_MODE: 'true',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(E2E_SPLIT_API_PORT),
        DATA_DIR: E2E_SPLIT_DATA_DIR,
        SITE_DIR: E2E_SPLIT_SITE_DIR,
        LOGIN_ATTEMPTS_PER_MINUTE: '1000',
        PUBLIC_API_URL: E2E_SPLIT_API,
        PUBLIC_BASE_URL: E2E_SPLIT_API,
        PUBLIC_SITE_URL: E2E_SPLIT_SITE,
        PUBLIC_SITE_ORIGINS: E2E_SPLIT_SITE,
      },
      reuseExistingServer: false,
      timeout: 240_000,
    },
    {
      // A static host that serves the split deploy's built site by its generated rules alone, once the API has built it.
      command: `npx tsx tests/helpers/e2e/static-host.ts ${E2E_SPLIT_SITE_DIR} ${E2E_SPLIT_SITE_PORT} http://127.0.0.1:${E2E_SPLIT_API_PORT}/api/home`,
      url: `http://127.0.0.1:${E2E_SPLIT_SITE_PORT}/`,
      reuseExistingServer: false,
      timeout: 300_000,
    },
    {
      // The plain site (built at start when missing or stale, as `npm start` does) with only what a fresh install sets.
      command: `rm -rf ${E2E_FRESH_DATA_DIR} && npx tsx server/main.ts`,
      url: `http://127.0.0.1:${E2E_FRESH_PORT}/api/home`,
      env: {
        OFFLINE_MODE: 'true',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(E2E_FRESH_PORT),
        DATA_DIR: E2E_FRESH_DATA_DIR,
        SITE_DIR: E2E_FRESH_SITE_DIR,
      },
      reuseExistingServer: false,
      timeout: 240_000,
    },
  ],
});
