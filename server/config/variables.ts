// What every environment variable does, in words: the one source of docs/configuration.md (npm run docs:config).
import { PURCHASES_UNAVAILABLE } from '../../src/lib/premium.ts';
import type { configSchema } from './index.ts';

/** The sections of docs/configuration.md, in their order. */
export const VARIABLE_GROUPS = [
  'Server and storage',
  'Logins and accounts',
  'Mod API and caches',
  'Uploads and image work',
  'Cape creators',
  'Premium and payments',
  'Bot and game auth server keys',
  'HTTP and proxies',
  'Logs, metrics and shutdown',
  'Site (built into the pages)',
  'Tests',
] as const;

/** One section of docs/configuration.md. */
export type VariableGroup = (typeof VARIABLE_GROUPS)[number];

/** A variable's entry: its section, what it does, and its default in words when the schema has none or a number needs a gloss. */
export interface VariableDoc {
  group: VariableGroup;
  description: string;
  /** The default as the docs show it; must contain the schema's default when the schema has one. Unset: the schema's default, else "unset". */
  default?: string;
}

/** The variables of the server's schema (server/config/index.ts). */
export type ServerVariable = keyof (typeof configSchema)['shape'];

/** Every variable the server's schema reads, described. */
export const SERVER_VARIABLES: Record<ServerVariable, VariableDoc> = {
  PORT: { group: 'Server and storage', description: 'port of the site + API' },
  HOST: { group: 'Server and storage', description: 'address to listen on (`0.0.0.0` for all)' },
  DATA_DIR: { group: 'Server and storage', description: 'where SQLite and local files live' },
  DATABASE_URL: {
    group: 'Server and storage',
    default: '`sqlite:$DATA_DIR/cloakroom.db`',
    description: '`sqlite:<file>` or `postgres://user@host:5432/db`; migrations are applied at start',
  },
  SITE_DIR: { group: 'Server and storage', description: 'the built site the server serves' },
  MAINTENANCE: {
    group: 'Server and storage',
    default: '`false`',
    description: '`true`: every `/api/` call answers 503 (the mod API and the health checks keep working)',
  },
  REDIS_URL: {
    group: 'Server and storage',
    description:
      'Redis for profile-cache change notices across processes and shared rate limits (e.g. `redis://127.0.0.1:6379`); optional even when set: ' +
      'while it is unreachable, limits count within each process (see [operations](operations.md#redis))',
  },
  REDIS_PREFIX: { group: 'Server and storage', description: 'start of every Redis key and channel this server uses (several sites can share one Redis)' },
  S3_BUCKET: { group: 'Server and storage', description: 'store textures in this S3-compatible bucket instead of `DATA_DIR/textures`' },
  S3_ENDPOINT: { group: 'Server and storage', description: 'S3-compatible endpoint (MinIO, R2, …); unset uses AWS' },
  S3_REGION: { group: 'Server and storage', description: 'bucket region' },
  S3_ACCESS_KEY_ID: { group: 'Server and storage', description: "bucket access key id; unset uses the SDK's default chain" },
  S3_SECRET_ACCESS_KEY: { group: 'Server and storage', description: "bucket secret key; unset uses the SDK's default chain" },
  S3_FORCE_PATH_STYLE: { group: 'Server and storage', default: '`true` with an endpoint', description: 'path-style bucket URLs (`true` or `false`)' },
  SWEEP_GRACE_MINUTES: {
    group: 'Server and storage',
    description: 'age (at least 1) a leftover of an interrupted upload must reach before a sweep removes it',
  },
  SWEEP_INTERVAL_MINUTES: {
    group: 'Server and storage',
    description: 'how often the server sweeps leftovers (first right after start); `0`: only `npx cloakroom sweep`',
  },

  OFFLINE_MODE: {
    group: 'Logins and accounts',
    default: '`false`',
    description:
      '`true`: use offline-mode uuids (`OfflinePlayer:<name>`, version 3), fetch nothing. For trying the site only: ' +
      'the mod asks only for Mojang (version 4) uuids, so it never finds these players',
  },
  MOJANG_API_URL: { group: 'Logins and accounts', description: 'Mojang profile API base URL (username → uuid)' },
  SESSION_DAYS: { group: 'Logins and accounts', description: 'session lifetime in days' },
  LOGIN_ATTEMPTS_PER_MINUTE: { group: 'Logins and accounts', description: 'code login attempts per client address per minute (then 429)' },
  LOGIN_FAILURES_PER_MINUTE: {
    group: 'Logins and accounts',
    description: 'wrong login codes per minute from all clients together; once spent, every code login waits for the next minute (429)',
  },
  MICROSOFT_CLIENT_ID: {
    group: 'Logins and accounts',
    description:
      "the Microsoft login's app (client) id (see [operations](operations.md#microsoft-login)); until set, the login button goes back to the " +
      'login page, which says it is not configured',
  },
  MICROSOFT_CLIENT_SECRET: {
    group: 'Logins and accounts',
    description: "the app's client secret (sent to the token endpoint, never to the browser); unset: a public client, PKCE alone",
  },
  MICROSOFT_AUTHORITY_URL: {
    group: 'Logins and accounts',
    description:
      'Microsoft identity platform authority (`/oauth2/v2.0/authorize`, `/oauth2/v2.0/token` below it; no discovery call); ' +
      "the redirect URI is the site's `/account/login`",
  },
  XBL_AUTH_URL: { group: 'Logins and accounts', description: 'Xbox Live user authentication base URL (`POST /user/authenticate`)' },
  XSTS_AUTH_URL: { group: 'Logins and accounts', description: 'Xbox security token service base URL (`POST /xsts/authorize`)' },
  MINECRAFT_SERVICES_URL: {
    group: 'Logins and accounts',
    description: 'game services base URL (`POST /authentication/login_with_xbox`, `GET /minecraft/profile`)',
  },

  PUBLIC_BASE_URL: {
    group: 'Mod API and caches',
    default: '`http://localhost:$PORT`',
    description:
      "public origin of this server; texture URLs in the mod API and the mod settings on `/help/mods` start with it, so it must be an address the players' " +
      'games can reach (the site is rebuilt when it changes, or when `PORT` changes while it is unset)',
  },
  PROFILE_CACHE_SIZE: {
    group: 'Mod API and caches',
    description:
      'players kept in the in-process mod API profile cache (about 300 B of heap each, measured in `bench/profile-cache.ts`; only players asked for are kept)',
  },
  PROFILE_CACHE_TTL_S: {
    group: 'Mod API and caches',
    description: 'seconds a cached profile is served without a change notice (bounds staleness from processes that share no Redis)',
  },
  ANSWER_FILES_DIR: {
    group: 'Mod API and caches',
    default: 'unset',
    description:
      'the answer directory: the whole mod API as files (each at its URL path) for nginx to serve (`deploy/nginx/cloakroom.conf`), ' +
      'kept complete by the processes on every change and built by `npx cloakroom answers rebuild`; the processes of one host share one; ' +
      'unset writes none (see [operations](operations.md#what-nginx-keeps))',
  },
  MOD_CATCH_UP_S: {
    group: 'Mod API and caches',
    description:
      'seconds between two reads of the mod API change log, in which each process handles the changes whose notice it missed ' +
      '(Redis down, a restart): a missed change reaches its memory and answer files within this',
  },
  TEXTURE_CACHE_MB: {
    group: 'Mod API and caches',
    description:
      "MB of texture files the mod API keeps in memory (`0`: none; a released texture is dropped at once, another process's release is noticed within 60 s)",
  },

  GALLERY_UPLOADS_PER_10_MINUTES: { group: 'Uploads and image work', description: 'gallery uploads per session per 10 minutes (then 429)' },
  GALLERY_DOWNLOADS_PER_MINUTE: { group: 'Uploads and image work', description: 'gallery downloads per user per minute (then 429)' },
  TEXTURE_UPLOADS_PER_10_MINUTES: {
    group: 'Uploads and image work',
    description: 'cape uploads, and separately ears uploads, per user per 10 minutes (then 429)',
  },
  IMAGE_JOB_CONCURRENCY: {
    group: 'Uploads and image work',
    default: 'cores − 1, at least 1',
    description:
      'image jobs of any size (texture processing, creators, previews, maps, GIF builds) that run at once, each in a worker process at nice 10; ' +
      'the rest wait, fairly between players',
  },
  IMAGE_SMALL_JOB_SLOTS: {
    group: 'Uploads and image work',
    description: 'more image jobs that run at once, small ones only (see [the image queue](api.md#uploads-and-the-image-queue)); `0` for none',
  },
  IMAGE_SMALL_JOB_PIXELS: {
    group: 'Uploads and image work',
    default: '`2097152` (2048 × 1024)',
    description:
      'the most pixels a small image job decodes and draws (every GIF frame counted, a GIF pixel twice and a GIF build 40 times: see [the image queue](api.md#uploads-and-the-image-queue))',
  },
  IMAGE_JOBS_PER_PLAYER: { group: 'Uploads and image work', description: 'image jobs one player may have queued or running (then 429)' },
  IMAGE_WORK_SECONDS_PER_MINUTE: {
    group: 'Uploads and image work',
    description: "seconds of image work (a worker's time on their jobs) one player may cause per minute (then 429)",
  },
  IMAGE_JOB_QUEUE_MAX: { group: 'Uploads and image work', description: 'image jobs that may wait for a slot (then 503)' },
  IMAGE_JOB_TIMEOUT_MS: {
    group: 'Uploads and image work',
    description: 'how long an image job may run before its worker is killed (the job answers 503)',
  },

  MOJANG_SESSION_URL: { group: 'Cape creators', description: "Mojang session server base URL (a player's skin, for head capes)" },
  OPTIFINE_CAPES_URL: {
    group: 'Cape creators',
    description: "OptiFine-style cape server (`GET /capes/{name}.png`), for the OptiFine creator's username lookup",
  },
  AI_API_URL: {
    group: 'Cape creators',
    description:
      'an OpenAI-compatible images API (`POST $AI_API_URL/images/generations`, bearer key) for the AI cape creator; until it and `AI_API_KEY` are set, ' +
      'the creator uses the built-in pattern generator, and the page says so',
  },
  AI_API_KEY: { group: 'Cape creators', description: "the images API's bearer key (see `AI_API_URL`)" },
  AI_MODEL: { group: 'Cape creators', description: "the images API's model (`dall-e-3`, `gpt-image-1`, …)" },
  AI_IMAGE_HOSTS: {
    group: 'Cape creators',
    description:
      "hosts (names, or origins such as `https://images.example:8443`) an image URL in the images API's answer may point at besides the API's own " +
      'origin, comma-separated; any other is refused unfetched',
  },
  OUTSIDE_URLS_ALLOW_PRIVATE: {
    group: 'Cape creators',
    default: '`false`',
    description: 'let an address taken from an outside answer (a skin URL, an image URL) be loopback, private or link-local; for local stand-ins only',
  },
  CREATOR_CALLS_PER_MINUTE: {
    group: 'Cape creators',
    description: 'requests to the other cape creators per player per minute (then 429); their image work is bounded by `IMAGE_WORK_SECONDS_PER_MINUTE`',
  },
  AI_PROMPTS_PER_HOUR: { group: 'Cape creators', description: 'AI cape prompts per player per hour (then 429)' },

  PREMIUM_ANIMATED_PRICE: { group: 'Premium and payments', description: "the animated cape's one-time price (two decimals)" },
  PREMIUM_GLINT_PRICE: { group: 'Premium and payments', description: "the cape glint's one-time price (two decimals)" },
  PREMIUM_DINNERBONE_PRICE: { group: 'Premium and payments', description: 'the Dinnerbone (upside down) one-time price (two decimals)' },
  PREMIUM_CURRENCY: { group: 'Premium and payments', description: "the prices' currency (ISO code)" },
  PAYPAL_EMAIL: {
    group: 'Premium and payments',
    description: `the PayPal account payments go to; until set, the premium page offers no PayPal, and with no card payments either it says "${PURCHASES_UNAVAILABLE}" and shows no Buy button (\`/api/premium/init\` answers 501)`,
  },
  PAYPAL_URL: {
    group: 'Premium and payments',
    description:
      "PayPal Standard checkout (`https://www.sandbox.paypal.com/cgi-bin/webscr` to test); the pages' Content-Security-Policy lets the Buy form post there",
  },
  PAYPAL_IPN_VERIFY_URL: {
    group: 'Premium and payments',
    description: 'where payment notifications are posted back for verification (`https://ipnpb.sandbox.paypal.com/cgi-bin/webscr` for the sandbox)',
  },
  STRIPE_API_URL: { group: 'Premium and payments', description: "Stripe's API base URL" },
  STRIPE_SECRET_KEY: {
    group: 'Premium and payments',
    description:
      'card payments via Stripe Checkout; until it and `STRIPE_WEBHOOK_SECRET` are set, the page offers PayPal only (`/api/premium/payment/intent` answers 501)',
  },
  STRIPE_WEBHOOK_SECRET: {
    group: 'Premium and payments',
    description:
      'the signing secret of the webhook registered at Stripe as `$PUBLIC_BASE_URL/api/premium/stripe/webhook`, for events ' +
      '`checkout.session.completed`, `checkout.session.async_payment_succeeded`, `charge.refunded`, `charge.dispute.created` and `charge.dispute.closed`',
  },
  PUBLIC_SITE_URL: {
    group: 'Premium and payments',
    default: 'the first `PUBLIC_SITE_ORIGINS`, else `PUBLIC_BASE_URL`, else `http://localhost:$PORT`',
    description: "the site's address, where PayPal and Stripe send the buyer back (`/premium/success`) and Microsoft sends the player after a login",
  },
  PAYMENT_NOTIFICATIONS_PER_MINUTE: {
    group: 'Premium and payments',
    description:
      'payment notifications (PayPal IPN, Stripe webhook) each client address may send to each endpoint per minute (then 429; PayPal and Stripe send a refused one again later)',
  },
  PAYMENT_NOTIFICATION_RETENTION_DAYS: {
    group: 'Premium and payments',
    description: 'days stored payment notifications are kept before the leftover sweep removes them (the payments they granted stay)',
  },

  AUTH_API_KEY: {
    group: 'Bot and game auth server keys',
    description: 'bearer key of the game auth server for `/api/internal/*`; unset refuses every call',
  },
  DISCORD_BOT_KEY: {
    group: 'Bot and game auth server keys',
    description: "bearer key of the chat-community bot's API (`/api/bot/*`); unset refuses every bot call",
  },
  BOT_CALLS_PER_MINUTE: {
    group: 'Bot and game auth server keys',
    description: "bot API calls with the bot's key a minute, all together (then 429); the key is checked before a call is counted",
  },
  API_KEY_REFUSALS_PER_MINUTE: {
    group: 'Bot and game auth server keys',
    description:
      "calls a minute from one address to the bot's and the game auth server's APIs without a valid key (401, then 429); counted apart from the bot's calls",
  },

  TRUST_PROXY: {
    group: 'HTTP and proxies',
    default: '`false`',
    description:
      'behind reverse proxies: how many (`1`, `2`) or their addresses/CIDRs (`10.0.0.0/8,127.0.0.1`); the client address and HTTPS are then read ' +
      'from `X-Forwarded-*`. `true` reads as `1`, with a warning',
  },
  HEADERS_TIMEOUT_MS: { group: 'HTTP and proxies', description: 'time a client has to send its request headers (then 408, and the connection closes)' },
  REQUEST_TIMEOUT_MS: { group: 'HTTP and proxies', description: 'time a client has to send a whole request (`0`: no limit)' },
  KEEP_ALIVE_TIMEOUT_MS: {
    group: 'HTTP and proxies',
    description:
      "how long an idle kept-alive connection stays open (keep it longer than a load balancer's idle timeout, or the balancer meets closed connections)",
  },

  LOG_LEVEL: { group: 'Logs, metrics and shutdown', description: 'pino level (`silent` to mute)' },
  METRICS_PORT: {
    group: 'Logs, metrics and shutdown',
    description:
      'serve the Prometheus metrics at `/metrics` on this port of their own (`0`: any free port); unset serves none (see [operations](operations.md#metrics))',
  },
  METRICS_HOST: { group: 'Logs, metrics and shutdown', description: 'address the metrics port listens on' },
  METRICS_KEY: {
    group: 'Logs, metrics and shutdown',
    description: 'also serve the metrics at `/metrics` on the main port, to `Authorization: Bearer <key>` only',
  },
  SHUTDOWN_GRACE_MS: {
    group: 'Logs, metrics and shutdown',
    description: 'on SIGTERM, how long requests in flight may take before their connections are closed',
  },

  PUBLIC_SITE_NAME: { group: 'Site (built into the pages)', description: 'site name in titles and texts' },
  PUBLIC_SITE_ORIGINS: {
    group: 'Site (built into the pages)',
    description: 'comma-separated site origins allowed to call the API with credentials (CORS)',
  },
  PUBLIC_API_URL: {
    group: 'Site (built into the pages)',
    default: 'empty (same origin)',
    description: "API host, when the static site is served from elsewhere (the pages' Content-Security-Policy allows it)",
  },
  PUBLIC_DOWNLOAD_URL: {
    group: 'Site (built into the pages)',
    description: 'external mod download page (`/download/:platform?/:version?` redirects there)',
  },
  CONTRIBUTORS: {
    group: 'Logins and accounts',
    default: 'empty',
    description:
      "the footer's contributors: comma-separated player uuids, in order; each shows with its current name and links to its profile once the player is registered here (`GET /api/contributors`); empty lists none",
  },
  PUBLIC_AD_CLIENT: {
    group: 'Site (built into the pages)',
    default: 'empty',
    description: 'ad network client id; empty shows no ad slots (when set, the pages show the slots and their Content-Security-Policy allows the ad hosts)',
  },
  PUBLIC_AD_SCRIPT_URL: {
    group: 'Site (built into the pages)',
    default: '`https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js`',
    description: "the ad network's script the slots load (its origin joins the policy's script sources)",
  },
};

