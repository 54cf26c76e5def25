// nginx alone: the mod API's answer-directory locations of deploy/nginx/cloakroom.conf (and the
// cloakroom-mod-answer.conf they include) against nginx serving the same bytes from a plain location
// (bench/baseline-nginx.ts), with no app process behind either. Measures what the shipped locations add to a file (the
// half-second name in the root, the shared include's headers and open-file cache settings) in CPU per request,
// interleaved, or with CALLGRIND=1 in instructions per request (valgrind), which the rest of the machine does not move.
// bench/mod-answers.ts measures the same locations over a directory built by the real rebuild, with every layout and
// unknown players. See bench/README.md, "Mod API at the speed of a file".
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireNginx, writeNginxConfig } from '../support/nginx.ts';
import { writeSiteFixture } from '../support/site-fixture.ts';
import { sha256Hex } from '../support/textures.ts';
import { modFilesNginxConfig, startBenchNginx, type BenchNginx } from './baseline-nginx.ts';
import { countedInstructions, underCallgrind } from './callgrind.ts';
import { cpuPerRequest, pause, pinTreeToCore } from './processes.ts';
import { loadAverage, median, runWrk, thousands } from './wrk.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
/** Instructions per request under valgrind's callgrind instead of CPU time (one run per target). */
const CALLGRIND = process.env.CALLGRIND === '1';
/** Unless PIN=0, both nginx run on core 1 and wrk on core 0 (as in bench/mod-answers.ts). */
const PIN = process.env.PIN !== '0';
/**
 * The file baseline listens here, the shipped configuration on the next port (and under callgrind on the one after).
 */
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4430);

