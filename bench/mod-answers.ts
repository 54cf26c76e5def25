// Mod API answers: what the shipped nginx (deploy/nginx/cloakroom.conf and cloakroom-mod-answer.conf) costs serving the
// mod API from an answer directory built by `cloakroom answers rebuild`, with an app process behind it, against nginx
// serving the same bytes from plain locations; and what one app process costs answering straight, against node:http
// and a bare Fastify route. Every target and wrk run in processes of their own; all cases take turns in one interleaved
// run, the nginx cases' targets one after the other, the app's cases' targets at once (at RATE requests per second
// each; its throughput against Fastify as fast as both answer); the figure is each target's CPU time per request (every
// process of it, from /proc), beside req/s and p99. See bench/README.md, "Mod API answers".
// The parts: bench/mod-answers/settings.ts (the environment), paths.ts (the layouts and the paths files), load.ts (the
// wrk runs), static-baseline.ts (the plain nginx it is compared with) and report.ts (the checks and the table).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataDirServerEnv } from '../support/app-process.ts';
import { requireNginx, startNginx, WITH_OPEN_FILES, type RunningNginx } from '../support/nginx.ts';
import { startBenchNginx, type BenchNginx } from './baseline-nginx.ts';
import { makeCapes, seed } from './mod-seed.ts';
import { pinTreeToCore, ROOT, rssMb, startProcess, stopProcess } from './processes.ts';
import { runWrk, thousands } from './wrk.ts';
import {
  CONNECTIONS,
  DURATION_S,
  LIST,
  LOAD_CORE,
  MIX,
  MIX_NAMES,
  NGINX_WORKERS,
  NODE_TS,
  ONLY_CASES,
  PIN,
  PLAYERS,
  PORTS,
  RATE,
  ROUNDS,
  SERVER_CORE,
  SHOWING,
  TEXTURES,
  UNKNOWN_POOL,
  UNKNOWN_SHARE,
  WARMUP_S,
  ZIPF,
} from './mod-answers/settings.ts';
import { writeSiteFixture } from '../support/site-fixture.ts';
import { writePathLists, writePaths, type PathLists } from './mod-answers/paths.ts';
import { appRequestCount, runAll, type BenchCase, type Target } from './mod-answers/load.ts';
import {
  fetchBytes,
  sameFilesNginxConfig,
  staticNginxConfig,
  writeStaticFiles,
} from './mod-answers/static-baseline.ts';
import { compareAnswers, printResults } from './mod-answers/report.ts';

/** Runs a command with its output in a log file; resolves with its exit code. */
function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<number | null> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/** A number from a command's first word (du's size or inode count). */
function firstNumber(command: string, args: string[]): number {
  return Number(spawnSync(command, args, { encoding: 'utf8' }).stdout.trim().split(/\s+/)[0]);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-mod-answers-bench-'));
const started: ChildProcess[] = [];
let shipped: RunningNginx | undefined;
let staticNginx: BenchNginx | undefined;
let sameFilesNginx: BenchNginx | undefined;

/** Stops everything this run started and removes what it made. */
async function cleanUp(): Promise<void> {
  await shipped?.stop();
  staticNginx?.stop();
  sameFilesNginx?.stop();
  await Promise.all(started.map(stopProcess));
  fs.rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  void cleanUp().then(() => process.exit(130));
});

