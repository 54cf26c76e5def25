// Mod API load test: /profile/{uuid} for random players among 10,000, against a bare Fastify route, with autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { migrateToLatest, openDatabase } from '../server/db/database.ts';

const PLAYERS = Number(process.env.PLAYERS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 10);
const PORT = 4392;
const BARE_PORT = 4393;

/** Fills a fresh database with players, about half of them with a cape and a quarter with ears. */
async function seed(databaseUrl: string): Promise<string[]> {
  const db = openDatabase(databaseUrl);
  await migrateToLatest(db);
  const uuids: string[] = [];
  const now = Date.now();
  for (let start = 0; start < PLAYERS; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(start + 500, PLAYERS); i++) {
      const uuid = i.toString(16).padStart(32, '0');
      uuids.push(uuid);
      const hash = (i % 2 === 0 ? i : 0).toString(16).padStart(64, 'a');
      rows.push({
        uuid,
        username: `Player${i}`,
        username_lower: `player${i}`,
        created_at: now,
        cape_hash: i % 2 === 0 ? hash : null,
        ears_hash: i % 4 === 0 ? hash : null,
      });
    }
    await db.insertInto('users').values(rows).execute();
  }
  await db.destroy();
  return uuids;
}

/** Starts the real server in its own process and waits until it answers. */
async function startServer(dataDir: string, databaseUrl: string): Promise<ChildProcess> {
  const child = spawn('npx', ['tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SKIP_SITE_BUILD: 'true', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/home`)).ok) return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error('server did not start');
}

/** Runs autocannon against a URL chooser; returns requests per second and latency percentiles. */
async function load(port: number, pathFor: () => string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pathFor() }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-bench-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'bench.db')}`;
const uuids = await seed(databaseUrl);
const server = await startServer(dataDir, databaseUrl);
const bare = Fastify();
bare.get('/bare', async () => ({ capeGlint: false, upsideDown: false, animatedCape: false, cape_url: null, animated_cape_url: null, ear_url: null }));
await bare.listen({ port: BARE_PORT, host: '127.0.0.1' });
try {
  const randomProfile = () => `/profile/${uuids[Math.floor(Math.random() * uuids.length)]}`;
  await load(PORT, randomProfile); // warm-up: every player gets seen once
  const bareResult = await load(BARE_PORT, () => '/bare');
  const profileResult = await load(PORT, randomProfile);
  const ratio = profileResult.rps / bareResult.rps;
  console.log(`players ${PLAYERS}, connections ${CONNECTIONS}, ${DURATION_S} s each, database ${databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`);
  console.log(`bare Fastify route : ${bareResult.rps.toFixed(0)} req/s, p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms`);
  console.log(
    `/profile/{uuid}    : ${profileResult.rps.toFixed(0)} req/s, p50 ${profileResult.p50} ms, p99 ${profileResult.p99} ms, errors ${profileResult.errors}, non-2xx ${profileResult.non2xx}`,
  );
  console.log(
    `ratio ${(ratio * 100).toFixed(1)} % (goal ≥ 80 %), p99 ${profileResult.p99} ms (goal < 15 ms): ${ratio >= 0.8 && profileResult.p99 < 15 ? 'PASS' : 'FAIL'}`,
  );
} finally {
  await bare.close();
  process.kill(-server.pid!, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
