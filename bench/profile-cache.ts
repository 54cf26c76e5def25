// The profile cache at a million players: the memory each cached player takes, the hit ratio under a skewed (Zipf-like)
// pattern of requests at the default cache size and lifetime, and the time of a cold miss (a profile loaded from the
// database) on SQLite and on PostgreSQL. See bench/README.md, "Mod API at the speed of a file".
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'kysely';
import { loadConfig } from '../server/config/index.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { ProfileCache } from '../server/mod/profiles.ts';
import { LocalBlobStore } from '../server/storage/local-store.ts';
import { TextureLibrary } from '../server/textures/library/texture-library.ts';
import { backends } from '../support/backends.ts';
import { makeCapes, seed } from './mod-seed.ts';
import { loadAverage, thousands } from './wrk.ts';
import { zipfSampler } from './zipf.ts';

const PLAYERS = Number(process.env.PLAYERS ?? 1_000_000);
/** Players loaded into a cache to weigh it (a quarter of a million is enough for a steady figure per player). */
const WEIGHED = Number(process.env.WEIGHED ?? 250_000);
/** Cold misses timed on each database, one after the other. */
const COLD_MISSES = Number(process.env.COLD_MISSES ?? 5_000);
/** The simulated traffic: requests per second, for how long, and the Zipf exponent of the players' popularity. */
const REQUESTS_PER_S = Number(process.env.REQUESTS_PER_S ?? 1_000);
const SIMULATED_S = Number(process.env.SIMULATED_S ?? 900);
const ZIPF_S = Number(process.env.ZIPF_S ?? 1);
/** Cache sizes whose hit ratio is simulated besides the default one. */
const OTHER_SIZES = (process.env.OTHER_SIZES ?? '100000,250000').split(',').filter(Boolean).map(Number);

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** The heap in use after a full collection, in bytes. */
function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** A percentile of sorted numbers. */
const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;

/**
 * Times `count` cold misses (players never asked for before, at random) one after the other; returns p50, p99 and max
 * in ms.
 */
async function coldMisses(db: Db, uuids: string[], count: number): Promise<{ p50: number; p99: number; max: number }> {
  const cache = new ProfileCache(db, 'http://127.0.0.1/textures', PLAYERS);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const uuid = uuids[Math.floor(Math.random() * uuids.length)]!;
    const start = performance.now();
    const profile = await cache.get(uuid);
    times.push(performance.now() - start);
    if (!profile) throw new Error(`no profile for ${uuid}`);
    cache.invalidate(uuid);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: times.at(-1)! };
}

/**
 * Replays simulated traffic on a cache of `size` players with the default lifetime; returns the hit ratio after the
 * first lifetime (a warm cache).
 */
async function hitRatio(
  db: Db,
  uuids: string[],
  size: number,
  ttlMs: number,
): Promise<{ ratio: number; cached: number }> {
  const start = Date.now();
  const cache = new ProfileCache(db, 'http://127.0.0.1/textures', size, ttlMs);
  const next = zipfSampler(uuids.length, ZIPF_S);
  const requests = REQUESTS_PER_S * SIMULATED_S;
  let warmHits = 0;
  let warmMisses = 0;
  for (let i = 0; i < requests; i++) {
    const now = start + (i * 1000) / REQUESTS_PER_S;
    const [hits, misses] = [cache.hits, cache.misses];
    await cache.get(uuids[next()]!, now);
    if (now - start >= ttlMs) {
      warmHits += cache.hits - hits;
      warmMisses += cache.misses - misses;
    }
  }
  return { ratio: warmHits / Math.max(1, warmHits + warmMisses), cached: cache.size };
}

/**
 * Inserts `count` players on PostgreSQL with one statement (half with a cape, a quarter with ears); returns their
 * uuids.
 */
