// What the layouts other mods read cost beside a cached /profile: one real server, every path asked once (so every
// profile, texture and GIF is cached), then interleaved rounds of /profile/{uuid} and each layout, measured as the
// server's CPU time per request (and req/s, p99). See bench/README.md, "Mod API layouts".
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dashedUuid } from '../src/lib/ids.ts';
import { makeCapes, seed } from './mod-seed.ts';
import { cpuPerRequest, startProcess, stopProcess } from './processes.ts';
import { loadAverage, median, runWrk, thousands } from './wrk.ts';

const PLAYERS = Number(process.env.PLAYERS ?? 10_000);
const TEXTURES = Number(process.env.TEXTURES ?? 200);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 4396);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-layouts-bench-'));
let child: ChildProcess | undefined;
try {
  const dataDir = path.join(dir, 'data');
  const databaseFile = path.join(dataDir, 'bench.db');
  const { uuids, hashes } = await seed(dataDir, databaseFile, PLAYERS, await makeCapes(TEXTURES));
  // The players with a cape (every other one, see bench/mod-seed.ts), by uuid and by name.
  const wearers = uuids
    .map((uuid, i) => ({ uuid, name: `Player${i}`, capeHash: hashes[i % hashes.length]! }))
    .filter((_, i) => i % 2 === 0);
  // The same cape bytes by hash: what a picture costs beside the file it sends, whose bytes outweigh a profile's.
  const cases: Array<[string, (player: { uuid: string; name: string; capeHash: string }) => string]> = [
    ['/profile/{uuid}', (p) => `/profile/${p.uuid}`],
    ['/textures/{hash}', (p) => `/textures/${p.capeHash}`],
    ['/capes/{uuid}.png', (p) => `/capes/${p.uuid}.png`],
    ['/capes/{name}.png', (p) => `/capes/${p.name}.png`],
    ['/capes/{dashed}.gif', (p) => `/capes/${dashedUuid(p.uuid)}.gif`],
    ['/capes/strip/{uuid}.png', (p) => `/capes/strip/${p.uuid}.png`],
    ['/csl/{name}.json', (p) => `/csl/${p.name}.json`],
    ['/csl-minecraftcapes/{uuid}', (p) => `/csl-minecraftcapes/${p.uuid}`],
  ];
  const files = cases.map(([label, pathOf], i) => {
    const file = path.join(dir, `case-${i}.txt`);
    fs.writeFileSync(file, wearers.map((player) => `${pathOf(player)}\n`).join(''));
    return { label, file };
  });
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${databaseFile}`,
    SITE_DIR: path.join(dir, 'no-site'),
    SKIP_SITE_BUILD: 'true',
    PUBLIC_BASE_URL: `http://127.0.0.1:${PORT}`,
    PROFILE_CACHE_TTL_S: '3600',
  };
  const real = await startProcess(
    'real',
    PORT,
    process.execPath,
    ['--import', 'tsx', 'server/main.ts'],
    env,
    path.join(dir, 'real.log'),
    '/api/home',
  );
  child = real.child;
  for (const { file } of files)
    await runWrk({ port: PORT, pathsFile: file, durationS: 3_600, connections: CONNECTIONS, mode: 'once' });
  console.log(
    `${thousands(wearers.length)} players with a cape (of ${thousands(PLAYERS)}), ${TEXTURES} capes of 256x128; wrk -t1 -c${CONNECTIONS}, ${ROUNDS} interleaved rounds of ${DURATION_S} s; Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  const runs = new Map<string, Array<{ rps: number; p99: number; cpuUs: number; errors: number }>>(
    files.map(({ label }) => [label, []]),
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const { label, file } of files) {
      const cpu = cpuPerRequest(() => [child!.pid!]);
      const result = await runWrk({ port: PORT, pathsFile: file, durationS: DURATION_S, connections: CONNECTIONS });
      const cpuUs = cpu(result.rps * DURATION_S);
      runs.get(label)!.push({ ...result, cpuUs });
      console.log(
        `  round ${round} ${label.padEnd(24)} ${thousands(result.rps).padStart(7)} req/s  p99 ${result.p99.toFixed(2).padStart(6)} ms  CPU ${cpuUs.toFixed(1).padStart(5)} µs/req${result.errors ? `  errors ${result.errors}` : ''}`,
      );
    }
  }
  const profileRuns = runs.get(cases[0]![0])!;
  console.log(
    `\nmedians (load average ${loadAverage()}); CPU ratio = the median of each round's CPU per request over that round's /profile`,
  );
  for (const [label, results] of runs) {
    const ratio = median(results.map((result, round) => result.cpuUs / profileRuns[round]!.cpuUs));
    console.log(
      `  ${label.padEnd(24)} ${thousands(median(results.map((r) => r.rps))).padStart(7)} req/s  p99 ${median(results.map((r) => r.p99)).toFixed(2)} ms  CPU ${median(results.map((r) => r.cpuUs)).toFixed(1)} µs/req  ${ratio.toFixed(2)}× /profile`,
    );
  }
} finally {
  if (child) await stopProcess(child);
  fs.rmSync(dir, { recursive: true, force: true });
}
