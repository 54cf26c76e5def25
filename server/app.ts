// Builds the Fastify app on a given configuration and database: the shared services, the hooks, and every route group.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config/index.ts';
import type { Db } from './db/database.ts';
import { handleError } from './http/errors.ts';
import { DOCS_PATH, OPENAPI_PATH, registerOpenApi } from './http/openapi.ts';
import { useZodSchemas } from './http/route-schemas.ts';
import type { AppContext } from './operations/app-context.ts';
import type { LogOutput } from './operations/log-output.ts';
import type { Metrics } from './operations/metrics.ts';
import { accountRoutes } from './routes/account.ts';
import { adminRoutes } from './routes/admin/index.ts';
import { appRoutes } from './routes/apps.ts';
import { boostRoutes } from './routes/boost.ts';
import { botRoutes } from './routes/bot.ts';
import { creatorRoutes } from './routes/creators/index.ts';
import { galleryRoutes } from './routes/gallery.ts';
import { galleryWearRoutes } from './routes/gallery-wear.ts';
import { wardrobeRoutes } from './routes/wardrobe.ts';
import { generalRoutes } from './routes/general.ts';
import { gameAuthServerRoutes } from './routes/game-auth-server.ts';
import { modRoutes } from './routes/mod.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { METRICS_PATH, operationsRoutes } from './routes/operations.ts';
import { pageRoutes } from './routes/pages.ts';
import { premiumRoutes } from './routes/premium.ts';
import { uploadRoutes } from './routes/upload.ts';
import { userRoutes } from './routes/users.ts';
import { followChanges } from './setup/change-events.ts';
import { createAppContext } from './setup/create-app-context.ts';
import { closeIdleConnectionsOnClose } from './setup/idle-connections.ts';
import { serveMetrics } from './setup/request-metrics.ts';
import { appRoutePaths, pageFastPath } from './setup/page-fast-path.ts';
import { serverOptions } from './setup/server-options.ts';
import { registerSitePlugins } from './setup/site-plugins.ts';
import type { TextureLibrary } from './textures/library/texture-library.ts';

/** The site's route groups (every route but the mod API and the health checks), in the order they register. */
const SITE_ROUTE_GROUPS = [
  generalRoutes,
  accountRoutes,
  gameAuthServerRoutes,
  userRoutes,
  adminRoutes,
  uploadRoutes,
  galleryRoutes,
  galleryWearRoutes,
  wardrobeRoutes,
  oauthRoutes,
  appRoutes,
  creatorRoutes,
  premiumRoutes,
  boostRoutes,
  botRoutes,
  pageRoutes,
];

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics (and the port that serves them, when METRICS_PORT is set). */
    metrics: Metrics;
    /**
     * The process's one texture library: whatever releases a texture through it also drops the texture's cached bytes
     * and answer file.
     */
    textureLibrary: TextureLibrary;
  }
}

/**
 * Creates the app (not yet listening; the metrics port opens when it is ready), logging to `log` when given (else to
 * stdout as pino writes it); closing it closes the database, Redis and the image workers.
 */
export async function buildApp(config: Config, db: Db, log?: LogOutput): Promise<FastifyInstance> {
  // The fast path is one of the services, made once the app's logger exists; the server only calls it once it listens.
  const app = Fastify(
    serverOptions(config, (request, response) => context.fastPath(request, response) || pages(request, response), log),
  );
  const context: AppContext = createAppContext(config, db, app.log, log);
  const pages = pageFastPath(context.site, context.metrics.requests, appRoutePaths(app));
  if (!context.site.built)
    app.log.warn({ siteDir: config.siteDir }, 'the site has not been built; pages will answer 404');
  app.decorate('modFastPath', context.fastPath);
  app.decorate('metrics', context.metrics);
  app.decorate('textureLibrary', context.library);
  closeIdleConnectionsOnClose(app, [context.fastPath, pages]);
  serveMetrics(app, context.metrics, config.metrics);
  for (const warning of config.warnings) app.log.warn(warning);

  // Only the site's files, the CORS preflight, the API description itself and the metrics stay out of the API
  // description.
  useZodSchemas(
    app,
    (url) =>
      url === '/*' ||
      url === '*' ||
      url === OPENAPI_PATH ||
      url === DOCS_PATH ||
      url.startsWith(`${DOCS_PATH}/`) ||
      url === METRICS_PATH,
  );
  app.setErrorHandler(handleError);
  app.addHook('onClose', async () => db.destroy());
  app.addHook('onClose', async () => context.imageJobs.close());
  followChanges(app, context);

  await registerOpenApi(app, { siteName: config.siteName, publicBaseUrl: config.publicBaseUrl });
  // The mod API sits outside the site's cookies, sessions, CORS-with-credentials and maintenance mode: it is the hot
  // path.
  await app.register(modRoutes, context);
  // The health checks and the keyed metrics, outside the site's hooks and maintenance mode too.
  await app.register(operationsRoutes, context);
  await app.register(async (site) => {
    await registerSitePlugins(site, config, db, context.counter);
    for (const routes of SITE_ROUTE_GROUPS) await site.register(routes, context);
  });
  return app;
}
