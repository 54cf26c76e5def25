// The plugins and hooks of the site's scope (every route but the mod API and the health checks): security headers,
// compression, cookies, CORS, rate limits, multipart bodies, maintenance mode, and sessions with their XSRF check.
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { auth } from '../auth/plugin.ts';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/database.ts';
import { isApiRequest } from '../http/request-path.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import { rateLimitStore, type WindowCounter } from '../redis/window-counter.ts';
import { PAYMENT_NOTIFICATION_PATHS } from '../routes/premium.ts';

/** Registers the site scope's plugins and hooks on `site`, before its routes. */
export async function registerSitePlugins(
  site: FastifyInstance,
  config: Config,
  db: Db,
  counter: WindowCounter,
): Promise<void> {
  // The site's pages carry their own policy and headers (server/site/static-site.ts); every answer here is data.
  site.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.headers(SECURITY_HEADERS);
  });
  // It leaves answers that already have a Content-Encoding alone: the site's files and pages sent as the build's
  // copies.
  await site.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await site.register(fastifyCookie);
  await site.register(fastifyCors, {
    origin: (origin, callback) => callback(null, !origin || config.siteOrigins.includes(origin)),
    credentials: true,
    allowedHeaders: ['content-type', 'x-xsrf-token', 'x-requested-with', 'accept'],
  });
  await site.register(fastifyRateLimit, { global: false, store: rateLimitStore(counter) });
  // Over-limit files arrive truncated (and are refused with the "too big" message) rather than throwing.
  await site.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: 1_000_000, files: 1, fields: 10 },
  });
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
    xsrfExempt: (url) =>
      url.startsWith('/api/internal/') || url.startsWith('/api/bot/') || PAYMENT_NOTIFICATION_PATHS.includes(url),
    counter,
    keyRefusalsPerMinute: config.apiKeyRefusalsPerMinute,
  });
}