/** One nginx under test: its name and how to start it on a port. */
interface Target {
  name: string;
  start: (port: number, wrapper: string[]) => Promise<BenchNginx>;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-nginx-locations-'));
const answersDir = path.join(dir, 'answers');
const www = path.join(dir, 'file', 'www');
for (const folder of [path.join(answersDir, 'textures'), path.join(answersDir, 'profile'), path.join(www, 'textures')])
  fs.mkdirSync(folder, { recursive: true });
// Eight textures and 100 profiles, the same bytes in both places (their size does not matter here: both send a file);
// in the answer directory a profile's file path is its URL's path.
const hashes = Array.from({ length: 8 }, () => {
  const bytes = randomBytes(230);
  const hash = sha256Hex(bytes);
  fs.writeFileSync(path.join(answersDir, 'textures', hash), bytes);
  fs.writeFileSync(path.join(www, 'textures', hash), bytes);
  return hash;
});
const profile = JSON.stringify({
  capeGlint: false,
  upsideDown: false,
  animatedCape: false,
  cape_url: `https://capes.example.org/textures/${hashes[0]}`,
  animated_cape_url: null,
  ear_url: null,
});
fs.writeFileSync(path.join(www, 'profile.json'), profile);
const uuids = Array.from({ length: 100 }, () => randomBytes(16).toString('hex'));
for (const uuid of uuids) fs.writeFileSync(path.join(answersDir, 'profile', uuid), profile);
const cases = [
  { label: `/profile/{uuid} over ${uuids.length} players`, paths: uuids.map((uuid) => `/profile/${uuid}`) },
  { label: `/textures/{hash} over ${hashes.length} textures`, paths: hashes.map((hash) => `/textures/${hash}`) },
].map(({ label, paths }, i) => {
  const file = path.join(dir, `paths-${i}.txt`);
  fs.writeFileSync(file, paths.map((line) => `${line}\n`).join(''));
  return { label, file };
});

const targets: Target[] = [
  {
    name: 'file',
    start: (port, wrapper) => {
      const home = path.join(dir, 'file');
      return startBenchNginx(home, modFilesNginxConfig(home, port), port, wrapper);
    },
  },
  {
    name: 'shipped',
    start: (port, wrapper) => {
      const home = path.join(dir, 'shipped');
      fs.mkdirSync(home, { recursive: true });
      // No process behind it: every path of the run has its file. (Port 9 refuses, should a request ever get past
      // them.)
      // An empty site with the host rules the build writes (the shipped configuration includes its nginx rules).
      const siteDir = path.join(home, 'site');
      fs.mkdirSync(siteDir, { recursive: true });
      writeSiteFixture(siteDir, {}, []);
      const config = writeNginxConfig({ dir: home, port, upstreamPorts: [9], siteDir, answersDir });
      return startBenchNginx(home, config, port, wrapper);
    },
  },
];

/** Loads one nginx with wrk for `durationS`; its requests per second and CPU per request. */
async function load(nginx: BenchNginx, port: number, pathsFile: string, durationS: number) {
  const meter = cpuPerRequest(() => [nginx.pid]);
  const result = await runWrk({ port, pathsFile, durationS, connections: CONNECTIONS, core: PIN ? 0 : undefined });
  if (result.errors > 0) throw new Error(`${result.errors} failed answers on port ${port}`);
  return { rps: result.rps, cpuUs: meter(result.rps * durationS) };
}

/** Both nginx side by side, rounds interleaved: CPU per request and its ratio to the file's, round by round. */
async function measureCpu(): Promise<void> {
  const running = targets.map((target, i) => ({ target, port: BASE_PORT + i }));
  const started = await Promise.all(running.map(({ target, port }) => target.start(port, [])));
  try {
    if (PIN)
      pinTreeToCore(
        started.map((nginx) => nginx.pid),
        1,
      );
    for (const { label, file } of cases) {
      console.log(`\n${label} (load average ${loadAverage()})`);
      for (const [i, nginx] of started.entries()) await load(nginx, running[i]!.port, file, 2);
      const runs = started.map(() => [] as Array<{ rps: number; cpuUs: number }>);
      for (let round = 0; round < ROUNDS; round++)
        for (const [i, nginx] of started.entries())
          runs[i]!.push(await load(nginx, running[i]!.port, file, DURATION_S));
      for (const [i, { target }] of running.entries()) {
        const ratios = runs[i]!.map((run, round) => run.cpuUs / runs[0]![round]!.cpuUs);
        console.log(
          `  ${target.name.padEnd(8)} CPU ${median(runs[i]!.map((run) => run.cpuUs)).toFixed(2)} µs/req, ${thousands(median(runs[i]!.map((run) => run.rps)))} req/s; / file per round ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(2)}×`,
        );
      }
    }
  } finally {
    for (const nginx of started) nginx.stop();
  }
}

/**
 * Each nginx under callgrind in turn: the instructions it runs per request, counted over one wrk run after a warm-up.
 */
async function measureInstructions(): Promise<void> {
  for (const { label, file } of cases) {
    console.log(`\n${label}`);
    const counts: number[] = [];
    for (const target of targets) {
      const port = BASE_PORT + targets.length;
      const out = path.join(dir, `callgrind-${target.name}.out`);
      const nginx = await target.start(port, underCallgrind(out));
      try {
        await load(nginx, port, file, 2);
        let requests = 0;
        const total = await countedInstructions(nginx.pid, out, async () => {
          requests = (await load(nginx, port, file, DURATION_S)).rps * DURATION_S;
        });
        counts.push(total / requests);
        console.log(
          `  ${target.name.padEnd(8)} ${thousands(total / requests)} instructions per request (${thousands(requests)} requests); / file ${(counts.at(-1)! / counts[0]!).toFixed(2)}×`,
        );
      } finally {
        nginx.stop();
        await pause(500);
      }
    }
  }
}

try {
  requireNginx();
  console.log(
    `nginx alone, ${CALLGRIND ? 'instructions per request (callgrind)' : `CPU per request, ${ROUNDS} interleaved rounds of ${DURATION_S} s`}; wrk -t1 -c${CONNECTIONS}${PIN ? ' on core 0, nginx on core 1' : ''}`,
  );
  await (CALLGRIND ? measureInstructions() : measureCpu());
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
