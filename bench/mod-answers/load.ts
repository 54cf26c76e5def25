// The mod answers bench's runs: wrk loading each target with a case's paths (one after the other, or all of a case at
// once), the CPU time each part of the target spent, and the rounds, in which all cases take turns.
import { cpuPerRequest } from '../processes.ts';
import { loadAverage, runWrk, thousands } from '../wrk.ts';
import { CONNECTIONS, DURATION_S, LOAD_CORE, PIN, PORTS, ROUNDS, WARMUP_S } from './settings.ts';

/**
 * One wrk run of a target: req/s, p99, bytes per answer, CPU per request (whole target and each part), 404 share,
 * socket errors, app requests and nginx errors logged.
 */
export interface LoadResult {
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

/**
 * What wrk loads: a port, the processes whose CPU time counts for it (in named parts), and what to watch while it runs.
 */
export interface Target {
  name: string;
  port: number;
  parts: Array<{ label: string; pids: () => number[] }>;
  /** Count the requests the app process answered during each run (the shipped nginx: must be none). */
  watchApp?: boolean;
  /** nginx's error log so far. */
  errorLog?: () => string;
}

/**
 * A case: targets each with its paths file, the baseline the first is compared with, the goal, and the share of answers
 * that are 404.
 */
export interface BenchCase {
  name: string;
  title: string;
  runs: Array<{ target: Target; pathsFile: string }>;
  /**
   * Load every target at once, each by a wrk of its own at `rate` requests per second (0: as fast as it answers), so
   * that they meet the same neighbours and the same scheduler; otherwise one after the other, as fast as each answers.
   */
  atOnce?: { rate: number };
  /** The most the first target's CPU per request may be, times the second's (none: the case has a req/s goal only). */
  goal?: { max: number };
  /** The share of 404 answers its paths ask for (checked on every run). */
  notFoundShare: number;
  /** A second goal: the first target's req/s at least this times the named target's. */
  rpsGoal?: { against: string; min: number };
  /** Another target the first is compared with, without a goal (a row of its own in the table). */
  also?: string;
}

/** The mod API's request count of the app process (every answer, fast path and routes), read from its metrics port. */
export async function appRequestCount(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${PORTS.metrics}/metrics`)).text();
  let count = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('cloakroom_http_request_duration_seconds_count'))
      count += Number(line.slice(line.lastIndexOf(' ') + 1));
  return count;
}

/**
 * Loads a target with wrk for `durationS`, walking its paths in order from a random line; its figures and what it
 * caused.
 */
export async function load(target: Target, pathsFile: string, durationS: number, rate = 0): Promise<LoadResult> {
  const appBefore = target.watchApp ? await appRequestCount() : 0;
  const logBefore = target.errorLog?.().length ?? 0;
  const meters = target.parts.map((part) => cpuPerRequest(part.pids));
  const result = await runWrk({
    port: target.port,
    pathsFile,
    durationS,
    connections: CONNECTIONS,
    mode: 'cycle',
    core: PIN ? LOAD_CORE : undefined,
    rate: rate || undefined,
  });
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

/**
 * Prints one run's line, with what looks wrong in it (another 404 share than its paths ask for, socket errors, app
 * requests, nginx errors).
 */
export function printRun(label: string, benchCase: BenchCase, target: Target, result: LoadResult): void {
  const parts =
    target.parts.length > 1
      ? ` (${target.parts.map((part, i) => `${part.label} ${result.cpuPartsUs[i]!.toFixed(1)}`).join(' + ')})`
      : '';
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

/**
 * Every case's rounds by target, and how many requests reached the app process during each case's nginx runs (warm-up
 * included).
 */
export interface RunResults {
  rounds: Map<string, Map<string, LoadResult[]>>;
  appRequests: Map<string, number>;
}

/**
 * Warms every target of every case up, then runs the rounds: each round every case, each case every target in turn (or
 * all at once).
 */
export async function runAll(cases: BenchCase[]): Promise<RunResults> {
  const rounds = new Map(
    cases.map((benchCase) => [
      benchCase.name,
      new Map(benchCase.runs.map(({ target }) => [target.name, [] as LoadResult[]])),
    ]),
  );
  const appRequests = new Map(cases.map((benchCase) => [benchCase.name, 0]));
  const run = async (label: string, benchCase: BenchCase, durationS: number) => {
    const loaded = benchCase.atOnce
      ? await Promise.all(
          benchCase.runs.map(({ target, pathsFile }) => load(target, pathsFile, durationS, benchCase.atOnce!.rate)),
        )
      : [];
    for (const [i, { target, pathsFile }] of benchCase.runs.entries()) {
      const result = loaded[i] ?? (await load(target, pathsFile, durationS));
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