/** A variable read outside the server's schema: by the site build, the start script or the tests; its default is written out. */
export interface OtherVariableDoc extends VariableDoc {
  default: string;
  /** The file that reads it. */
  readBy: string;
}

/** Variables read outside server/config/index.ts, described with their defaults and the file that reads them. */
export const OTHER_VARIABLES: Record<string, OtherVariableDoc> = {
  SKIP_SITE_BUILD: {
    group: 'Server and storage',
    default: 'unset',
    readBy: 'server/main.ts',
    description: '`true`: never build at start (serve `SITE_DIR` as it is)',
  },
  PUBLIC_AUTH_SERVER_HOST: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'game auth server address shown on the code login page and `/auth`; empty: no `/auth` page, and the code login asks for a code from staff',
  },
  PUBLIC_GAME_SERVER_HOST: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'companion game server address (home page card, the daily server advert); empty shows neither',
  },
  PUBLIC_DISCORD_URL: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'community chat invite; empty shows no Discord links',
  },
  PUBLIC_SKIN_URL: {
    group: 'Site (built into the pages)',
    default: '`https://crafatar.com/skins/{uuid}`',
    readBy: 'src/lib/skin.ts',
    description: 'skin service for the 3D previews (a default skin when it fails)',
  },
  PUBLIC_AVATAR_URL: {
    group: 'Site (built into the pages)',
    default: '`https://crafatar.com/avatars/{uuid}?size={size}&overlay`',
    readBy: 'src/lib/site.ts',
    description: 'profile-image service template',
  },
  PUBLIC_TUTORIAL_VIDEO_ID: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'video id of the tutorial (embedded on click); empty shows a help link instead',
  },
  PUBLIC_SUPPORT_EMAIL: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'support address (premium, privacy and help pages); empty shows no support address',
  },
  TEST_DATABASE_URL: {
    group: 'Tests',
    default: '`postgres://postgres@127.0.0.1:5432/test`',
    readBy: 'support/backends.ts',
    description: 'PostgreSQL server the API tests create their databases on',
  },
  TEST_BACKENDS: {
    group: 'Tests',
    default: '`sqlite,postgres`',
    readBy: 'support/backends.ts',
    description: 'which databases the API tests run on: `sqlite`, `postgres`, or both comma-separated',
  },
};
