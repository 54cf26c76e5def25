// Builds the Fastify app: plugins, hooks and every route group, on a given configuration and database.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { auth } from './auth/plugin.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { handleError, requestPath } from './http/errors.ts';
import { DOCS_PATH, OPENAPI_PATH, registerOpenApi } from './http/openapi.ts';
import { RequestLog } from './http/request-log.ts';
import { useZodSchemas } from './http/route-schemas.ts';
import { accountRoutes } from './routes/account.ts';
import { galleryRoutes } from './routes/gallery.ts';
import { generalRoutes, loadContributors } from './routes/general.ts';
import { countGalleryReferences } from './gallery/items.ts';
import { Redis } from 'ioredis';
import { internalRoutes } from './routes/internal.ts';
import { isModApiPath, modRoutes } from './routes/mod.ts';
import { pageRoutes } from './routes/pages.ts';
import { uploadRoutes } from './routes/upload.ts';
import { createInvalidationBus } from './mod/invalidation.ts';
import { ProfileCache } from './mod/profiles.ts';
import { createBlobStore } from './storage/index.ts';
import { TextureLibrary } from './textures/library.ts';
import { TextureCache } from './textures/texture-cache.ts';

/** A mod API answer slower than this is logged (the mod API logs nothing else but failures). */
const MOD_API_SLOW_MS = 500;
const CONTRIBUTORS_FILE = new URL('../src/content/contributors.json', import.meta.url);

/** Creates the app (not yet listening); closing it closes the database. */
export async function buildApp(config: Config, db: Db): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'] },
    logController: new RequestLog(isModApiPath, MOD_API_SLOW_MS),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });

  // Only the site's files, the CORS preflight and the API description itself stay out of the API description.
  useZodSchemas(app, (url) => url === '/*' || url === '*' || url === OPENAPI_PATH || url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`));
  app.setErrorHandler(handleError);
  app.addHook('onClose', async () => db.destroy());

  const texturesBaseUrl = `${config.publicBaseUrl}/textures`;
  const library = new TextureLibrary(db, createBlobStore(config), new TextureCache(config.textureCacheBytes));
  library.addReferenceCounter(countGalleryReferences);
  const profiles = new ProfileCache(db, texturesBaseUrl, config.profileCacheSize, config.profileCacheTtlMs);
  const bus = await createInvalidationBus(config.redisUrl, (uuid) => profiles.invalidate(uuid));
  app.addHook('onClose', async () => bus.close());

  await registerOpenApi(app, { siteName: config.siteName, publicBaseUrl: config.publicBaseUrl });
  // The mod API sits outside the site's cookies, sessions, CORS-with-credentials and maintenance mode: it is the hot path.
  await app.register(modRoutes, { profiles, library });
  await app.register(async (site) => {
    site.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    await site.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
    await site.register(fastifyCookie);
    await site.register(fastifyCors, {
      origin: (origin, callback) => callback(null, !origin || config.siteOrigins.includes(origin)),
      credentials: true,
      allowedHeaders: ['content-type', 'x-xsrf-token', 'x-requested-with', 'accept'],
    });
    const rateLimitRedis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 }) : undefined;
    if (rateLimitRedis) site.addHook('onClose', async () => rateLimitRedis.disconnect());
    await site.register(fastifyRateLimit, { global: false, redis: rateLimitRedis, nameSpace: 'cloakroom-rate-limit:' });
    // Over-limit files arrive truncated (and are refused with the SPEC message) rather than throwing.
    await site.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: 1_000_000, files: 1, fields: 10 } });
    if (config.maintenance) {
      site.addHook('onRequest', async (request, reply) => {
        if (requestPath(request).startsWith('/api/')) {
          return reply.status(503).send({ error: "We'll be back soon" });
        }
      });
    }
    await site.register(auth, { db, authApiKey: config.authApiKey, xsrfExempt: (url) => url.startsWith('/api/internal/') });
    await site.register(generalRoutes, { db, contributors: loadContributors(CONTRIBUTORS_FILE) });
    await site.register(accountRoutes, { db, config, library, bus });
    await site.register(internalRoutes, { db, bus });
    await site.register(uploadRoutes, { db, library, bus, texturesBaseUrl });
    await site.register(galleryRoutes, { db, library, uploadsPerTenMinutes: config.galleryUploadsPerTenMinutes });
    await site.register(pageRoutes, { config });
  });
  return app;
}
