// Builds the Fastify app: plugins, hooks and every route group, on a given configuration and database.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { auth } from './auth/plugin.ts';
import { trustProxyOption, type Config } from './config.ts';
import type { Db } from './db/database.ts';
import { handleError } from './http/errors.ts';
import { isApiRequest } from './http/request-path.ts';
import { pageSecurityHeaders, SECURITY_HEADERS, siteInlineScriptHashes } from './http/security-headers.ts';
import { DOCS_PATH, OPENAPI_PATH, registerOpenApi } from './http/openapi.ts';
import { RequestLog } from './http/request-log.ts';
import { useZodSchemas } from './http/route-schemas.ts';
import { accountRoutes } from './routes/account.ts';
import { adminAiCapeLogRoutes } from './routes/admin/ai-cape-logs.ts';
import { adminAuditRoutes } from './routes/admin/audit.ts';
import { adminBanRoutes } from './routes/admin/bans.ts';
import { adminDashboardRoutes } from './routes/admin/dashboard.ts';
import { adminGalleryReportRoutes } from './routes/admin/gallery-reports.ts';
import { adminPlayerRoutes } from './routes/admin/players.ts';
import { adminRegistrationRoutes } from './routes/admin/registration.ts';
import { adminUserReportRoutes } from './routes/admin/user-reports.ts';
import { adminWhitelistRoutes } from './routes/admin/whitelist.ts';
import { PAYMENT_NOTIFICATION_PATHS, premiumRoutes } from './routes/premium.ts';
import { boostRoutes } from './routes/boost.ts';
import { botRoutes } from './routes/bot.ts';
import { aiCreatorRoutes } from './routes/creators/ai.ts';
import { animatedCreatorRoutes } from './routes/creators/animated.ts';
import { bannerCreatorRoutes } from './routes/creators/banner.ts';
import { creationRoutes } from './routes/creators/creations.ts';
import { headCreatorRoutes } from './routes/creators/head.ts';
import { imageCreatorRoutes } from './routes/creators/image.ts';
import { optifineCreatorRoutes } from './routes/creators/optifine.ts';
import { galleryRoutes } from './routes/gallery.ts';
import { galleryWearRoutes } from './routes/gallery-wear.ts';
import { generalRoutes } from './routes/general.ts';
import { internalRoutes } from './routes/internal.ts';
import { isModApiPath, modRoutes } from './routes/mod.ts';
import { isHealthCheckPath, METRICS_PATH, operationsRoutes } from './routes/operations.ts';
import { pageRoutes } from './routes/pages.ts';
import { uploadRoutes } from './routes/upload.ts';
import { userRoutes } from './routes/users.ts';
import { createInvalidationBus } from './events/invalidation.ts';
import { UNMATCHED_ROUTE } from './http/request-durations.ts';
import { Metrics } from './operations/metrics.ts';
import { modFastPath } from './mod/fast-path.ts';
import { ProfileCache } from './mod/profiles.ts';
import { AnswerDirectory } from './mod/answer-directory.ts';
import { AnswerSync } from './mod/answer-sync.ts';
import { ShowingPlayers } from './mod/showing.ts';
import { connectRedis } from './redis/link.ts';
import { rateLimitStore, sharedWindowCounter } from './redis/window-counter.ts';
import { createTextureLibrary } from './operations/create-library.ts';
import type { TextureLibrary } from './textures/library/texture-library.ts';
import { Creations } from './creators/creations.ts';
import { ImageJobs } from './images/job-queue.ts';
import { TextureCache } from './textures/library/cache.ts';

/** A mod API answer (or health check) slower than this is logged (they log nothing else but failures). */
const MOD_API_SLOW_MS = 500;
/** While the app closes, how often connections that went idle (a kept-alive connection whose request just finished) are closed. */
const IDLE_REAP_INTERVAL_MS = 50;

/** The admin pages' route files, one per page group, in the order they register. */
const ADMIN_ROUTES = [
  adminDashboardRoutes,
  adminRegistrationRoutes,
  adminBanRoutes,
  adminPlayerRoutes,
  adminWhitelistRoutes,
  adminAiCapeLogRoutes,
  adminUserReportRoutes,
  adminGalleryReportRoutes,
  adminAuditRoutes,
];

/** The cape creators' route files (one per generator) and the made capes' preview, wear and share calls, in the order they register. */
const CREATOR_ROUTES = [
  imageCreatorRoutes,
  animatedCreatorRoutes,
  headCreatorRoutes,
  optifineCreatorRoutes,
  bannerCreatorRoutes,
  aiCreatorRoutes,
  creationRoutes,
];

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics (and the port that serves them, when METRICS_PORT is set). */
    metrics: Metrics;
    /** The process's one texture library: whatever releases a texture through it also drops the texture's cached bytes and answer file. */
    textureLibrary: TextureLibrary;
  }
}

