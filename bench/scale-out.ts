// Scale-out load test: /profile/{uuid} and /textures/{hash} through nginx (deploy/nginx/cloakroom.conf, which serves
// them from the answer directory the processes build and keep) over two server processes on PostgreSQL, Redis and S3,
// against nginx serving the same bytes from a file, and one process alone; each in processes of its own, loaded by wrk
// (a process of its own), in interleaved rounds, with the CPU time per request of every process behind each target. See
// bench/README.md, "Scale-out"; bench/mod-answers.ts measures the answer directory's every layout and unknown players.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { S3BlobStore } from '../server/storage/index.ts';
import { TextureLibrary } from '../server/textures/library/texture-library.ts';
import { startAppProcess, type AppProcess } from '../support/app-process.ts';
import { postgresBackend, type TestDatabase } from '../support/backends.ts';
import { requireNginx, startNginx, type RunningNginx } from '../support/nginx.ts';
import { startS3rver, type RunningS3rver } from '../support/s3rver.ts';
import { cpuPerRequest, pinTreeToCore } from './processes.ts';
import { runWrk, roundRatio, median, thousands, loadAverage } from './wrk.ts';
import { modFilesNginxConfig, startBenchNginx, type BenchNginx } from './baseline-nginx.ts';

const PLAYERS = Number(process.env.PLAYERS ?? 10_000);
/** The players asked for again and again (the first case), of those with a cape. */
const HOT_PLAYERS = Number(process.env.HOT_PLAYERS ?? 100);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 10);
const WARMUP_S = Number(process.env.WARMUP ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** nginx worker processes, the same for the proxy and the file baseline. */
const NGINX_WORKERS = Number(process.env.NGINX_WORKERS ?? 1);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Process A listens here, B on the next port, the proxy on the one after and the file baseline after that. */
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4420);
/**
 * Unless PIN=0, every server (both nginx and the app processes) runs on core 1 and wrk on core 0, so that each target
 * gets the same place: unpinned, a target that happens to share a core with wrk spends more per request than one that
 * does not, and two runs of the same configuration differed by 10–20%.
 */
const PIN = process.env.PIN !== '0';
const SERVER_CORE = 1;
const LOAD_CORE = 0;
/**
 * The goals, in CPU per request of every process behind the proxy (nginx and the app processes) over nginx's for a
 * file.
 */
const PROFILE_CPU_GOAL = 1.25;
const TEXTURE_CPU_GOAL = 1.1;
/** The proxy's p99 stays under this. */
const P99_GOAL_MS = 5;

/** One wrk run: requests per second, latency percentiles in ms, failed or non-2xx/3xx answers, CPU per request. */
interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time (user + system) of every process behind the target per answered request, in µs. */
  cpuUs: number;
  /** The same, for each group of processes of the target (nginx, the app processes). */
  cpuPartsUs: number[];
}

/** What wrk loads: a port, and the processes whose CPU time counts for it, in named groups. */
interface Target {
  name: string;
  port: number;
  parts: Array<{ label: string; pids: () => number[] }>;
}

/** Loads a target with wrk for `durationS`; the CPU time is that of every process behind it. */
async function load(target: Target, pathsFile: string, durationS: number): Promise<LoadResult> {
  const meters = target.parts.map((part) => cpuPerRequest(part.pids));
  const result = await runWrk({
    port: target.port,
    pathsFile: pathsFile,
    durationS: durationS,
    connections: CONNECTIONS,
    core: PIN ? LOAD_CORE : undefined,
  });
  const cpuPartsUs = meters.map((meter) => meter(result.rps * durationS));
  return { ...result, cpuUs: cpuPartsUs.reduce((sum, part) => sum + part, 0), cpuPartsUs };
}

/**
 * Warms every target up, then runs the rounds in turn (file, proxy, one, file, …); prints every run and the medians.
 */
