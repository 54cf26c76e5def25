// What every route group is given: the app's shared services, built once per app (by createAppContext in
// server/setup/create-app-context.ts) and handed to each group as one context object.
import type { Config } from '../config/index.ts';
import type { Creations } from '../creators/creations.ts';
import type { Db } from '../db/database.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureIntake } from '../textures/intake/intake.ts';
import type { AnswerSync } from '../mod/answer-sync.ts';
import type { FastPath } from '../mod/fast-path.ts';
import type { ProfileCache } from '../mod/profiles.ts';
import type { ShowingPlayers } from '../mod/showing-players.ts';
import type { RedisLink } from '../redis/link.ts';
import type { WindowCounter } from '../redis/window-counter.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { Metrics } from './metrics.ts';
import type { StaticSite } from '../site/static-site.ts';

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
  /** Takes every texture in that becomes a player's, a gallery item or a creator's cape. */
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
