// Mod API answers: what the shipped nginx (deploy/nginx/cloakroom.conf and cloakroom-mod-answer.conf) costs serving the
// mod API from an answer directory built by `cloakroom answers rebuild`, with an app process behind it, against nginx
// serving the same bytes from plain locations; and what one app process costs answering straight, against node:http
// and a bare Fastify route. Every target and wrk run in processes of their own; all cases take turns in one interleaved
// run; the figure is each target's CPU time per request (every process of it, from /proc), beside req/s and p99. See
// bench/README.md, "Mod API answers".
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CUSTOM_SKIN_API_ROOT, picturePath } from '../src/lib/mod-setup.ts';
import { dataDirServerEnv } from '../support/app-process.ts';
import { requireNginx, startNginx, type RunningNginx } from '../support/nginx.ts';
import { startBenchNginx, writeBaselineNginxConfig, type BenchNginx } from './baseline-nginx.ts';
import { makeCapes, seed, type SeededWearer } from './mod-seed.ts';
import { cpuPerRequest, pinTreeToCore, ROOT, rssMb, startProcess, stopProcess } from './processes.ts';
import { loadAverage, median, runWrk, thousands } from './wrk.ts';

const PLAYERS = Number(process.env.PLAYERS ?? 10_000);
/** The share of players who have something to show (a cape); the others are answered 404 like unknown players. */
const SHOWING = Number(process.env.SHOWING ?? 0.1);
const TEXTURES = Number(process.env.TEXTURES ?? 200);
/** Paths per list: wrk walks each list in order from a random line, so a list of unknown ids asks a new one every time. */
const LIST = Number(process.env.LIST ?? 200_000);
/** The realistic mix: the share of requests about unknown players, and the exponent of the known players' Zipf popularity. */
const UNKNOWN_SHARE = Number(process.env.UNKNOWN_SHARE ?? 0.9);
const ZIPF = Number(process.env.ZIPF ?? 1);
/**
 * The players with nothing to show that traffic asks about again and again (every game that sees one asks): the
 * `unknown-seen` case and the mix draw them with Zipf popularity from this many ids; the `unknown` case asks a new id every
 * time (a flood of made-up ids).
 */
const UNKNOWN_POOL = Number(process.env.UNKNOWN_POOL ?? Math.min(10 * PLAYERS, 1_000_000));
/** The mix's layouts and their weights (textures: known players only, the texture their answer names). */
const MIX = process.env.MIX ?? 'profile:60,textures:15,still:8,csl:6,elytra:4,gif:4,strip:3';
/** How the mix names unknown players on the layouts asked by name: as the game spells names (`game`, capitals included) or in lowercase (`lower`). */
const MIX_NAMES = process.env.MIX_NAMES === 'lower' ? 'lower' : 'game';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 10);
const WARMUP_S = Number(process.env.WARMUP ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const NGINX_WORKERS = Number(process.env.NGINX_WORKERS ?? 1);
/** Only these cases (comma-separated names), when given; a name of none (CASES=none) gives the seed, directory and memory figures alone. */
const ONLY_CASES = process.env.CASES?.split(',').filter(Boolean);
/** Unless PIN=0, every server runs on core 1 and wrk on core 0 (as bench/scale-out.ts). */
const PIN = process.env.PIN !== '0';
const SERVER_CORE = 1;
const LOAD_CORE = 0;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4410);
const PORTS = { shipped: BASE_PORT, app: BASE_PORT + 1, metrics: BASE_PORT + 2, static: BASE_PORT + 3, node: BASE_PORT + 4, fastify: BASE_PORT + 5 };
/** Node with the TypeScript loader, as `npm start` runs the server, without tsx's extra parent process. */
const NODE_TS = [process.execPath, '--import', 'tsx'] as const;

/** A layout a player is asked for by: its URL path for an id, the id the mods give it, and the baseline's file for a texture's bytes. */
interface PlayerLayout {
  by: 'uuid' | 'name';
  path: (id: string) => string;
  file: (hash: string) => string;
}

