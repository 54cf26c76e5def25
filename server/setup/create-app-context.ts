// Builds the app's shared services once per app, as the one context object every route group is given (its type,
// AppContext, is in server/operations/app-context.ts, where the routes import it from).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/index.ts';
import { Creations } from '../creators/creations.ts';
import type { Db } from '../db/database.ts';
import { createInvalidationBus } from '../events/invalidation.ts';
import { ImageJobs } from '../textures/image-work/image-jobs.ts';
import { TextureIntake } from '../textures/intake/intake.ts';
import { AnswerDirectory } from '../mod/answer-directory.ts';
import { AnswerSync } from '../mod/answer-sync.ts';
import { modFastPath } from '../mod/fast-path.ts';
import { ProfileCache } from '../mod/profiles.ts';
import { ShowingPlayers } from '../mod/showing-players.ts';
import { connectRedis } from '../redis/link.ts';
import { sharedWindowCounter } from '../redis/window-counter.ts';
import { TextureCache } from '../textures/library/cache.ts';
import type { AppContext } from '../operations/app-context.ts';
import { createTextureLibrary } from '../operations/create-library.ts';
import type { LogOutput } from '../operations/log-output.ts';
import { Metrics } from '../operations/metrics.ts';
import { openStaticSite } from '../site/static-site.ts';

/** An answer file error is logged at most this often (the first one at once). */
const ANSWER_FILE_ERROR_LOG_MS = 60_000;

/** A logger of an answer file error that logs the first one, then at most one a minute. */
function answerFileErrorLog(log: FastifyBaseLogger): (error: unknown) => void {
  let loggedAt = -Infinity;
  return (error) => {
    if (Date.now() - loggedAt < ANSWER_FILE_ERROR_LOG_MS) return;
    loggedAt = Date.now();
    log.error({ err: error }, 'an answer file for nginx could not be written or removed');
  };
}

/**
 * Builds the app's shared services on a configuration and database, logging to `log`; the metrics count the lines
 * `output` dropped.
 */
export function createAppContext(config: Config, db: Db, log: FastifyBaseLogger, output?: LogOutput): AppContext {
  const texturesBaseUrl = `${config.publicBaseUrl}/textures`;
  const library = createTextureLibrary(config, db, new TextureCache(config.textureCacheBytes));
  const profiles = new ProfileCache(db, texturesBaseUrl, config.profileCacheSize, config.profileCacheTtlMs);
  const imageJobs = new ImageJobs(config.imageJobs);
  const metricsServed = config.metrics.port !== undefined || config.metrics.key !== undefined;
  const metrics = new Metrics({ profiles, imageJobs, log: output }, { processMetrics: metricsServed });
  const showing = new ShowingPlayers();
  const answerSync = new AnswerSync({
    db,
    profiles,
    showing,
    library,
    imageJobs,
    texturesBaseUrl,
    directory: config.answerFilesDir ? new AnswerDirectory(config.answerFilesDir, answerFileErrorLog(log)) : undefined,
    catchUpMs: config.modCatchUpMs,
    onError: (error) =>
      log.error({ err: error }, 'a mod API change could not be handled (the next catch-up handles it again)'),
    onInfo: (message) => log.info(message),
  });
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : undefined;
  const bus = createInvalidationBus(
    db,
    redis,
    `${config.redisPrefix}mod-changes`,
    (notice) => answerSync.handle(notice),
    (error) => log.error({ err: error }, 'a change notice could not be handled'),
    { distinctSeconds: config.answerFilesDir !== undefined },
  );
  const intake = new TextureIntake({ db, library, bus, imageJobs, config, uploads: metrics });
  return {
    config,
    db,
    library,
    imageJobs,
    profiles,
    showing,
    metrics,
    redis,
    counter: sharedWindowCounter(redis, config.redisPrefix),
    bus,
    intake,
    creations: new Creations({ db, library, imageJobs, intake }, config.sweepGraceMs),
    answerSync,
    fastPath: modFastPath(profiles, showing, library, metrics.requests),
    site: openStaticSite(config.siteDir),
  };
}