async function runRounds(targets: Target[], pathsFile: string): Promise<Map<string, LoadResult[]>> {
  for (const target of targets) await load(target, pathsFile, WARMUP_S);
  const results = new Map<string, LoadResult[]>(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const result = await load(target, pathsFile, DURATION_S);
      results.get(target.name)!.push(result);
      console.log(
        `  round ${round} ${target.name.padEnd(5)} ${thousands(result.rps).padStart(7)} req/s  p50 ${result.p50.toFixed(2).padStart(6)} ms  p99 ${result.p99.toFixed(2).padStart(6)} ms  CPU ${result.cpuUs.toFixed(1).padStart(5)} µs/req${target.parts.length > 1 ? ` (${target.parts.map((part, i) => `${part.label} ${result.cpuPartsUs[i]!.toFixed(1)}`).join(' + ')})` : ''}  load average ${loadAverage()}${result.errors ? `  errors ${result.errors}` : ''}`,
      );
    }
  }
  for (const [name, runs] of results) {
    const rps = runs.map((run) => run.rps);
    console.log(
      `  ${name.padEnd(5)} median ${thousands(median(rps))} req/s (${thousands(Math.min(...rps))}–${thousands(Math.max(...rps))}), p50 ${median(runs.map((run) => run.p50)).toFixed(2)} ms, p99 ${median(runs.map((run) => run.p99)).toFixed(2)} ms (${Math.min(...runs.map((run) => run.p99)).toFixed(2)}–${Math.max(...runs.map((run) => run.p99)).toFixed(2)}), CPU ${median(runs.map((run) => run.cpuUs)).toFixed(1)} µs/req`,
    );
  }
  return results;
}

/** Prints a figure against its goal (at most `goal`); returns whether it meets it. */
function verdict(label: string, value: number, goal: number, unit: string): boolean {
  const pass = value <= goal;
  console.log(`  ${label.padEnd(36)} ${value.toFixed(2)}${unit} (goal ≤ ${goal}${unit}) ${pass ? 'PASS' : 'FAIL'}`);
  return pass;
}

/**
 * Runs one case's rounds and prints its ratios; returns whether the proxy's CPU per request and p99 meet their goals (a
 * goal of null: only printed).
 */
async function runCase(title: string, targets: Target[], pathsFile: string, cpuGoal: number | null): Promise<boolean> {
  console.log(`\n${title} (load average ${loadAverage()})`);
  const results = await runRounds(targets, pathsFile);
  const cpuRatio = roundRatio(results, 'proxy', 'file', (r) => r.cpuUs);
  let pass = true;
  if (cpuGoal === null) console.log(`  CPU per request: proxy / file        ${cpuRatio.toFixed(2)}×`);
  else
    pass =
      verdict('CPU per request: proxy / file', cpuRatio, cpuGoal, '×') &&
      verdict('proxy p99', median(results.get('proxy')!.map((r) => r.p99)), P99_GOAL_MS, ' ms');
  console.log(
    `  CPU per request: one process / file  ${roundRatio(results, 'one', 'file', (r) => r.cpuUs).toFixed(2)}×`,
  );
  console.log(
    `  req/s: proxy / file                  ${roundRatio(results, 'proxy', 'file', (r) => r.rps).toFixed(2)}×`,
  );
  console.log(`  req/s: one process / file            ${roundRatio(results, 'one', 'file', (r) => r.rps).toFixed(2)}×`);
  return pass;
}

/** The pids of nginx and its workers (with master_process off: nginx itself). */
function nginxPids(nginx: RunningNginx): number[] {
  return [nginx.child.pid!];
}

/**
 * Registers a few 64x32 capes in the bucket and inserts `count` players with random uuids, half of them with a cape;
 * returns the uuids and the capes' hashes.
 */
