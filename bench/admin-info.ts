// The admin dashboard's totals at size: seeds 100,000 players (half wearing a cape, a quarter ears, one in twenty with
// premium) and the counters of 1,000,000 gallery items on SQLite and PostgreSQL, then times GET /api/admin/info over
// HTTP against the real server (a process of its own) and, for comparison, the count(*) queries the totals used before
// migration 0008's counters.
//
//   npx tsx bench/admin-info.ts
//   env USERS (100000), SAMPLES (40), BACKENDS ("sqlite,postgres"), PG_ADMIN_URL
// (postgres://postgres@127.0.0.1:5432/test)
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { ADMIN_GROUP_ID } from '../server/db/users.ts';

const USERS = Number(process.env.USERS ?? 100_000);
const SAMPLES = Number(process.env.SAMPLES ?? 40);
const BACKENDS = (process.env.BACKENDS ?? 'sqlite,postgres').split(',').filter(Boolean);
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PORT = 4396;
const TOKEN = 'admin-info-bench-session';

/** Seeds the players (through the triggers, as real sign-ups do), an admin session and the gallery counters. */
async function seed(db: Db): Promise<void> {
  await migrateToLatest(db);
  const now = Date.now();
  const capeHash = 'c'.repeat(64);
  const earsHash = 'e'.repeat(64);
  await db
    .insertInto('textures')
    .values(
      [capeHash, earsHash].map((hash) => ({
        hash,
        kind: 'cape',
        width: 64,
        height: 32,
        frames: 1,
        bytes: 100,
        created_at: now,
      })),
    )
    .execute();
  for (let start = 0; start < USERS; start += 1000) {
    const rows = [];
    for (let index = start; index < Math.min(USERS, start + 1000); index++) {
      rows.push({
        uuid: randomBytes(16).toString('hex'),
        username: `Player${index}`,
        username_lower: `player${index}`,
        created_at: now,
        cape_hash: index % 2 === 0 ? capeHash : null,
        ears_hash: index % 4 === 0 ? earsHash : null,
        group_id: index === 0 ? ADMIN_GROUP_ID : 1,
      });
    }
    await db.insertInto('users').values(rows).execute();
    const premium = rows
      .filter((_, offset) => (start + offset) % 20 === 0)
      .map((row) => ({ user_uuid: row.uuid, glint: 1 }));
    if (premium.length > 0) await db.insertInto('premium').values(premium).execute();
  }
  const admin = await db
    .selectFrom('users')
    .select('uuid')
    .where('username_lower', '=', 'player0')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('sessions')
    .values({
      id: createHash('sha256').update(TOKEN).digest('hex'),
      user_uuid: admin.uuid,
      created_at: now,
      expires_at: now + 86_400_000,
    })
    .execute();
  // The gallery's counters as 1,000,000 items leave them (the items themselves do not change what the dashboard reads).
  await db
    .insertInto('gallery_counts')
    .values([
      { key: 'type:0', n: 700_000 },
      { key: 'type:1', n: 200_000 },
      { key: 'type:2', n: 100_000 },
    ])
    .execute();
}

/** The p50 and p95 of some timings, in ms. */
function percentiles(times: number[]): { p50: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: sorted[Math.floor(sorted.length * 0.5)]!,
    p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!,
  };
}

/** Times `work` SAMPLES times after 3 warm-up runs. */
async function time(work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let index = 0; index < 3; index++) await work();
  const times = [];
  for (let index = 0; index < SAMPLES; index++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return percentiles(times);
}

/** The totals as they were counted before the counters: a count over the players for each. */
async function countedTotals(db: Db): Promise<unknown> {
  const count = (query: ReturnType<typeof sql<{ n: number }>>) => query.execute(db);
  return Promise.all([
    count(sql<{ n: number }>`SELECT count(*) AS n FROM users`),
    count(sql<{ n: number }>`SELECT count(*) AS n FROM premium WHERE animated = 1 OR glint = 1 OR dinnerbone = 1`),
    count(sql<{ n: number }>`SELECT count(*) AS n FROM users WHERE cape_hash IS NOT NULL`),
    count(sql<{ n: number }>`SELECT count(*) AS n FROM users WHERE ears_hash IS NOT NULL`),
  ]);
}

/** Runs the case on one backend. */
async function run(backend: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-info-bench-'));
  const pgName = `admin_info_bench_${randomBytes(4).toString('hex')}`;
  let databaseUrl = `sqlite:${path.join(dir, 'cloakroom.db')}`;
  if (backend === 'postgres') {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    await client.query(`CREATE DATABASE "${pgName}"`);
    await client.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${pgName}`;
    databaseUrl = url.toString();
  }
  const db = openDatabase(databaseUrl);
  const seedStart = performance.now();
  await seed(db);
  if (backend === 'postgres') await sql`ANALYZE`.execute(db);
  console.log(
    `${backend}: seeded ${USERS.toLocaleString('en-US')} players in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SKIP_SITE_BUILD: 'true',
      SITE_DIR: path.join(dir, 'dist'),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${PORT}/api/admin/info`;
    for (let attempt = 0; ; attempt++) {
      const ready = await fetch(`http://127.0.0.1:${PORT}/api/home`).catch(() => null);
      if (ready?.ok) break;
      if (attempt > 100) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = await (await fetch(url, { headers: { cookie: `session=${TOKEN}` } })).json();
    console.log(`${backend}: ${JSON.stringify(answer)}`);
    const api = await time(async () => {
      const response = await fetch(url, { headers: { cookie: `session=${TOKEN}` } });
      if (response.status !== 200) throw new Error(`GET /api/admin/info answered ${response.status}`);
      await response.arrayBuffer();
    });
    const counted = await time(() => countedTotals(db));
    console.log(
      `${backend}: GET /api/admin/info p50 ${api.p50.toFixed(2)} ms, p95 ${api.p95.toFixed(2)} ms (HTTP, session check included)`,
    );
    console.log(
      `${backend}: the counts it replaced, p50 ${counted.p50.toFixed(2)} ms, p95 ${counted.p95.toFixed(2)} ms (queries alone)`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
    if (backend === 'postgres') {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE "${pgName}" WITH (FORCE)`);
      await client.end();
    }
  }
}

for (const backend of BACKENDS) await run(backend);
