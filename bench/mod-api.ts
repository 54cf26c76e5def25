// Mod API load test: /profile/{uuid} and /textures/{hash} of the real server against a bare Fastify route and nginx,
// each in its own process, loaded by wrk (a process of its own), in interleaved rounds (bench/mod-api-runs.ts holds the
// settings and the runs). See bench/README.md, "Mod API under load".
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCapes, seed } from './mod-seed.ts';
import { prepareHeavyLoad } from './heavy-load.ts';
import { startProcess, stopProcess, cpuPerRequest, pinToCore, rssMb } from './processes.ts';
import { runWrk, roundRatio, thousands, loadAverage } from './wrk.ts';
import { modFilesNginxConfig } from './baseline-nginx.ts';
import {
  BASE_PORT,
  CONNECTIONS,
  DURATION_S,
  HEAVY_P99_GOAL_MS,
  HEAVY_WORKERS,
  LOAD_CORE,
  NGINX,
  NODE_TS,
  PLAYER_COUNTS,
  ROUNDS,
  runCase,
  sameAnswers,
  SERVER_CORE,
  TEXTURE_COUNT,
  TEXTURE_CPU_GOAL,
  verdict,
  WARMUP_S,
} from './mod-api-runs.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-mod-bench-'));
const started: ChildProcess[] = [];
const stopAll = () => Promise.all(started.map(stopProcess));
process.on('SIGINT', () => {
  void stopAll().then(() => process.exit(130));
});
let allPass = true;
try {
  const players = Math.max(...PLAYER_COUNTS);
  const dataDir = path.join(dir, 'data');
  const databaseFile = path.join(dataDir, 'bench.db');
  const seedStart = Date.now();
  const capes = await makeCapes(TEXTURE_COUNT);
  const { uuids, hashes } = await seed(dataDir, databaseFile, players, capes);
  console.log(
    `Seeded ${thousands(players)} players and ${capes.length} capes (${Math.round(Math.min(...capes.map((c) => c.length)) / 1024)}–${Math.round(Math.max(...capes.map((c) => c.length)) / 1024)} KB) in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`,
  );
  console.log(
    `Node ${process.version}, wrk -t1 -c${CONNECTIONS}, ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s of warm-up, ${os.cpus().length} cores, load average ${loadAverage()}`,
  );

  // What nginx and the bare route serve: the bytes of a player with a cape (half the players), and the capes' files.
  const realPort = BASE_PORT;
  const publicBaseUrl = `http://127.0.0.1:${realPort}`;
  const www = path.join(dir, 'www');
  fs.mkdirSync(path.join(www, 'textures'), { recursive: true });
  const capeProfile = {
    capeGlint: false,
    upsideDown: false,
    animatedCape: false,
    cape_url: `${publicBaseUrl}/textures/${hashes[2 % hashes.length]}`,
    animated_cape_url: null,
    ear_url: null,
  };
  fs.writeFileSync(path.join(www, 'profile.json'), JSON.stringify(capeProfile));
  capes.forEach((bytes, i) => fs.writeFileSync(path.join(www, 'textures', hashes[i]!), bytes));
  const texturePaths = path.join(dir, 'textures.txt');
  fs.writeFileSync(texturePaths, hashes.map((hash) => `/textures/${hash}\n`).join(''));

  /** Starts a reference server of bench/mod-api-bare.ts (`fastify` or `node`) serving the same bytes. */
  const startBare = async (name: 'bare' | 'node', kind: 'fastify' | 'node', port: number) => {
    const target = await startProcess(
      name,
      port,
      NODE_TS[0],
      [...NODE_TS.slice(1), 'bench/mod-api-bare.ts'],
      {
        ...process.env,
        BARE: kind,
        PORT: String(port),
        PROFILE_FILE: path.join(www, 'profile.json'),
        TEXTURES_DIR: path.join(www, 'textures'),
      },
      path.join(dir, `${name}.log`),
      '/profile/x',
    );
    started.push(target.child);
    return target;
  };
  const bare = await startBare('bare', 'fastify', BASE_PORT + 1);
  // The floor under any Node server: node:http alone. The real server answers cached profiles and textures at this
  // level (server/mod/fast-path.ts), so it can beat the bare Fastify route; this is the baseline that shows what is
  // left.
  const bareNode = await startBare('node', 'node', BASE_PORT + 3);
  const nginx = await startProcess(
    'nginx',
    BASE_PORT + 2,
    NGINX,
    ['-p', dir, '-c', modFilesNginxConfig(dir, BASE_PORT + 2)],
    process.env,
    path.join(dir, 'nginx.log'),
    '/profile/x',
  );
  started.push(nginx.child);

  /**
   * Starts the real server as `npm start` would (default LOG_LEVEL, logs to a file), on the seeded database; on one
   * core (taskset) when `core` is given.
   */
  const startReal = async (label: string, extraEnv: Record<string, string> = {}, core?: number) => {
    const env = {
      ...process.env,
      ...extraEnv,
      PORT: String(realPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${databaseFile}`,
      SITE_DIR: path.join(dir, 'no-site'),
      SKIP_SITE_BUILD: 'true',
      PUBLIC_BASE_URL: publicBaseUrl,
      // The first pass over a million players can outlast the default 5 minutes on a busy machine; the rounds measure
      // hits.
      PROFILE_CACHE_TTL_S: process.env.PROFILE_CACHE_TTL_S ?? '3600',
    };
    const command = [...NODE_TS, 'server/main.ts'];
    const pinned = core === undefined ? command : ['taskset', '-c', String(core), ...command];
    const real = await startProcess(
      'real',
      realPort,
      pinned[0]!,
      pinned.slice(1),
      env,
      path.join(dir, `real-${label}.log`),
      '/api/home',
    );
    started.push(real.child);
    return real;
  };
  const logLines = (label: string) =>
    fs
      .readFileSync(path.join(dir, `real-${label}.log`), 'utf8')
      .split('\n')
      .filter(Boolean).length;

  for (const count of PLAYER_COUNTS) {
    const label = `profile-${count}`;
    const pathsFile = path.join(dir, `${label}.txt`);
    fs.writeFileSync(
      pathsFile,
      uuids
        .slice(0, count)
        .map((uuid) => `/profile/${uuid}\n`)
        .join(''),
    );
    const real = await startReal(label);
    const rssStart = rssMb(real.child.pid!);
    const warmStart = Date.now();
    await runWrk({ port: real.port, pathsFile: pathsFile, durationS: 3_600, connections: CONNECTIONS, mode: 'once' });
    const rssWarm = rssMb(real.child.pid!);
    console.log(
      `\nreal server, ${thousands(count)} players: every player asked once in ${((Date.now() - warmStart) / 1000).toFixed(0)} s; RSS ${rssStart.toFixed(0)} MB before, ${rssWarm.toFixed(0)} MB after (${thousands(((rssWarm - rssStart) * 1024 * 1024) / count)} B per player)`,
    );
    await sameAnswers([bare, bareNode, nginx, real], `/profile/${uuids[2]}`);
    const results = await runCase({
      title: `/profile/{uuid} over ${thousands(count)} players`,
      pathsFile,
      targets: [bare, bareNode, nginx, real],
    });
    console.log(`  real server RSS ${rssMb(real.child.pid!).toFixed(0)} MB; ${thousands(logLines(label))} log lines`);
    allPass =
      verdict(
        'profile / bare route, req/s',
        roundRatio(results, 'real', 'bare', (r) => r.rps),
        0.9,
        true,
      ) && allPass;
    allPass =
      verdict(
        'profile p99 / bare route p99',
        roundRatio(results, 'real', 'bare', (r) => r.p99),
        1.5,
        false,
      ) && allPass;
    console.log(
      `  profile / node:http, req/s          ${roundRatio(results, 'real', 'node', (r) => r.rps).toFixed(2)}×`,
    );
    console.log(
      `  profile / nginx, req/s              ${roundRatio(results, 'real', 'nginx', (r) => r.rps).toFixed(2)}×`,
    );
    console.log(
      `  bare route CPU / profile CPU        ${roundRatio(results, 'bare', 'real', (r) => r.cpuUs).toFixed(2)}× (per request)`,
    );
    console.log(
      `  profile CPU / node:http CPU         ${roundRatio(results, 'real', 'node', (r) => r.cpuUs).toFixed(2)}× (per request)`,
    );
    console.log(
      `  profile CPU / nginx CPU             ${roundRatio(results, 'real', 'nginx', (r) => r.cpuUs).toFixed(2)}× (per request)`,
    );
    await stopProcess(real.child);
  }

  const real = await startReal('textures');
  await sameAnswers([bare, bareNode, nginx, real], `/textures/${hashes.at(-1)}`);
  const results = await runCase({
    title: `/textures/{hash} over ${hashes.length} capes`,
    pathsFile: texturePaths,
    targets: [bare, bareNode, nginx, real],
  });
  console.log(
    `  real server RSS ${rssMb(real.child.pid!).toFixed(0)} MB; ${thousands(logLines('textures'))} log lines`,
  );
  allPass =
    verdict(
      'textures / nginx, req/s',
      roundRatio(results, 'real', 'nginx', (r) => r.rps),
      0.5,
      true,
    ) && allPass;
  allPass =
    verdict(
      'textures p99 / bare route p99',
      roundRatio(results, 'real', 'bare', (r) => r.p99),
      1.5,
      false,
    ) && allPass;
  console.log(`  textures / bare route, req/s        ${roundRatio(results, 'real', 'bare', (r) => r.rps).toFixed(2)}×`);
  console.log(`  textures / node:http, req/s         ${roundRatio(results, 'real', 'node', (r) => r.rps).toFixed(2)}×`);
  console.log(
    `  nginx CPU / textures CPU            ${roundRatio(results, 'nginx', 'real', (r) => r.cpuUs).toFixed(2)}× (per request)`,
  );
  console.log(
    `  bare route CPU / textures CPU       ${roundRatio(results, 'bare', 'real', (r) => r.cpuUs).toFixed(2)}× (per request)`,
  );
  allPass =
    verdict(
      'textures CPU / node:http CPU',
      roundRatio(results, 'real', 'node', (r) => r.cpuUs),
      TEXTURE_CPU_GOAL,
      false,
    ) && allPass;
  await stopProcess(real.child);

  if (HEAVY_WORKERS > 0) {
    // The last phase: players upload the heaviest animated cape and download an animated gallery item the whole time.
    // The server and its image workers run on one core, wrk and this process (the players' uploads and downloads) on
    // the other.
    for (const child of started) await stopProcess(child);
    pinToCore(LOAD_CORE);
    const heavyReal = await startReal(
      'heavy',
      {
        TEXTURE_UPLOADS_PER_10_MINUTES: '1000000',
        GALLERY_DOWNLOADS_PER_MINUTE: '1000000',
        GALLERY_UPLOADS_PER_10_MINUTES: '1000000',
        LOGIN_ATTEMPTS_PER_MINUTE: '1000000',
      },
      SERVER_CORE,
    );
    const profilePaths = path.join(dir, 'heavy-profiles.txt');
    fs.writeFileSync(
      profilePaths,
      uuids
        .slice(0, 10_000)
        .map((uuid) => `/profile/${uuid}\n`)
        .join(''),
    );
    await runWrk({
      port: heavyReal.port,
      pathsFile: profilePaths,
      durationS: 3_600,
      connections: CONNECTIONS,
      mode: 'once',
      core: LOAD_CORE,
    });
    const cases = [
      ['/profile over 10,000 players', profilePaths],
      ['/textures over 200 capes', texturePaths],
    ] as const;
    /**
     * One wrk run on the pinned server (beside `during`, if given): its figures and the server's CPU per request,
     * without and with its image workers.
     */
    const pinnedRun = async (pathsFile: string, during?: (wrkRun: Promise<unknown>) => Promise<string>) => {
      const [serverCpu, allCpu] = [
        cpuPerRequest(() => [heavyReal.child.pid!], false),
        cpuPerRequest(() => [heavyReal.child.pid!]),
      ];
      const wrkRun = runWrk({
        port: heavyReal.port,
        pathsFile: pathsFile,
        durationS: DURATION_S,
        connections: CONNECTIONS,
        core: LOAD_CORE,
      });
      const [result, beside] = await Promise.all([wrkRun, during?.(wrkRun)]);
      const requests = result.rps * DURATION_S;
      const figures = `${thousands(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, CPU ${serverCpu(requests).toFixed(1)} µs/req (server process; ${allCpu(requests).toFixed(1)} with its image workers)${result.errors ? `, errors ${result.errors}` : ''}`;
      return { result, text: beside ? `${figures}; ${beside}` : figures };
    };
    console.log(
      `\nQuiet, pinned (wrk on core ${LOAD_CORE}, the server on core ${SERVER_CORE}; load average ${loadAverage()})`,
    );
    for (const [label, pathsFile] of cases) console.log(`  ${label}: ${(await pinnedRun(pathsFile)).text}`);
    const heavy = await prepareHeavyLoad(
      `http://127.0.0.1:${heavyReal.port}`,
      databaseFile,
      uuids.slice(-HEAVY_WORKERS),
      HEAVY_WORKERS,
    );
    console.log(
      `\nWhile ${HEAVY_WORKERS} players upload a ${Math.round(heavy.gifBytes / 1024)} KB 64-frame 2048x1024 GIF cape and download an animated gallery item, over and over (same pinning; load average ${loadAverage()})`,
    );
    for (const [label, pathsFile] of cases) {
      const { result, text } = await pinnedRun(pathsFile, async (wrkRun) => {
        const report = await heavy.run(wrkRun);
        return `beside it ${report.uploads} uploads and ${report.downloads} downloads finished${report.failures.length ? `, ${report.failures.length} failed (${report.failures[0]})` : ''}`;
      });
      console.log(`  ${label}: ${text}`);
      allPass = verdict(`${label} p99 (ms / goal)`, result.p99 / HEAVY_P99_GOAL_MS, 1, false) && allPass;
    }
    console.log(`  real server RSS ${rssMb(heavyReal.child.pid!).toFixed(0)} MB`);
    await stopProcess(heavyReal.child);
  }
  console.log(`\n${allPass ? 'PASS' : 'FAIL'} (load average at the end ${loadAverage()})`);
} finally {
  await stopAll();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exitCode = allPass ? 0 : 1;
