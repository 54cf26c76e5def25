// The mod API bench's settings (its environment variables and goals) and its runs: wrk loading a target while its CPU
// time is counted, a case's warm-up and interleaved rounds with the medians, a ratio printed against its goal, and the
// check that every target answers the same. bench/mod-api.ts seeds, starts the targets and runs the cases with them.
import type { ChildProcess } from 'node:child_process';
import { cpuPerRequest } from './processes.ts';
import { runWrk, median, thousands, loadAverage } from './wrk.ts';

/** The player counts a /profile case runs over (PLAYERS), the largest seeded. */
export const PLAYER_COUNTS = (process.env.PLAYERS ?? '10000,1000000').split(',').map(Number);
/** How many capes are seeded (TEXTURES). */
export const TEXTURE_COUNT = Number(process.env.TEXTURES ?? 200);
/** wrk's open connections (CONNECTIONS). */
export const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
/** Seconds of each measured run (DURATION). */
export const DURATION_S = Number(process.env.DURATION ?? 10);
/** Seconds of each target's warm-up before the rounds (WARMUP). */
export const WARMUP_S = Number(process.env.WARMUP ?? 5);
/** Rounds of each case (ROUNDS). */
export const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** The real server's port (BENCH_PORT); bare +1, nginx +2, node +3. */
export const BASE_PORT = Number(process.env.BENCH_PORT ?? 4392);
/** The nginx binary (NGINX). */
export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
/** Players uploading and downloading heavy animated capes in the last phase (0 skips it). */
export const HEAVY_WORKERS = Number(process.env.HEAVY_WORKERS ?? 20);
/** The p99 goal for /profile and /textures while the heavy work runs. */
export const HEAVY_P99_GOAL_MS = 50;
/**
 * The goal for /textures straight to the process: CPU per request at most this times node:http's for the same bytes.
 */
export const TEXTURE_CPU_GOAL = 1.2;
/**
 * In the heavy phase, the load generators (wrk and this process's uploads and downloads) run on one core, the server
 * with its image workers on the other.
 */
export const LOAD_CORE = 0;
export const SERVER_CORE = 1;

/** One wrk run: requests per second, latency percentiles in ms, and failed or non-2xx/3xx answers. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /**
   * The target process's CPU time (user + system) per answered request, in µs: steadier than req/s on a busy machine.
   */
  cpuUs: number;
}

/** A server under test, in its own process (or process group). */
export interface Target {
  name: string;
  port: number;
  child: ChildProcess;
}

/** What a case loads: the paths file wrk picks from, and the targets it compares. */
export interface BenchCase {
  title: string;
  pathsFile: string;
  targets: Target[];
}

/** Node with the TypeScript loader, as `npm start` runs the server (tsx), without tsx's extra parent process. */
export const NODE_TS = [process.execPath, '--import', 'tsx'] as const;

/**
 * Loads a target with wrk for `durationS` while `during` (if given) runs beside it, e.g. uploads and downloads for a
 * background-load phase; resolves when both are done.
 */
export async function load(
  target: Target,
  pathsFile: string,
  durationS: number,
  during?: () => Promise<void>,
): Promise<LoadResult> {
  const cpu = cpuPerRequest(() => [target.child.pid!]);
  const [result] = await Promise.all([
    runWrk({ port: target.port, pathsFile: pathsFile, durationS: durationS, connections: CONNECTIONS }),
    during?.(),
  ]);
  return { ...result, cpuUs: cpu(result.rps * durationS) };
}

/**
 * Runs a case: warm-up of every target, then rounds in turn (bare, nginx, real, bare, ...); prints every run and the
 * medians.
 */
export async function runCase(benchCase: BenchCase): Promise<Map<string, LoadResult[]>> {
  console.log(`\n${benchCase.title} (load average ${loadAverage()})`);
  for (const target of benchCase.targets) await load(target, benchCase.pathsFile, WARMUP_S);
  const results = new Map<string, LoadResult[]>(benchCase.targets.map((target) => [target.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of benchCase.targets) {
      const result = await load(target, benchCase.pathsFile, DURATION_S);
      results.get(target.name)!.push(result);
      console.log(
        `  round ${round} ${target.name.padEnd(6)} ${thousands(result.rps).padStart(7)} req/s  p50 ${result.p50.toFixed(2).padStart(6)} ms  p99 ${result.p99.toFixed(2).padStart(6)} ms  CPU ${result.cpuUs.toFixed(1).padStart(5)} µs/req${result.errors ? `  errors ${result.errors}` : ''}`,
      );
    }
  }
  for (const [name, runs] of results) {
    const rps = runs.map((run) => run.rps);
    console.log(
      `  ${name.padEnd(6)} median ${thousands(median(rps))} req/s (${thousands(Math.min(...rps))}–${thousands(Math.max(...rps))}), p50 ${median(runs.map((run) => run.p50)).toFixed(2)} ms, p99 ${median(runs.map((run) => run.p99)).toFixed(2)} ms (${Math.min(...runs.map((run) => run.p99)).toFixed(2)}–${Math.max(...runs.map((run) => run.p99)).toFixed(2)}), CPU ${median(runs.map((run) => run.cpuUs)).toFixed(1)} µs/req`,
    );
  }
  return results;
}

/** Prints a ratio against its goal. */
export function verdict(label: string, value: number, goal: number, atLeast: boolean): boolean {
  const pass = atLeast ? value >= goal : value <= goal;
  console.log(
    `  ${label.padEnd(34)} ${value.toFixed(2)}× (goal ${atLeast ? '≥' : '≤'} ${goal}×) ${pass ? 'PASS' : 'FAIL'}`,
  );
  return pass;
}

/** Checks that every target answers a path with the same status and the same body length as the first. */
export async function sameAnswers(targets: Target[], urlPath: string): Promise<void> {
  const answers = await Promise.all(
    targets.map(async (target) => {
      const response = await fetch(`http://127.0.0.1:${target.port}${urlPath}`);
      return `${target.name} ${response.status} ${(await response.arrayBuffer()).byteLength} B`;
    }),
  );
  console.log(`  ${urlPath.slice(0, 20)}…: ${answers.join(', ')}`);
}