async function seedPostgres(db: Db, dataDir: string, count: number): Promise<string[]> {
  await migrateToLatest(db);
  const library = new TextureLibrary(db, new LocalBlobStore(path.join(dataDir, 'textures')));
  const hashes: string[] = [];
  for (const bytes of await makeCapes(8)) {
    hashes.push(
      await library.put(
        { bytes, hash: createHash('sha256').update(bytes).digest('hex'), width: 256, height: 128, frames: 1 },
        'cape',
      ),
    );
  }
  const hashArray = `{${hashes.join(',')}}`;
  // Without the counting triggers (a row each, minutes for a million): the counts are not what this measures.
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await sql`INSERT INTO users (uuid, username, username_lower, created_at, cape_hash, ears_hash)
      SELECT md5(i::text), 'Player' || i, 'player' || i, ${Date.now()},
        CASE WHEN i % 2 = 0 THEN (${hashArray}::text[])[1 + i % 8] END,
        CASE WHEN i % 4 = 0 THEN (${hashArray}::text[])[1 + (i + 1) % 8] END
      FROM generate_series(0, ${count - 1}) AS i`.execute(trx);
  });
  await sql`ANALYZE users`.execute(db);
  return Array.from({ length: count }, (_, i) => createHash('md5').update(String(i)).digest('hex'));
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-profile-cache-bench-'));
const config = loadConfig({});
const postgres = await backends.find((backend) => backend.name === 'postgres')!.createDatabase();
try {
  console.log(
    `Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}; defaults: PROFILE_CACHE_SIZE ${thousands(config.profileCacheSize)}, PROFILE_CACHE_TTL_S ${config.profileCacheTtlMs / 1000}`,
  );
  const seedStart = Date.now();
  const sqliteFile = path.join(dir, 'data', 'bench.db');
  const { uuids } = await seed(path.join(dir, 'data'), sqliteFile, PLAYERS, await makeCapes(8));
  const sqliteDb = openDatabase(`sqlite:${sqliteFile}`);
  const postgresDb = openDatabase(postgres.url);
  const postgresUuids = await seedPostgres(postgresDb, path.join(dir, 'pg-data'), PLAYERS);
  console.log(
    `Seeded ${thousands(PLAYERS)} players (half with a cape, a quarter with ears) on SQLite and PostgreSQL in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`,
  );

  for (const [name, db, ids] of [
    ['SQLite', sqliteDb, uuids],
    ['PostgreSQL', postgresDb, postgresUuids],
  ] as const) {
    await coldMisses(db, ids, 200); // warm-up: connections, prepared statements
    const cold = await coldMisses(db, ids, COLD_MISSES);
    console.log(
      `Cold miss on ${name} (${thousands(COLD_MISSES)} random players, one at a time): p50 ${cold.p50.toFixed(3)} ms, p99 ${cold.p99.toFixed(3)} ms, max ${cold.max.toFixed(1)} ms (load average ${loadAverage()})`,
    );
  }

  const before = heapAfterGc();
  const weighed = new ProfileCache(sqliteDb, `${config.publicBaseUrl}/textures`, PLAYERS);
  for (let i = 0; i < WEIGHED; i++) await weighed.get(uuids[i]!);
  const perPlayer = (heapAfterGc() - before) / weighed.size;
  console.log(
    `Memory: ${thousands(weighed.size)} cached players take ${thousands(perPlayer)} B each on the heap (${((perPlayer * config.profileCacheSize) / 1024 / 1024).toFixed(0)} MB at the default size of ${thousands(config.profileCacheSize)})`,
  );

  console.log(
    `\nHit ratio: ${thousands(REQUESTS_PER_S)} requests/s for ${SIMULATED_S} s (simulated clock) over ${thousands(PLAYERS)} players, Zipf exponent ${ZIPF_S}, counted after the first ${config.profileCacheTtlMs / 1000} s`,
  );
  for (const size of [config.profileCacheSize, ...OTHER_SIZES]) {
    const { ratio, cached } = await hitRatio(sqliteDb, uuids, size, config.profileCacheTtlMs);
    console.log(
      `  cache of ${thousands(size).padStart(9)} players: hit ratio ${(ratio * 100).toFixed(1)}%, ${thousands(cached)} cached at the end`,
    );
  }
  console.log(`\n(load average at the end ${loadAverage()})`);
  await sqliteDb.destroy();
  await postgresDb.destroy();
} finally {
  await postgres.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}