async function seed(
  databaseUrl: string,
  s3: RunningS3rver,
  count: number,
): Promise<{ uuids: string[]; hashes: string[] }> {
  const db = openDatabase(databaseUrl);
  await migrateToLatest(db);
  const store = new S3BlobStore(s3.config);
  const library = new TextureLibrary(db, store);
  const hashes: string[] = [];
  for (let i = 0; i < 8; i++) {
    const bytes = await sharp({
      create: { width: 64, height: 32, channels: 4, background: { r: 30 * i, g: 90, b: 200 - 20 * i, alpha: 1 } },
    })
      .png()
      .toBuffer();
    hashes.push(
      await library.put(
        { bytes, hash: createHash('sha256').update(bytes).digest('hex'), width: 64, height: 32, frames: 1 },
        'cape',
      ),
    );
  }
  const uuids = Array.from({ length: count }, () => randomBytes(16).toString('hex'));
  const now = Date.now();
  for (let start = 0; start < count; start += 1000) {
    await db
      .insertInto('users')
      .values(
        uuids.slice(start, start + 1000).map((uuid, offset) => ({
          uuid,
          username: `Player${start + offset}`,
          username_lower: `player${start + offset}`,
          created_at: now,
          cape_hash: (start + offset) % 2 === 0 ? hashes[(start + offset) % hashes.length]! : null,
        })),
      )
      .execute();
  }
  store.client.destroy();
  await db.destroy();
  return { uuids, hashes };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-scale-out-bench-'));
const redisPrefix = `cloakroom-bench-${randomBytes(6).toString('hex')}:`;
const apps: AppProcess[] = [];
let proxy: RunningNginx | undefined;
let fileServer: BenchNginx | undefined;
let database: TestDatabase | undefined;
let s3: RunningS3rver | undefined;

/** Stops everything this run started and removes what it made. */
async function cleanUp(): Promise<void> {
  await Promise.all(apps.map((app) => app.kill()));
  await proxy?.stop();
  fileServer?.stop();
  await database?.drop();
  await s3?.close();
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // Redis was not there: nothing to remove.
  } finally {
    redis.disconnect();
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  void cleanUp().then(() => process.exit(130));
});

