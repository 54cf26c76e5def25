// The app's shared services, built once per app and handed to every route group as one context object.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/index.ts';
import { Creations } from '../creators/creations.ts';
import type { Db } from '../db/database.ts';
import { createInvalidationBus, type InvalidationBus } from '../events/invalidation.ts';
import { ImageJobs } from '../textures/image-work/image-jobs.ts';
import { TextureIntake } from '../textures/intake/intake.ts';
import { AnswerDirectory } from '../mod/answer-directory.ts';
import { AnswerSync } from '../mod/answer-sync.ts';
import { modFastPath, type FastPath } from '../mod/fast-path.ts';
import { ProfileCache } from '../mod/profiles.ts';
import { ShowingPlayers } from '../mod/showing.ts';
import { connectRedis, type RedisLink } from '../redis/link.ts';
import { sharedWindowCounter, type WindowCounter } from '../redis/window-counter.ts';
import { TextureCache } from '../textures/library/cache.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { createTextureLibrary } from './create-library.ts';
import type { LogOutput } from './log-output.ts';
import { Metrics } from './metrics.ts';
import { openStaticSite, type StaticSite } from '../site/static-site.ts';

/** An answer file error is logged at most this often (the first one at once). */
const ANSWER_FILE_ERROR_LOG_MS = 60_000;

/** What every route group is given: the configuration and the services the app shares. */
export interface AppContext {
  config: Config;
  db: Db;
  /**
   * The process's one texture library: whatever releases a texture through it also drops the texture's cached bytes and
   * answer file.
   */
  library: TextureLibrary;
  imageJobs: ImageJobs;
  profiles: ProfileCache;
  showing: ShowingPlayers;
  metrics: Metrics;
  /** Redis, when configured: used while it is reachable; the server starts and serves without it. */
  redis: RedisLink | undefined;
  counter: WindowCounter;
  bus: InvalidationBus;
  /** Takes every texture in that becomes a player's, a gallery item or a made cape. */
  intake: TextureIntake;
  /** The creations made, stored and remembered (one for every creator, so they share the cache). */
  creations: Creations;
  /** Keeps the mod API's answers (memory and files) in step with the database. */
  answerSync: AnswerSync;
  /** The mod API's fast path in front of the app's routes. */
  fastPath: FastPath;
  /** The built site, served as its host rules say. */
  site: StaticSite;
}

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
