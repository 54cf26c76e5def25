// The server's configuration: one typed reading of the environment, with defaults that work on a fresh machine.
import path from 'node:path';
import { DEFAULT_AD_SCRIPT_URL } from '../../src/lib/ads.ts';
import { isTrueText } from '../../src/lib/boolean-text.ts';
import { publicBaseUrl } from '../../src/lib/public-base-url.ts';
import { defaultImageJobConcurrency, type ImageJobLimits } from './image-job-limits.ts';
import { configSchema } from './settings.ts';

export { trustProxyOption, type TrustProxy } from './parsers.ts';

export { configSchema } from './settings.ts';

/** The server's settings, as `loadConfig` reads them: each one's meaning is written beside it there. */
export type Config = ReturnType<typeof loadConfig>;

/** Where the Prometheus metrics are served. */
export type MetricsConfig = Config['metrics'];

/**
 * The Microsoft login: the app registered with the Microsoft identity platform, and the base URL of each service on the
 * way to the game profile.
 */
export type MicrosoftLoginConfig = NonNullable<Config['microsoft']>;

/** The OAuth 2.0 device flow's addresses, lifetimes and limits. */
export type DeviceFlowConfig = Config['deviceFlow'];

/** The cape creators' outside services and limits. */
export type CreatorsConfig = Config['creators'];

/** The premium features' prices and how they are paid for. */
export type PremiumConfig = Config['premium'];

/** An S3-compatible bucket. */
export type S3Config = NonNullable<Config['s3']>;