let pass: boolean;
try {
  requireNginx();
  database = await postgresBackend.createDatabase();
  s3 = await startS3rver();
  const seedStart = Date.now();
  const { uuids, hashes } = await seed(database.url, s3, PLAYERS);
  console.log(
    `Seeded ${thousands(PLAYERS)} players (half with a cape) on PostgreSQL and S3 in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`,
  );
  console.log(
    `Node ${process.version}, wrk -t1 -c${CONNECTIONS}${PIN ? ` on core ${LOAD_CORE}, every server on core ${SERVER_CORE}` : ''}, ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s of warm-up, nginx ${NGINX_WORKERS} worker(s), ${os.cpus().length} cores, load average ${loadAverage()}`,
  );

  const [portA, portB, proxyPort, filePort] = [BASE_PORT, BASE_PORT + 1, BASE_PORT + 2, BASE_PORT + 3];
  const siteDir = path.join(dir, 'site');
  fs.mkdirSync(siteDir);
  const answersDir = path.join(dir, 'answers');
  fs.writeFileSync(path.join(siteDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
    TRUST_PROXY: '1',
    SKIP_SITE_BUILD: 'true',
    SITE_DIR: siteDir,
    ANSWER_FILES_DIR: answersDir,
    SWEEP_INTERVAL_MINUTES: '0',
    // The rounds measure cache hits, as on a server whose players are all active.
    PROFILE_CACHE_TTL_S: process.env.PROFILE_CACHE_TTL_S ?? '3600',
  };
  apps.push(
    ...(await Promise.all(
      ['A', 'B'].map((name, i) =>
        startAppProcess(name, [portA, portB][i]!, {
          ...env,
          DATA_DIR: fs.mkdtempSync(path.join(dir, `data-${name}-`)),
        }),
      ),
    )),
  );
  const [processA, processB] = apps as [AppProcess, AppProcess];
  proxy = await startNginx({
    dir: path.join(dir, 'proxy'),
    port: proxyPort,
    upstreamPorts: [portA, portB],
    siteDir,
    answersDir,
    workers: NGINX_WORKERS,
  });

  // The processes build the answer directory at start (it was never built), in the background: wait for both.
  const rebuildStart = Date.now();
  while (!apps.every((app) => app.output().includes('answer directory rebuilt'))) {
    if (Date.now() - rebuildStart > 600_000)
      throw new Error('The processes did not rebuild the answer directory within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`Both processes built the answer directory in ${((Date.now() - rebuildStart) / 1000).toFixed(0)} s`);

  // The players with a cape (every other one): the others have nothing to show, and every target would answer them 404.
  const wearers = uuids.filter((_, i) => i % 2 === 0);
  const pathsFile = path.join(dir, 'profiles.txt');
  fs.writeFileSync(pathsFile, wearers.map((uuid) => `/profile/${uuid}\n`).join(''));
  // Every player once on each process: both caches hold everyone, as they do on a busy site (for the process asked
  // straight).
  const warmStart = Date.now();
  for (const app of apps)
    await runWrk({ port: app.port, pathsFile: pathsFile, durationS: 3_600, connections: CONNECTIONS, mode: 'once' });
  console.log(
    `Every player with a cape asked once on each process in ${((Date.now() - warmStart) / 1000).toFixed(0)} s`,
  );

  // The file baseline serves exactly the bytes the processes answer for a player with a cape, and the capes' files.
  const sample = `/profile/${wearers[0]}`;
  const www = path.join(dir, 'file', 'www');
  fs.mkdirSync(path.join(www, 'textures'), { recursive: true });
  fs.writeFileSync(
    path.join(www, 'profile.json'),
    Buffer.from(await (await fetch(`${proxy.url}${sample}`)).arrayBuffer()),
  );
  for (const hash of hashes)
    fs.writeFileSync(
      path.join(www, 'textures', hash),
      Buffer.from(await (await fetch(`${proxy.url}/textures/${hash}`)).arrayBuffer()),
    );
  const fileDir = path.join(dir, 'file');
  fileServer = await startBenchNginx(fileDir, modFilesNginxConfig(fileDir, filePort, NGINX_WORKERS), filePort);
  for (const urlPath of [sample, `/textures/${hashes[0]}`]) {
    const answers = await Promise.all(
      [filePort, proxyPort, portA].map(async (port) => {
        const response = await fetch(`http://127.0.0.1:${port}${urlPath}`);
        return `${response.status} ${(await response.arrayBuffer()).byteLength} B`;
      }),
    );
    console.log(`${urlPath.slice(0, 18)}…: file ${answers[0]}, proxy ${answers[1]}, one ${answers[2]}`);
  }

  if (PIN) pinTreeToCore([fileServer.pid, proxy.child.pid!, processA.child.pid!, processB.child.pid!], SERVER_CORE);
  const targets: Target[] = [
    { name: 'file', port: filePort, parts: [{ label: 'nginx', pids: () => [fileServer!.pid] }] },
    {
      name: 'proxy',
      port: proxyPort,
      parts: [
        { label: 'nginx', pids: () => nginxPids(proxy!) },
        { label: 'processes', pids: () => [processA.child.pid!, processB.child.pid!] },
      ],
    },
    { name: 'one', port: portA, parts: [{ label: 'process', pids: () => [processA.child.pid!] }] },
  ];
  const hotFile = path.join(dir, 'hot-profiles.txt');
  fs.writeFileSync(
    hotFile,
    wearers
      .slice(0, HOT_PLAYERS)
      .map((uuid) => `/profile/${uuid}\n`)
      .join(''),
  );
  const texturesFile = path.join(dir, 'textures.txt');
  fs.writeFileSync(texturesFile, hashes.map((hash) => `/textures/${hash}\n`).join(''));
  pass = await runCase(
    `/profile/{uuid} over ${thousands(HOT_PLAYERS)} players asked again and again`,
    targets,
    hotFile,
    PROFILE_CPU_GOAL,
  );
  pass =
    (await runCase(`/textures/{hash} over ${hashes.length} capes`, targets, texturesFile, TEXTURE_CPU_GOAL)) && pass;
  // Every player with a cape about once a second: each file is kept open by nginx under its two half-second names.
  await runCase(
    `/profile/{uuid} over all ${thousands(wearers.length)} players with a cape (no goal: each asked about once a second)`,
    targets,
    pathsFile,
    null,
  );
  console.log(`\n${pass ? 'PASS' : 'FAIL'} (load average at the end ${loadAverage()})`);
} finally {
  await cleanUp();
}
process.exitCode = pass ? 0 : 1;