let allPass: boolean;
try {
  requireNginx();
  const dataDir = path.join(dir, 'data');
  const answersDir = path.join(dir, 'answers');
  const siteDir = path.join(dir, 'site');
  // A site of one file with the host rules the build writes (the shipped configuration includes its nginx rules).
  writeSiteFixture(siteDir, { 'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' }, ['favicon.svg']);

  // The seed: most players have nothing to show, as most players the mod is asked about.
  const seedStart = Date.now();
  const capes = await makeCapes(TEXTURES);
  const { hashes, wearers } = await seed(dataDir, path.join(dataDir, 'cloakroom.db'), PLAYERS, capes, {
    cape: SHOWING,
    ears: 0,
  });
  if (wearers.length === 0) throw new Error('No player wears a cape: raise PLAYERS or SHOWING');
  const seedS = (Date.now() - seedStart) / 1000;
  console.log(
    `Seeded ${thousands(PLAYERS)} players, ${thousands(wearers.length)} of them with one of ${capes.length} capes (${Math.round(Math.min(...capes.map((c) => c.length)) / 1024)}–${Math.round(Math.max(...capes.map((c) => c.length)) / 1024)} KB), in ${seedS.toFixed(1)} s`,
  );

  // The directory, built as at deploy: `cloakroom answers rebuild` with the app processes' environment.
  const serverEnv = {
    ...process.env,
    ...dataDirServerEnv(dataDir),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ANSWER_FILES_DIR: answersDir,
    PUBLIC_BASE_URL: `http://127.0.0.1:${PORTS.shipped}`,
  };
  const rebuildStart = Date.now();
  const rebuildLog = path.join(dir, 'rebuild.log');
  const rebuildCode = await runCommand(
    process.execPath,
    ['bin/cloakroom.mjs', 'answers', 'rebuild'],
    serverEnv,
    rebuildLog,
  );
  const rebuildS = (Date.now() - rebuildStart) / 1000;
  if (rebuildCode !== 0)
    throw new Error(`cloakroom answers rebuild failed (exit ${rebuildCode}):\n${fs.readFileSync(rebuildLog, 'utf8')}`);
  const directory = {
    kb: firstNumber('du', ['-sk', answersDir]),
    inodes: firstNumber('du', ['-s', '--inodes', answersDir]),
    names: Number(
      spawnSync('sh', ['-c', 'find "$0" -type f -printf x | wc -c', answersDir], { encoding: 'utf8' }).stdout.trim(),
    ),
  };
  console.log(
    `Rebuilt the answer directory in ${rebuildS.toFixed(1)} s: ${thousands(directory.kb / 1024)} MB (du), ${thousands(directory.names)} file names, ${thousands(directory.inodes)} inodes (hard links once, directories included)`,
  );

  // One app process, as `npm start` runs it: behind the shipped nginx (which should never ask it here) and asked
  // straight.
  const app = await startProcess(
    'app',
    PORTS.app,
    NODE_TS[0],
    [...NODE_TS.slice(1), 'server/main.ts'],
    {
      ...serverEnv,
      PORT: String(PORTS.app),
      TRUST_PROXY: '1',
      METRICS_PORT: String(PORTS.metrics),
      SWEEP_INTERVAL_MINUTES: '0',
      // The straight rounds measure cache hits, as on a server whose players are all active.
      PROFILE_CACHE_TTL_S: process.env.PROFILE_CACHE_TTL_S ?? '3600',
    },
    path.join(dir, 'app.log'),
    '/healthz',
  );
  started.push(app.child);
  const rssStart = rssMb(app.child.pid!);
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await appRequestCount();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (/rebuilding it/.test(fs.readFileSync(path.join(dir, 'app.log'), 'utf8')))
    console.log('!! The app process rebuilt the directory at start: the CLI rebuild left no mark it accepts');
  shipped = await startNginx({
    dir: path.join(dir, 'shipped'),
    port: PORTS.shipped,
    upstreamPorts: [PORTS.app],
    siteDir,
    answersDir,
    workers: NGINX_WORKERS,
  });

  // The static baseline's files: each layout's bytes of a player wearing each cape, under the cape's hash, and the
  // textures.
  const www = path.join(dir, 'static', 'www');
  await writeStaticFiles(www, wearers, hashes);
  const staticDir = path.join(dir, 'static');
  staticNginx = await startBenchNginx(staticDir, staticNginxConfig(staticDir, www, PORTS.static), PORTS.static);
  // nginx serving the answer directory itself from plain locations, with the shipped open-file cache.
  const sameFilesDir = path.join(dir, 'same-files');
  fs.mkdirSync(sameFilesDir, { recursive: true });
  sameFilesNginx = await startBenchNginx(
    sameFilesDir,
    sameFilesNginxConfig(sameFilesDir, answersDir, PORTS.sameFiles),
    PORTS.sameFiles,
    WITH_OPEN_FILES,
  );

  // The node:http and Fastify baselines: a known player's profile as the app answers it (every profile has its length),
  // the mod API's 404 for any other id, and the textures.
  const profileAnswer = await fetchBytes(PORTS.app, `/profile/${wearers[0]!.uuid}`);
  fs.writeFileSync(path.join(dir, 'profile.json'), profileAnswer.bytes);
  const knownFile = writePaths(
    dir,
    'known',
    wearers.map((wearer) => wearer.uuid),
  );
  const startBare = async (name: string, kind: 'node' | 'fastify', port: number) => {
    const bare = await startProcess(
      name,
      port,
      NODE_TS[0],
      [...NODE_TS.slice(1), 'bench/mod-api-bare.ts'],
      {
        ...process.env,
        BARE: kind,
        PORT: String(port),
        PROFILE_FILE: path.join(dir, 'profile.json'),
        TEXTURES_DIR: path.join(www, 'textures'),
        KNOWN_FILE: knownFile,
        LAST_MODIFIED: profileAnswer.lastModified ?? '',
      },
      path.join(dir, `${name}.log`),
      '/profile/x',
    );
    started.push(bare.child);
    return bare;
  };
  const node = await startBare('node', 'node', PORTS.node);
  const fastify = await startBare('fastify', 'fastify', PORTS.fastify);

  // The paths: known players uniformly, unknown players each new or again and again, each layout, textures, and the
  // mix.
  const { profiles, profilesZipf, unknown, unknownSeen, textures, mix, layoutLists } = writePathLists(
    dir,
    wearers,
    hashes,
  );

  // The app's caches hold every known player and texture, as on a busy server (the straight rounds measure cache hits).
  const warmStart = Date.now();
  const knownProfiles = writePaths(
    dir,
    'known-profiles',
    wearers.map((wearer) => `/profile/${wearer.uuid}`),
  );
  const allTextures = writePaths(
    dir,
    'all-textures',
    hashes.map((hash) => `/textures/${hash}`),
  );
  for (const file of [knownProfiles, allTextures])
    await runWrk({ port: PORTS.app, pathsFile: file, durationS: 3_600, connections: CONNECTIONS, mode: 'once' });
  const rssWarm = rssMb(app.child.pid!);
  console.log(
    `App process: every known player and texture asked once in ${((Date.now() - warmStart) / 1000).toFixed(1)} s; RSS ${rssStart.toFixed(0)} MB at start, ${rssWarm.toFixed(0)} MB after`,
  );

  const appPids = () => [app.child.pid!];
  const targets = {
    shipped: {
      name: 'shipped',
      port: PORTS.shipped,
      parts: [
        { label: 'nginx', pids: () => [shipped!.child.pid!] },
        { label: 'app', pids: appPids },
      ],
      watchApp: true,
      errorLog: () => shipped!.errorLog(),
    },
    static: { name: 'static', port: PORTS.static, parts: [{ label: 'nginx', pids: () => [staticNginx!.pid] }] },
    sameFiles: {
      name: 'same files',
      port: PORTS.sameFiles,
      parts: [{ label: 'nginx', pids: () => [sameFilesNginx!.pid] }],
    },
    app: { name: 'app', port: PORTS.app, parts: [{ label: 'app', pids: appPids }] },
    node: { name: 'node', port: PORTS.node, parts: [{ label: 'node', pids: () => [node.child.pid!] }] },
    fastify: { name: 'fastify', port: PORTS.fastify, parts: [{ label: 'fastify', pids: () => [fastify.child.pid!] }] },
  } satisfies Record<string, Target>;
  const throughNginx = (name: string, title: string, paths: PathLists, max: number): BenchCase => ({
    name,
    title,
    runs: [
      { target: targets.shipped, pathsFile: paths.target },
      { target: targets.static, pathsFile: paths.baseline },
      { target: targets.sameFiles, pathsFile: paths.sameFiles ?? paths.target },
    ],
    goal: { max },
    notFoundShare: paths.notFound,
    also: targets.sameFiles.name,
  });
  const mixDescription = `${Math.round(UNKNOWN_SHARE * 100)}% unknown (uuids Zipf(${ZIPF}) over ${UNKNOWN_POOL}, names: ${MIX_NAMES}), Zipf(${ZIPF}) over known, ${MIX}`;
  const allCases: BenchCase[] = [
    throughNginx('profile', 'nginx: known /profile/{uuid}', profiles, 1.15),
    throughNginx('profile-zipf', 'nginx: known /profile/{uuid}, Zipf over the known', profilesZipf, 1.15),
    throughNginx('unknown', 'nginx: unknown /profile/{uuid}, a new one each time', unknown, 1.1),
    throughNginx('unknown-seen', 'nginx: unknown /profile/{uuid}, Zipf over UNKNOWN_POOL', unknownSeen, 1.1),
    throughNginx('still', 'nginx: /capes/{name}.png', layoutLists('still'), 1.15),
    throughNginx('gif', 'nginx: /capes/{uuid}.gif', layoutLists('gif'), 1.15),
    throughNginx('strip', 'nginx: /capes/strip/{uuid}.png', layoutLists('strip'), 1.15),
    throughNginx('elytra', 'nginx: /elytras/{name}.png', layoutLists('elytra'), 1.15),
    throughNginx('csl', 'nginx: /csl/{name}.json', layoutLists('csl'), 1.15),
    throughNginx('minecraftCapesApi', 'nginx: /csl-minecraftcapes/{uuid}', layoutLists('minecraftCapesApi'), 1.15),
    throughNginx('textures', 'nginx: /textures/{hash}', textures, 1.15),
    throughNginx('mix', 'nginx: the mix', mix, 1.15),
    {
      name: 'app-unknown',
      title: 'app: unknown /profile/{uuid}',
      runs: [
        { target: targets.app, pathsFile: unknown.target },
        { target: targets.node, pathsFile: unknown.target },
      ],
      atOnce: { rate: RATE },
      goal: { max: 1.5 },
      notFoundShare: 1,
    },
    {
      name: 'app-profile',
      title: 'app: known /profile/{uuid}',
      runs: [
        { target: targets.app, pathsFile: profiles.target },
        { target: targets.node, pathsFile: profiles.target },
      ],
      atOnce: { rate: RATE },
      goal: { max: 1.3 },
      notFoundShare: 0,
    },
    {
      // Throughput: both as fast as they answer, sharing the server core, so each gets about half of it.
      name: 'app-profile-rps',
      title: 'app: known /profile/{uuid}, as fast as it answers',
      runs: [
        { target: targets.app, pathsFile: profiles.target },
        { target: targets.fastify, pathsFile: profiles.target },
      ],
      atOnce: { rate: 0 },
      notFoundShare: 0,
      rpsGoal: { against: 'fastify', min: 0.9 },
    },
    {
      name: 'app-textures',
      title: 'app: /textures/{hash}',
      runs: [
        { target: targets.app, pathsFile: textures.target },
        { target: targets.node, pathsFile: textures.target },
      ],
      atOnce: { rate: RATE },
      goal: { max: 1.2 },
      notFoundShare: 0,
    },
  ];
  const only = ONLY_CASES;
  const cases = only ? allCases.filter((benchCase) => only.includes(benchCase.name)) : allCases;

  await compareAnswers(cases);

  console.log(`\nThe mix: ${mixDescription}`);
  console.log(
    `Node ${process.version}, nginx ${NGINX_WORKERS} worker(s), wrk -t1 -c${CONNECTIONS}${PIN ? ` on core ${LOAD_CORE}, every server on core ${SERVER_CORE}` : ''}, ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s of warm-up, the app's cases at ${RATE ? `${thousands(RATE)} req/s` : 'full speed'} each, ${thousands(LIST)} paths a list, ${os.cpus().length} cores`,
  );
  if (PIN)
    pinTreeToCore(
      [shipped.child.pid!, staticNginx.pid, sameFilesNginx.pid, app.child.pid!, node.child.pid!, fastify.child.pid!],
      SERVER_CORE,
    );
  const { rounds: results, appRequests: appRequestsByCase } = await runAll(cases);
  const rssEnd = rssMb(app.child.pid!);

  allPass = printResults(cases, results, appRequestsByCase, targets.shipped);
  console.log(
    `Answer directory: ${thousands(directory.kb / 1024)} MB (du -sk ${thousands(directory.kb)}; ${(directory.kb / wearers.length).toFixed(1)} KB per showing player, textures included), ${thousands(directory.names)} file names, ${thousands(directory.inodes)} inodes; rebuild ${rebuildS.toFixed(1)} s for ${thousands(PLAYERS)} players (${thousands(wearers.length)} showing) and ${hashes.length} textures; seed ${seedS.toFixed(1)} s`,
  );
  console.log(
    `App process RSS: ${rssStart.toFixed(0)} MB at start, ${rssWarm.toFixed(0)} MB with every known player cached, ${rssEnd.toFixed(0)} MB at the end`,
  );
  console.log(`\n${allPass ? 'PASS' : 'FAIL'}`);
} finally {
  await cleanUp();
}
process.exitCode = allPass ? 0 : 1;