const PLAYER_LAYOUTS = {
  profile: { by: 'uuid', path: (id) => `/profile/${id}`, file: (hash) => `/profile/${hash}` },
  still: { by: 'name', path: (id) => picturePath('still', id), file: (hash) => picturePath('still', hash) },
  gif: { by: 'uuid', path: (id) => picturePath('gif', id), file: (hash) => picturePath('gif', hash) },
  strip: { by: 'uuid', path: (id) => picturePath('strip', id), file: (hash) => picturePath('strip', hash) },
  elytra: { by: 'name', path: (id) => picturePath('elytra', id), file: (hash) => picturePath('elytra', hash) },
  csl: { by: 'name', path: (id) => `${CUSTOM_SKIN_API_ROOT}${id}.json`, file: (hash) => `${CUSTOM_SKIN_API_ROOT}${hash}.json` },
} satisfies Record<string, PlayerLayout>;
type LayoutName = keyof typeof PLAYER_LAYOUTS;
/** Where the static baseline answers 404: `return 404` in a location of its own. */
const MISSING_PREFIX = '/missing';

/** One wrk run of a target: req/s, p99, bytes per answer, CPU per request (whole target and each part), 404 share, socket errors, app requests and nginx errors logged. */
interface LoadResult {
  rps: number;
  p99: number;
  bytesPerAnswer: number;
  cpuUs: number;
  cpuPartsUs: number[];
  notFoundShare: number;
  socketErrors: number;
  appRequests: number;
  nginxErrors: number;
}

/** What wrk loads: a port, the processes whose CPU time counts for it (in named parts), and what to watch while it runs. */
interface Target {
  name: string;
  port: number;
  parts: Array<{ label: string; pids: () => number[] }>;
  /** Count the requests the app process answered during each run (the shipped nginx: must be none). */
  watchApp?: boolean;
  /** nginx's error log so far. */
  errorLog?: () => string;
}

/** A case: targets each with its paths file, the baseline the first is compared with, the goal, and the share of answers that are 404. */
interface BenchCase {
  name: string;
  title: string;
  runs: Array<{ target: Target; pathsFile: string }>;
  goal: { max: number };
  /** The share of 404 answers its paths ask for (checked on every run). */
  notFoundShare: number;
  /** A second goal: the first target's req/s at least this times the named target's. */
  rpsGoal?: { against: string; min: number };
}