/** Reads the configuration from an environment (process.env by default); throws a readable error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const trimmed = (url: string) => url.replace(/\/+$/, '');
  const siteUrl = trimmed(
    e.PUBLIC_SITE_URL ?? e.PUBLIC_SITE_ORIGINS[0] ?? e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`,
  );
  const baseUrl = publicBaseUrl(e.PUBLIC_BASE_URL, e.PORT);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    /** `sqlite:<file>` or a `postgres://` URL. */
    databaseUrl: e.DATABASE_URL || `sqlite:${path.join(dataDir, 'cloakroom.db')}`,
    siteDir: path.resolve(e.SITE_DIR),
    siteName: e.PUBLIC_SITE_NAME,
    siteOrigins: e.PUBLIC_SITE_ORIGINS,
    downloadUrl: e.PUBLIC_DOWNLOAD_URL,
    /** The API's origin when the built site calls an API elsewhere (PUBLIC_API_URL); undefined for this origin. */
    apiOrigin: e.PUBLIC_API_URL ? new URL(e.PUBLIC_API_URL).origin : undefined,
    /**
     * The origin of the ad network's script when the built site shows ads (PUBLIC_AD_CLIENT is set); undefined without
     * ads.
     */
    adScriptOrigin: e.PUBLIC_AD_CLIENT ? new URL(e.PUBLIC_AD_SCRIPT_URL || DEFAULT_AD_SCRIPT_URL).origin : undefined,
    authApiKey: e.AUTH_API_KEY || undefined,
    mojangApiUrl: trimmed(e.MOJANG_API_URL),
    offlineMode: e.OFFLINE_MODE,
    maintenance: e.MAINTENANCE,
    trustProxy: e.TRUST_PROXY.trust,
    sessionDays: e.SESSION_DAYS,
    /** Code login attempts per client address per minute. */
    loginAttemptsPerMinute: e.LOGIN_ATTEMPTS_PER_MINUTE,
    /** Failed code logins per minute across all clients (then every code login waits for the next minute). */
    loginFailuresPerMinute: e.LOGIN_FAILURES_PER_MINUTE,
    /**
     * The Microsoft login (MICROSOFT_CLIENT_ID and the services it goes through); undefined while no client id is set.
     */
    microsoft: e.MICROSOFT_CLIENT_ID
      ? {
          clientId: e.MICROSOFT_CLIENT_ID,
          /**
           * The app's client secret (a "Web" app); unset makes it a public client that proves itself with PKCE alone.
           */
          clientSecret: e.MICROSOFT_CLIENT_SECRET || undefined,
          /** The Microsoft identity platform authority: `<authority>/oauth2/v2.0/authorize` and `/token`. */
          authorityUrl: trimmed(e.MICROSOFT_AUTHORITY_URL),
          /** Where Microsoft sends the browser back: the site's login page. */
          redirectUri: `${siteUrl}/account/login`,
          /** Xbox Live user authentication (`POST /user/authenticate`). */
          xblAuthUrl: trimmed(e.XBL_AUTH_URL),
          /** Xbox Live security token service (`POST /xsts/authorize`). */
          xstsAuthUrl: trimmed(e.XSTS_AUTH_URL),
          /** The game services (`POST /authentication/login_with_xbox`, `GET /minecraft/profile`). */
          minecraftServicesUrl: trimmed(e.MINECRAFT_SERVICES_URL),
        }
      : undefined,
    /** Apps (launchers, mods) signing in with the OAuth 2.0 device flow: addresses, lifetimes and limits. */
    deviceFlow: {
      /**
       * The authorization server's issuer and the base of its endpoints: the API's public address (PUBLIC_API_URL, else
       * PUBLIC_BASE_URL).
       */
      issuer: e.PUBLIC_API_URL ? trimmed(e.PUBLIC_API_URL) : baseUrl,
      /** Where the player enters the code: the site's `/device` page. */
      verificationUri: `${siteUrl}/device`,
      /** How long a device code and its user code stay valid, in seconds. */
      deviceCodeSeconds: e.OAUTH_DEVICE_CODE_SECONDS,
      /** The least time between two polls of one code, in seconds. */
      pollIntervalSeconds: e.OAUTH_POLL_INTERVAL_SECONDS,
      /** An access token's lifetime, in seconds. */
      accessTokenSeconds: e.OAUTH_ACCESS_TOKEN_SECONDS,
      /** A refresh token's lifetime, in ms (each use hands out a new one). */
      refreshTokenMs: e.OAUTH_REFRESH_TOKEN_DAYS * 24 * 60 * 60_000,
      /** Device codes one client address may ask for a minute. */
      deviceRequestsPerMinute: e.OAUTH_DEVICE_REQUESTS_PER_MINUTE,
      /** Codes one player may look up, approve or deny a minute (each call counted apart). */
      codeEntriesPerMinute: e.OAUTH_CODE_ENTRIES_PER_MINUTE,
    },
    logLevel: e.LOG_LEVEL,
    /** How many bytes of log lines wait for a slow reader of stdout before further lines are dropped. */
    logBufferBytes: e.LOG_BUFFER_KB * 1024,
    /** The public origin of this server, for absolute texture URLs in the mod API. */
    publicBaseUrl: baseUrl,
    redisUrl: e.REDIS_URL || undefined,
    /** The start of every Redis key and channel name this server uses. */
    redisPrefix: e.REDIS_PREFIX,
    /** The S3-compatible bucket for textures; undefined keeps them in DATA_DIR/textures. */
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ? isTrueText(e.S3_FORCE_PATH_STYLE) : Boolean(e.S3_ENDPOINT),
        }
      : undefined,
    profileCacheSize: e.PROFILE_CACHE_SIZE,
    /** How long a cached profile is served without a change notice, in ms. */
    profileCacheTtlMs: e.PROFILE_CACHE_TTL_S * 1000,
    /** Where the processes write the mod API's answers as files for nginx to serve; undefined writes none. */
    answerFilesDir: e.ANSWER_FILES_DIR ? path.resolve(e.ANSWER_FILES_DIR) : undefined,
    /** How often each process reads the mod API's change log for changes whose notice it missed. */
    modCatchUpMs: e.MOD_CATCH_UP_S * 1000,
    /** How many bytes of texture files the mod API keeps in memory (0: none). */
    textureCacheBytes: Math.round(e.TEXTURE_CACHE_MB * 1024 * 1024),
    galleryUploadsPerTenMinutes: e.GALLERY_UPLOADS_PER_10_MINUTES,
    /** How old a leftover (partial write, unreferenced texture, unowned blob) must be before a sweep removes it. */
    sweepGraceMs: e.SWEEP_GRACE_MINUTES * 60_000,
    /** How often the server sweeps leftovers (first at start); 0 leaves sweeping to `cloakroom sweep`. */
    sweepIntervalMs: e.SWEEP_INTERVAL_MINUTES * 60_000,
    /**
     * HTTP server timeouts: for a request's headers, for a whole request, and for an idle kept-alive connection (0
     * turns one off).
     */
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_MS,
      requestMs: e.REQUEST_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    /** Settings that were read in a way the operator should hear about at start. */
    warnings: e.TRUST_PROXY.warning ? [e.TRUST_PROXY.warning] : [],
    /** Gallery downloads per user per minute. */
    galleryDownloadsPerMinute: e.GALLERY_DOWNLOADS_PER_MINUTE,
    /** Cape and ears uploads per user per 10 minutes. */
    textureUploadsPerTenMinutes: e.TEXTURE_UPLOADS_PER_10_MINUTES,
    /** Items a player's wardrobe keeps; past it, the oldest unworn item goes. */
    wardrobeItems: e.WARDROBE_ITEMS,
    /**
     * How image jobs (texture processing, creators, previews, GIF builds) are shared: slots, caps, timeout, each
     * player's share.
     */
    imageJobs: {
      concurrency: e.IMAGE_JOB_CONCURRENCY ?? defaultImageJobConcurrency(),
      smallSlots: e.IMAGE_SMALL_JOB_SLOTS,
      smallJobPixels: e.IMAGE_SMALL_JOB_PIXELS,
      perPlayer: e.IMAGE_JOBS_PER_PLAYER,
      queueMax: e.IMAGE_JOB_QUEUE_MAX,
      timeoutMs: e.IMAGE_JOB_TIMEOUT_MS,
      workSecondsPerMinute: e.IMAGE_WORK_SECONDS_PER_MINUTE,
    } satisfies ImageJobLimits,
    /** Premium features: each one's price, the currency, and PayPal Standard (checkout form and IPN verification). */
    premium: {
      prices: {
        animated: e.PREMIUM_ANIMATED_PRICE,
        glint: e.PREMIUM_GLINT_PRICE,
        dinnerbone: e.PREMIUM_DINNERBONE_PRICE,
      },
      currency: e.PREMIUM_CURRENCY,
      paypal: { url: e.PAYPAL_URL, email: e.PAYPAL_EMAIL || undefined, ipnVerifyUrl: e.PAYPAL_IPN_VERIFY_URL },
      /** Card payments through Stripe Checkout: off until both the secret key and the webhook secret are set. */
      stripe: {
        apiUrl: trimmed(e.STRIPE_API_URL),
        secretKey: e.STRIPE_SECRET_KEY || undefined,
        webhookSecret: e.STRIPE_WEBHOOK_SECRET || undefined,
      },
    },
    /**
     * Payment notifications (PayPal IPN, Stripe webhook) each client address may send to each endpoint per minute (then
     * 429).
     */
    paymentNotificationsPerMinute: e.PAYMENT_NOTIFICATIONS_PER_MINUTE,
    /** How long stored payment notifications are kept before the leftover sweep removes them, in ms. */
    paymentNotificationRetentionMs: e.PAYMENT_NOTIFICATION_RETENTION_DAYS * 24 * 60 * 60_000,
    /** The bearer key of the chat-community bot's API (DISCORD_BOT_KEY); unset refuses every bot call. */
    discordBotKey: e.DISCORD_BOT_KEY || undefined,
    /** The footer's contributors (CONTRIBUTORS): player uuids, in the order the footer lists them. */
    contributors: e.CONTRIBUTORS,
    /** Bot API calls per minute, all together (then 429). */
    botCallsPerMinute: e.BOT_CALLS_PER_MINUTE,
    /**
     * Calls per minute from one address to the bearer-key APIs (bot, game auth server) without a valid key (then 429).
     */
    apiKeyRefusalsPerMinute: e.API_KEY_REFUSALS_PER_MINUTE,
    /** The cape creators' outside services and limits. */
    creators: {
      mojangSessionUrl: trimmed(e.MOJANG_SESSION_URL),
      optifineCapesUrl: trimmed(e.OPTIFINE_CAPES_URL),
      /**
       * An OpenAI-compatible images API; without a URL and key the AI creator uses the built-in pattern generator. An
       * image URL in its answer is fetched only from the API's own host or `imageHosts`.
       */
      ai: {
        apiUrl: e.AI_API_URL ? trimmed(e.AI_API_URL) : undefined,
        apiKey: e.AI_API_KEY || undefined,
        model: e.AI_MODEL,
        imageHosts: e.AI_IMAGE_HOSTS,
      },
      /**
       * Whether an address taken from an outside answer (a skin URL, an image URL) may be loopback or private (local
       * stand-ins).
       */
      allowPrivateAddresses: e.OUTSIDE_URLS_ALLOW_PRIVATE,
      /** Creator requests per player per minute (every creator together). */
      callsPerMinute: e.CREATOR_CALLS_PER_MINUTE,
      /** AI creator prompts per player per hour. */
      aiPromptsPerHour: e.AI_PROMPTS_PER_HOUR,
    },
    /**
     * Where Prometheus reads the metrics: a port of their own (off when unset) and/or /metrics on the main port behind
     * a bearer key.
     */
    metrics: {
      /** A port of their own (METRICS_PORT; 0 picks a free one); undefined serves none. */
      port: e.METRICS_PORT === '' ? undefined : e.METRICS_PORT,
      /** The address that port listens on (METRICS_HOST, loopback by default). */
      host: e.METRICS_HOST,
      /** The bearer key of GET /metrics on the main port (METRICS_KEY); undefined leaves that route out. */
      key: e.METRICS_KEY || undefined,
    },
    /** How long a SIGTERM waits for requests in flight before it cuts their connections, in ms. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    /**
     * The site's own origin, where the browser returns after a payment (PUBLIC_SITE_URL, else the first site origin,
     * else PUBLIC_BASE_URL).
     */
    siteUrl,
  };
}