/** Creates the app (not yet listening; the metrics port opens when it is ready); closing it closes the database, Redis and the image workers. */
export async function buildApp(config: Config, db: Db): Promise<FastifyInstance> {
  const texturesBaseUrl = `${config.publicBaseUrl}/textures`;
  const library = createTextureLibrary(config, db, new TextureCache(config.textureCacheBytes));
  const profiles = new ProfileCache(db, texturesBaseUrl, config.profileCacheSize, config.profileCacheTtlMs);
  const imageJobs = new ImageJobs(config.imageJobs);
  const metricsServed = config.metrics.port !== undefined || config.metrics.key !== undefined;
  const metrics = new Metrics({ profiles, imageJobs }, { processMetrics: metricsServed });
  const showing = new ShowingPlayers();
  // Told of the first answer file that could not be written or removed, then of at most one a minute.
  let answerFileErrorLoggedAt = -Infinity;
  const answerDirectory = config.answerFilesDir
    ? new AnswerDirectory(config.answerFilesDir, (error) => {
        if (Date.now() - answerFileErrorLoggedAt < 60_000) return;
        answerFileErrorLoggedAt = Date.now();
        app.log.error({ err: error }, 'an answer file for nginx could not be written or removed');
      })
    : undefined;
  const answerSync = new AnswerSync({
    db,
    profiles,
    showing,
    library,
    imageJobs,
    texturesBaseUrl,
    directory: answerDirectory,
    catchUpMs: config.modCatchUpMs,
    onError: (error) => app.log.error({ err: error }, 'a mod API change could not be handled (the next catch-up handles it again)'),
    onInfo: (message) => app.log.info(message),
  });
  const fastPath = modFastPath(profiles, showing, library, metrics.requests);
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'] },
    logController: new RequestLog((url) => isModApiPath(url) || isHealthCheckPath(url), MOD_API_SLOW_MS),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(config.trustProxy),
    // While shutting down, a request that still arrives on a kept-alive connection is answered (with `Connection: close`)
    // rather than refused with 503: a load balancer would pass that 503 on, and the database stays open until the end.
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    // The server is made here (as Fastify would make it) so that cached mod API answers skip the framework altogether.
    serverFactory: (handler) => {
      const server = http.createServer(
        {
          headersTimeout: config.timeouts.requestMs > 0 ? Math.min(config.timeouts.headersMs, config.timeouts.requestMs) : config.timeouts.headersMs,
          // How often Node looks for requests past those timeouts (its default, 30 s, would let a slow client stay that long).
          connectionsCheckingInterval: Math.max(100, Math.min(1000, config.timeouts.headersMs || 1000)),
        },
        (request, response) => {
          if (!fastPath(request, response)) handler(request, response);
        },
      );
      server.requestTimeout = config.timeouts.requestMs;
      server.keepAliveTimeout = config.timeouts.keepAliveMs;
      return server;
    },
  });
  app.decorate('modFastPath', fastPath);
  app.decorate('metrics', metrics);
  app.decorate('textureLibrary', library);
  // Every request Fastify answers, by the route it matched (the fast path records its own answers).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requests.observe(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  let idleReaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    fastPath.stop();
    // Closing the server closes the connections idle at that moment; one whose request is in flight would stay open
    // after its answer until the keep-alive timeout (72 s) and hold the close that long. Reap them as they go idle.
    idleReaper = setInterval(() => app.server.closeIdleConnections(), IDLE_REAP_INTERVAL_MS);
    idleReaper.unref();
  });
  app.addHook('onClose', async () => clearInterval(idleReaper));
  if (config.metrics.port !== undefined) {
    const { port, host } = config.metrics;
    app.addHook('onReady', async () => {
      await metrics.listen(port, host);
      app.log.info({ address: metrics.address() }, 'metrics listening');
    });
  }
  app.addHook('onClose', async () => metrics.close());
  for (const warning of config.warnings) app.log.warn(warning);

  // Only the site's files, the CORS preflight, the API description itself and the metrics stay out of the API description.
  useZodSchemas(
    app,
    (url) => url === '/*' || url === '*' || url === OPENAPI_PATH || url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`) || url === METRICS_PATH,
  );
  app.setErrorHandler(handleError);
  app.addHook('onClose', async () => db.destroy());
  app.addHook('onClose', async () => imageJobs.close());
  // Redis, when configured, is used while it is reachable; the server starts and serves without it.
  const redis = config.redisUrl ? connectRedis(config.redisUrl, app.log) : undefined;
  const counter = sharedWindowCounter(redis, config.redisPrefix);
  const bus = createInvalidationBus(
    db,
    redis,
    `${config.redisPrefix}mod-changes`,
    (notice) => answerSync.handle(notice),
    (error) => app.log.error({ err: error }, 'a change notice could not be handled'),
  );
  // Every texture registered or released is a change to the mod API's answers (its files, every process's memory).
  library.onStored((hash) => bus.publish(hash));
  library.onRemoved((hash) => bus.publish(hash));
  // Before the server listens: which players have something to show, and the answer files up to date.
  app.addHook('onReady', async () => answerSync.start());
  app.addHook('onClose', async () => {
    await answerSync.stop();
    await bus.close();
    redis?.close();
  });
  const pageHeaders = pageSecurityHeaders({
    inlineScriptHashes: siteInlineScriptHashes(config.siteDir),
    apiOrigin: config.apiOrigin,
    textureOrigin: new URL(config.publicBaseUrl).origin,
    adScriptOrigin: config.adScriptOrigin,
    checkoutOrigin: new URL(config.premium.paypal.url).origin,
  });

  await registerOpenApi(app, { siteName: config.siteName, publicBaseUrl: config.publicBaseUrl });
  // The mod API sits outside the site's cookies, sessions, CORS-with-credentials and maintenance mode: it is the hot path.
  await app.register(modRoutes, { profiles, showing, library, imageJobs });
  // The health checks and the keyed metrics, outside the site's hooks and maintenance mode too.
  await app.register(operationsRoutes, { db, store: library.store, redis, metrics, metricsKey: config.metrics.key });
  await app.register(async (site) => {
    site.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
      const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
      reply.headers(isPage ? pageHeaders : SECURITY_HEADERS);
    });
    // It leaves answers that already have a Content-Encoding alone: the site's files and pages sent as the build's copies.
    await site.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
    await site.register(fastifyCookie);
    await site.register(fastifyCors, {
      origin: (origin, callback) => callback(null, !origin || config.siteOrigins.includes(origin)),
      credentials: true,
      allowedHeaders: ['content-type', 'x-xsrf-token', 'x-requested-with', 'accept'],
    });
    await site.register(fastifyRateLimit, { global: false, store: rateLimitStore(counter) });
    // Over-limit files arrive truncated (and are refused with the "too big" message) rather than throwing.
    await site.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: 1_000_000, files: 1, fields: 10 } });
    if (config.maintenance) {
      site.addHook('onRequest', async (request, reply) => {
        if (isApiRequest(request)) {
          return reply.status(503).send({ error: "We'll be back soon" });
        }
      });
    }
    await site.register(auth, {
      db,
      authApiKey: config.authApiKey,
      botApiKey: config.discordBotKey,
      xsrfExempt: (url) => url.startsWith('/api/internal/') || url.startsWith('/api/bot/') || PAYMENT_NOTIFICATION_PATHS.includes(url),
      counter,
      keyRefusalsPerMinute: config.apiKeyRefusalsPerMinute,
    });
    await site.register(generalRoutes, { db, contributors: config.contributors });
    await site.register(accountRoutes, { db, config, library, bus, counter, metrics });
    await site.register(internalRoutes, { db, bus });
    await site.register(userRoutes, { db, profiles });
    const adminOptions = { db, bus, library, imageJobs, profiles, lookup: config };
    for (const adminRoutes of ADMIN_ROUTES) await site.register(adminRoutes, adminOptions);
    const wearOptions = { db, library, bus, imageJobs, publicBaseUrl: config.publicBaseUrl, uploadsPerTenMinutes: config.textureUploadsPerTenMinutes };
    await site.register(uploadRoutes, { ...wearOptions, metrics });
    await site.register(galleryWearRoutes, wearOptions);
    await site.register(galleryRoutes, {
      db,
      library,
      imageJobs,
      uploadsPerTenMinutes: config.galleryUploadsPerTenMinutes,
      downloadsPerMinute: config.galleryDownloadsPerMinute,
      metrics,
    });
    const creatorOptions = {
      db,
      library,
      bus,
      imageJobs,
      creations: new Creations(db, library, imageJobs, config.sweepGraceMs),
      publicBaseUrl: config.publicBaseUrl,
      mojangApiUrl: config.mojangApiUrl,
      creators: config.creators,
      uploadsPerTenMinutes: config.textureUploadsPerTenMinutes,
      galleryUploadsPerTenMinutes: config.galleryUploadsPerTenMinutes,
      apiBaseUrl: config.apiOrigin ?? new URL(config.siteUrl).origin,
    };
    for (const creatorRoutes of CREATOR_ROUTES) await site.register(creatorRoutes, creatorOptions);
    await site.register(premiumRoutes, { db, bus, config });
    await site.register(boostRoutes, { db, bus });
    await site.register(botRoutes, { db, bus, callsPerMinute: config.botCallsPerMinute });
    await site.register(pageRoutes, { config });
  });
  return app;
}