/** The mod API's request count of the app process (every answer, fast path and routes), read from its metrics port. */
async function appRequestCount(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${PORTS.metrics}/metrics`)).text();
  let count = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('cloakroom_http_request_duration_seconds_count')) count += Number(line.slice(line.lastIndexOf(' ') + 1));
  return count;
}

/** Loads a target with wrk for `durationS`, walking its paths in order from a random line; its figures and what it caused. */
async function load(target: Target, pathsFile: string, durationS: number): Promise<LoadResult> {
  const appBefore = target.watchApp ? await appRequestCount() : 0;
  const logBefore = target.errorLog?.().length ?? 0;
  const meters = target.parts.map((part) => cpuPerRequest(part.pids));
  const result = await runWrk({ port: target.port, pathsFile, durationS, connections: CONNECTIONS, mode: 'cycle', core: PIN ? LOAD_CORE : undefined });
  const cpuPartsUs = meters.map((meter) => meter(result.requests));
  const appRequests = target.watchApp ? (await appRequestCount()) - appBefore : 0;
  const logged = target.errorLog?.().slice(logBefore) ?? '';
  return {
    rps: result.rps,
    p99: result.p99,
    bytesPerAnswer: result.bytesPerAnswer,
    cpuUs: cpuPartsUs.reduce((sum, part) => sum + part, 0),
    cpuPartsUs,
    notFoundShare: result.statusErrors / Math.max(1, result.requests),
    socketErrors: result.errors - result.statusErrors,
    appRequests,
    nginxErrors: logged.split('\n').filter((line) => /\[(error|crit|alert|emerg)\]/.test(line)).length,
  };
}

/** Prints one run's line, with what looks wrong in it (another 404 share than its paths ask for, socket errors, app requests, nginx errors). */
function printRun(label: string, benchCase: BenchCase, target: Target, result: LoadResult): void {
  const parts = target.parts.length > 1 ? ` (${target.parts.map((part, i) => `${part.label} ${result.cpuPartsUs[i]!.toFixed(1)}`).join(' + ')})` : '';
  const notes = [
    Math.abs(result.notFoundShare - benchCase.notFoundShare) > 0.05
      ? `404 share ${result.notFoundShare.toFixed(3)}, expected ${benchCase.notFoundShare.toFixed(3)}`
      : '',
    result.socketErrors ? `socket errors ${result.socketErrors}` : '',
    result.appRequests ? `app requests ${thousands(result.appRequests)}` : '',
    result.nginxErrors ? `nginx error lines ${result.nginxErrors}` : '',
  ].filter(Boolean);
  console.log(
    `  ${label} ${benchCase.name.padEnd(13)} ${target.name.padEnd(7)} ${thousands(result.rps).padStart(7)} req/s  p99 ${result.p99.toFixed(2).padStart(6)} ms  ${thousands(result.bytesPerAnswer).padStart(6)} B  CPU ${result.cpuUs.toFixed(1).padStart(6)} µs/req${parts}${notes.length ? `  !! ${notes.join('; ')}` : ''}`,
  );
}

/** Every case's rounds by target, and how many requests reached the app process during each case's nginx runs (warm-up included). */
interface RunResults {
  rounds: Map<string, Map<string, LoadResult[]>>;
  appRequests: Map<string, number>;
}

/** Warms every target of every case up, then runs the rounds: each round every case, each case every target in turn. */
async function runAll(cases: BenchCase[]): Promise<RunResults> {
  const rounds = new Map(cases.map((benchCase) => [benchCase.name, new Map(benchCase.runs.map(({ target }) => [target.name, [] as LoadResult[]]))]));
  const appRequests = new Map(cases.map((benchCase) => [benchCase.name, 0]));
  const run = async (label: string, benchCase: BenchCase, durationS: number) => {
    for (const { target, pathsFile } of benchCase.runs) {
      const result = await load(target, pathsFile, durationS);
      appRequests.set(benchCase.name, appRequests.get(benchCase.name)! + result.appRequests);
      printRun(label, benchCase, target, result);
      if (label !== 'warm-up') rounds.get(benchCase.name)!.get(target.name)!.push(result);
    }
  };
  if (WARMUP_S > 0) {
    console.log(`\nWarm-up, ${WARMUP_S} s each (load average ${loadAverage()})`);
    for (const benchCase of cases) await run('warm-up', benchCase, WARMUP_S);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`\nRound ${round} of ${ROUNDS} (load average ${loadAverage()})`);
    for (const benchCase of cases) await run(`round ${round}`, benchCase, DURATION_S);
  }
  return { rounds, appRequests };
}

/** A random v4 uuid as the mod asks for it: 32 lowercase hex digits. */
const freshUuid = () => randomUUID().replaceAll('-', '');

const NAME_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
/** A random player name of 3–16 characters: as the game spells names (a capital first, then letters of both cases, digits and `_`), or in lowercase. */
function randomName(spelling: 'game' | 'lower'): string {
  const length = 3 + Math.floor(Math.random() * 14);
  let name = String.fromCharCode(65 + Math.floor(Math.random() * 26));
  for (let i = 1; i < length; i++) name += NAME_LETTERS[Math.floor(Math.random() * NAME_LETTERS.length)];
  return spelling === 'lower' ? name.toLowerCase() : name;
}

/** Picks an index from `n` ranks with Zipf popularity (rank r has weight 1/r^s). */
function zipfSampler(n: number, s: number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / Math.pow(i + 1, s);
  return () => {
    const x = Math.random() * sum;
    let [low, high] = [0, n - 1];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < x) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** Picks a key by weight. */
function weightedPicker<K extends string>(weights: Array<[K, number]>): () => K {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return () => {
    let x = Math.random() * total;
    for (const [key, weight] of weights) if ((x -= weight) < 0) return key;
    return weights.at(-1)![0];
  };
}

/** The mix's layouts and weights from MIX (`layout:weight,…`). */
function parseMix(text: string): Array<[LayoutName | 'textures', number]> {
  return text.split(',').map((entry) => {
    const [name, weight] = entry.split(':');
    if (name !== 'textures' && !(name! in PLAYER_LAYOUTS)) throw new Error(`MIX: unknown layout ${name} (${Object.keys(PLAYER_LAYOUTS).join(', ')}, textures)`);
    return [name as LayoutName | 'textures', Number(weight)];
  });
}

/** Writes a paths file (one path a line); returns its path. */
function writePaths(dir: string, name: string, paths: string[]): string {
  const file = path.join(dir, `${name}.txt`);
  fs.writeFileSync(file, paths.join('\n') + '\n');
  return file;
}

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

/** The security headers of every mod API answer, as the shipped locations send them (`always`: on 404s too). */
const MOD_HEADER_LINES = `add_header Access-Control-Allow-Origin * always;
      add_header X-Content-Type-Options nosniff always;
      add_header X-Frame-Options DENY always;
      add_header Referrer-Policy strict-origin-when-cross-origin always;
      add_header Content-Security-Policy "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" always;`;

/** The static baseline: plain locations over `www` (the same bytes under each texture's hash) and a `return 404` location, with the shipped answers' headers. */
function staticNginxConfig(dir: string, www: string, port: number): string {
  const json = `types { } default_type 'application/json; charset=utf-8';`;
  const player = `add_header Cache-Control 'public, max-age=60' always;\n      ${MOD_HEADER_LINES}`;
  return writeBaselineNginxConfig(
    dir,
    `  types { image/png png; image/gif gif; }
  server {
    listen 127.0.0.1:${port};
    root ${www};
    open_file_cache max=20000 inactive=60s;
    location /profile/ {
      ${json}
      ${player}
    }
    location /csl/ {
      ${json}
      ${player}
    }
    location /capes/ {
      ${player}
    }
    location /elytras/ {
      ${player}
    }
    location /textures/ {
      types { } default_type image/png;
      add_header Cache-Control 'public, max-age=31536000, immutable' always;
      ${MOD_HEADER_LINES}
    }
    location ${MISSING_PREFIX}/ {
      ${json}
      ${MOD_HEADER_LINES}
      return 404 '{"error":"Not found"}';
    }
  }`,
    NGINX_WORKERS,
  );
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-mod-answers-bench-'));
const started: ChildProcess[] = [];
let shipped: RunningNginx | undefined;
let staticNginx: BenchNginx | undefined;

/** Stops everything this run started and removes what it made. */
async function cleanUp(): Promise<void> {
  await shipped?.stop();
  staticNginx?.stop();
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
  fs.mkdirSync(siteDir, { recursive: true });
  fs.writeFileSync(path.join(siteDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

  // The seed: most players have nothing to show, as most players the mod is asked about.
  const seedStart = Date.now();
  const capes = await makeCapes(TEXTURES);
  const { hashes, wearers } = await seed(dataDir, path.join(dataDir, 'cloakroom.db'), PLAYERS, capes, { cape: SHOWING, ears: 0 });
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
  const rebuildCode = await runCommand(process.execPath, ['bin/cloakroom.mjs', 'answers', 'rebuild'], serverEnv, rebuildLog);
  const rebuildS = (Date.now() - rebuildStart) / 1000;
  if (rebuildCode !== 0) throw new Error(`cloakroom answers rebuild failed (exit ${rebuildCode}):\n${fs.readFileSync(rebuildLog, 'utf8')}`);
  const directory = {
    kb: firstNumber('du', ['-sk', answersDir]),
    inodes: firstNumber('du', ['-s', '--inodes', answersDir]),
    names: Number(spawnSync('sh', ['-c', 'find "$0" -type f -printf x | wc -c', answersDir], { encoding: 'utf8' }).stdout.trim()),
  };
  console.log(
    `Rebuilt the answer directory in ${rebuildS.toFixed(1)} s: ${thousands(directory.kb / 1024)} MB (du), ${thousands(directory.names)} file names, ${thousands(directory.inodes)} inodes (hard links once, directories included)`,
  );

  // One app process, as `npm start` runs it: behind the shipped nginx (which should never ask it here) and asked straight.
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
  shipped = await startNginx({ dir: path.join(dir, 'shipped'), port: PORTS.shipped, upstreamPorts: [PORTS.app], siteDir, answersDir, workers: NGINX_WORKERS });

  // The static baseline's files: each layout's bytes of a player wearing each cape, under the cape's hash, and the textures.
  const www = path.join(dir, 'static', 'www');
  const representative = new Map<string, SeededWearer>();
  for (const wearer of wearers) if (!representative.has(wearer.hash)) representative.set(wearer.hash, wearer);
  const fetchBytes = async (port: number, urlPath: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${urlPath}`);
    if (response.status !== 200) throw new Error(`${urlPath} on port ${port}: ${response.status}`);
    return { bytes: Buffer.from(await response.arrayBuffer()), lastModified: response.headers.get('last-modified') };
  };
  for (const [hash, wearer] of representative)
    for (const layout of Object.values(PLAYER_LAYOUTS)) {
      const file = path.join(www, layout.file(hash));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, (await fetchBytes(PORTS.shipped, layout.path(wearer[layout.by]))).bytes);
    }
  fs.mkdirSync(path.join(www, 'textures'), { recursive: true });
  for (const hash of hashes) fs.writeFileSync(path.join(www, 'textures', hash), (await fetchBytes(PORTS.shipped, `/textures/${hash}`)).bytes);
  const staticDir = path.join(dir, 'static');
  staticNginx = await startBenchNginx(staticDir, staticNginxConfig(staticDir, www, PORTS.static), PORTS.static);

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

  // The paths: known players uniformly, unknown players each new or again and again, each layout, textures, and the mix.
  const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
  const lists = (name: string, make: () => [string, string]) => {
    const target: string[] = [];
    const baseline: string[] = [];
    for (let i = 0; i < LIST; i++) {
      const [a, b] = make();
      target.push(a);
      baseline.push(b);
    }
    return {
      target: writePaths(dir, name, target),
      baseline: writePaths(dir, `${name}-static`, baseline),
      notFound: baseline.filter((line) => line.startsWith(MISSING_PREFIX)).length / LIST,
    };
  };
  const layoutLists = (layout: LayoutName) =>
    lists(layout, () => {
      const wearer = pick(wearers);
      return [PLAYER_LAYOUTS[layout].path(wearer[PLAYER_LAYOUTS[layout].by]), PLAYER_LAYOUTS[layout].file(wearer.hash)];
    });
  const unknown = lists('unknown', () => {
    const urlPath = `/profile/${freshUuid()}`;
    return [urlPath, `${MISSING_PREFIX}${urlPath}`];
  });
  const unknownPool = Array.from({ length: UNKNOWN_POOL }, () => freshUuid());
  const unknownNames = Array.from({ length: UNKNOWN_POOL }, () => randomName(MIX_NAMES));
  const unknownZipf = zipfSampler(unknownPool.length, ZIPF);
  const unknownSeen = lists('unknown-seen', () => {
    const urlPath = `/profile/${unknownPool[unknownZipf()]!}`;
    return [urlPath, `${MISSING_PREFIX}${urlPath}`];
  });
  const textures = lists('textures', () => {
    const urlPath = `/textures/${pick(hashes)}`;
    return [urlPath, urlPath];
  });
  const mixWeights = parseMix(MIX);
  const knownLayout = weightedPicker(mixWeights);
  const unknownLayout = weightedPicker(mixWeights.filter(([name]) => name !== 'textures') as Array<[LayoutName, number]>);
  const zipf = zipfSampler(wearers.length, ZIPF);
  const mix = lists('mix', () => {
    if (Math.random() < UNKNOWN_SHARE) {
      const layout = PLAYER_LAYOUTS[unknownLayout()];
      const rank = unknownZipf();
      const urlPath = layout.path(layout.by === 'uuid' ? unknownPool[rank]! : unknownNames[rank]!);
      return [urlPath, `${MISSING_PREFIX}${urlPath}`];
    }
    const wearer = wearers[zipf()]!;
    const name = knownLayout();
    if (name === 'textures') return [`/textures/${wearer.hash}`, `/textures/${wearer.hash}`];
    const layout = PLAYER_LAYOUTS[name];
    return [layout.path(wearer[layout.by]), layout.file(wearer.hash)];
  });
  const profiles = layoutLists('profile');

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
  for (const file of [knownProfiles, allTextures]) await runWrk({ port: PORTS.app, pathsFile: file, durationS: 3_600, connections: CONNECTIONS, mode: 'once' });
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
    app: { name: 'app', port: PORTS.app, parts: [{ label: 'app', pids: appPids }] },
    node: { name: 'node', port: PORTS.node, parts: [{ label: 'node', pids: () => [node.child.pid!] }] },
    fastify: { name: 'fastify', port: PORTS.fastify, parts: [{ label: 'fastify', pids: () => [fastify.child.pid!] }] },
  } satisfies Record<string, Target>;
  const throughNginx = (name: string, title: string, paths: { target: string; baseline: string; notFound: number }, max: number): BenchCase => ({
    name,
    title,
    runs: [
      { target: targets.shipped, pathsFile: paths.target },
      { target: targets.static, pathsFile: paths.baseline },
    ],
    goal: { max },
    notFoundShare: paths.notFound,
  });
  const mixDescription = `${Math.round(UNKNOWN_SHARE * 100)}% unknown (uuids Zipf(${ZIPF}) over ${UNKNOWN_POOL}, names: ${MIX_NAMES}), Zipf(${ZIPF}) over known, ${MIX}`;
  const allCases: BenchCase[] = [
    throughNginx('profile', 'nginx: known /profile/{uuid}', profiles, 1.15),
    throughNginx('unknown', 'nginx: unknown /profile/{uuid}, a new one each time', unknown, 1.1),
    throughNginx('unknown-seen', 'nginx: unknown /profile/{uuid}, Zipf over UNKNOWN_POOL', unknownSeen, 1.1),
    throughNginx('still', 'nginx: /capes/{name}.png', layoutLists('still'), 1.15),
    throughNginx('gif', 'nginx: /capes/{uuid}.gif', layoutLists('gif'), 1.15),
    throughNginx('strip', 'nginx: /capes/strip/{uuid}.png', layoutLists('strip'), 1.15),
    throughNginx('elytra', 'nginx: /elytras/{name}.png', layoutLists('elytra'), 1.15),
    throughNginx('csl', 'nginx: /csl/{name}.json', layoutLists('csl'), 1.15),
    throughNginx('textures', 'nginx: /textures/{hash}', textures, 1.15),
    throughNginx('mix', 'nginx: the mix', mix, 1.15),
    {
      name: 'app-unknown',
      title: 'app: unknown /profile/{uuid}',
      runs: [
        { target: targets.app, pathsFile: unknown.target },
        { target: targets.node, pathsFile: unknown.target },
      ],
      goal: { max: 1.5 },
      notFoundShare: 1,
    },
    {
      name: 'app-profile',
      title: 'app: known /profile/{uuid}',
      runs: [
        { target: targets.app, pathsFile: profiles.target },
        { target: targets.node, pathsFile: profiles.target },
        { target: targets.fastify, pathsFile: profiles.target },
      ],
      goal: { max: 1.3 },
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
      goal: { max: 1.2 },
      notFoundShare: 0,
    },
  ];
  const cases = ONLY_CASES ? allCases.filter((benchCase) => ONLY_CASES.includes(benchCase.name)) : allCases;

  // Each case's first paths, asked of its target and its baseline: the same status, and bodies of the same length.
  console.log('\nAnswers compared on the first 20 paths of each case (status; body bytes):');
  for (const benchCase of cases) {
    const [first, second] = benchCase.runs;
    const a = fs.readFileSync(first!.pathsFile, 'utf8').split('\n').filter(Boolean).slice(0, 20);
    const b = fs.readFileSync(second!.pathsFile, 'utf8').split('\n').filter(Boolean).slice(0, 20);
    const answer = async (port: number, urlPath: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${urlPath}`);
      return { status: response.status, length: (await response.arrayBuffer()).byteLength };
    };
    let differ = 0;
    const statuses = new Map<string, number>();
    for (let i = 0; i < a.length; i++) {
      const [x, y] = [await answer(first!.target.port, a[i]!), await answer(second!.target.port, b[i]!)];
      statuses.set(`${x.status}`, (statuses.get(`${x.status}`) ?? 0) + 1);
      // CustomSkinAPI's body holds the player's name, whose length differs from the baseline's player.
      if (x.status !== y.status || (benchCase.name !== 'csl' && benchCase.name !== 'mix' && x.length !== y.length)) differ += 1;
    }
    console.log(
      `  ${benchCase.name.padEnd(13)} ${first!.target.name} vs ${second!.target.name}: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}${differ ? `  !! ${differ} differ` : ', the same'}`,
    );
  }

  console.log(`\nThe mix: ${mixDescription}`);
  console.log(
    `Node ${process.version}, nginx ${NGINX_WORKERS} worker(s), wrk -t1 -c${CONNECTIONS}${PIN ? ` on core ${LOAD_CORE}, every server on core ${SERVER_CORE}` : ''}, ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s of warm-up, ${thousands(LIST)} paths a list, ${os.cpus().length} cores`,
  );
  if (PIN) pinTreeToCore([shipped.child.pid!, staticNginx.pid, app.child.pid!, node.child.pid!, fastify.child.pid!], SERVER_CORE);
  const { rounds: results, appRequests: appRequestsByCase } = await runAll(cases);
  const rssEnd = rssMb(app.child.pid!);

  // The table: each case's target against its baseline, medians of the rounds; ratios are medians of per-round ratios.
  const rows: string[][] = [['case', 'vs', 'CPU µs/req', 'CPU ratio', 'goal', 'ok', 'nginx alone', 'req/s', 'req/s ratio', 'p99 ms', 'app requests']];
  let appRequestsTotal = 0;
  allPass = true;
  for (const benchCase of cases) {
    const [first, second] = benchCase.runs.map(({ target }) => results.get(benchCase.name)!.get(target.name)!) as [LoadResult[], LoadResult[]];
    const [a, b] = benchCase.runs.map(({ target }) => target.name);
    const ratio = (x: LoadResult[], y: LoadResult[], of: (result: LoadResult) => number) => median(x.map((result, round) => of(result) / of(y[round]!)));
    const cpuRatio = ratio(first, second, (result) => result.cpuUs);
    const shippedCase = benchCase.runs[0]!.target === targets.shipped;
    const pass = cpuRatio <= benchCase.goal.max;
    allPass &&= pass;
    const appRequests = appRequestsByCase.get(benchCase.name)!;
    appRequestsTotal += appRequests;
    const medianOf = (runs: LoadResult[], of: (result: LoadResult) => number) => median(runs.map(of));
    rows.push([
      benchCase.title,
      `${a} / ${b}`,
      `${medianOf(first, (r) => r.cpuUs).toFixed(1)} / ${medianOf(second, (r) => r.cpuUs).toFixed(1)}`,
      `${cpuRatio.toFixed(2)}×`,
      `≤ ${benchCase.goal.max}×`,
      pass ? 'yes' : 'NO',
      shippedCase ? `${ratio(first, second, (r) => r.cpuPartsUs[0]!).toFixed(2)}×` : '–',
      `${thousands(medianOf(first, (r) => r.rps))} / ${thousands(medianOf(second, (r) => r.rps))}`,
      `${ratio(first, second, (r) => r.rps).toFixed(2)}×`,
      `${medianOf(first, (r) => r.p99).toFixed(2)} / ${medianOf(second, (r) => r.p99).toFixed(2)}`,
      shippedCase ? (appRequests === 0 ? '0' : `${thousands(appRequests)} !!`) : '–',
    ]);
    if (benchCase.rpsGoal) {
      const other = results.get(benchCase.name)!.get(benchCase.rpsGoal.against)!;
      const rpsRatio = ratio(first, other, (result) => result.rps);
      const rpsPass = rpsRatio >= benchCase.rpsGoal.min;
      allPass &&= rpsPass;
      rows.push([
        `${benchCase.title} (req/s)`,
        `${a} / ${benchCase.rpsGoal.against}`,
        `${medianOf(first, (r) => r.cpuUs).toFixed(1)} / ${medianOf(other, (r) => r.cpuUs).toFixed(1)}`,
        `${ratio(first, other, (r) => r.cpuUs).toFixed(2)}×`,
        `req/s ≥ ${benchCase.rpsGoal.min}×`,
        rpsPass ? 'yes' : 'NO',
        '–',
        `${thousands(medianOf(first, (r) => r.rps))} / ${thousands(medianOf(other, (r) => r.rps))}`,
        `${rpsRatio.toFixed(2)}×`,
        `${medianOf(first, (r) => r.p99).toFixed(2)} / ${medianOf(other, (r) => r.p99).toFixed(2)}`,
        '–',
      ]);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log(
    `\nResults (medians of ${ROUNDS} round(s); ratios are medians of per-round ratios; CPU of the whole target, for the shipped nginx with the app process behind it, "nginx alone" without it; load average ${loadAverage()})\n`,
  );
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
    if (i === 0) console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  }
  const appPass = appRequestsTotal === 0;
  allPass &&= appPass;
  console.log(
    `\nRequests that reached the app process during the nginx runs (warm-ups included): ${thousands(appRequestsTotal)} (must be 0: ${appPass ? 'yes' : 'NO'})`,
  );
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
