// The gallery bench's measurement: the server started on a seeded database, every case timed over HTTP and in-process,
// and each case's line of the report.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { listGallery } from '../../server/gallery/queries.ts';
import { GOAL_P95_MS, SAMPLES, SESSION_TOKEN, WARMUP } from './settings.ts';
import type { Dataset } from './dataset.ts';
import { checkAnswer, expectedTotal, toFilter, type Case } from './cases.ts';

/** Starts the server on a database in a process group of its own, and resolves once it answers (60 s at most). */
export async function startServer(port: number, dataDir: string, databaseUrl: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SKIP_SITE_BUILD: 'true',
    LOG_LEVEL: 'warn',
  };
  for (const name of Object.keys(env)) if (name === 'REDIS_URL' || name.startsWith('S3_')) delete env[name];
  const child = spawn('npx', ['tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/home`)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await stopServer(child);
  throw new Error(exited ? 'the server exited before answering' : 'the server did not answer within 60 s');
}

/** Stops a server started by startServer and every process of its group (SIGKILL after 12 s). */
export async function stopServer(child: ChildProcess): Promise<void> {
  // npx, tsx and the server share the process group; wait until all of them are gone (the server closes its pool).
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  const waitGone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (groupAlive() && Date.now() < deadline) await sleep(100);
    return !groupAlive();
  };
  if (!groupAlive()) return;
  process.kill(-child.pid!, 'SIGTERM');
  if (await waitGone(12_000)) return;
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  await waitGone(3_000);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The p-th percentile of sorted times (nearest rank). */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A case's figures on one backend. */
export interface Result {
  name: string;
  goal: boolean;
  p50: number;
  p95: number;
  max: number;
  /** The same call made in-process (listGallery on the bench's own connection), no HTTP: p50 and p95. */
  dbP50?: number;
  dbP95?: number;
  problems: string[];
  pass: boolean;
}

/** A case's figures from its times and problems. */
function summarize(c: Case, times: number[], problems: string[]): Result {
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  return {
    name: c.name,
    goal: c.goal,
    p50: percentile(times, 50),
    p95,
    max: times[times.length - 1],
    problems,
    pass: p95 <= GOAL_P95_MS && problems.length === 0,
  };
}

/**
 * Times every case over HTTP, one request at a time. The cases take turns (round k asks each case once), so a burst of
 * load from elsewhere on the machine spreads over all cases instead of sinking one.
 */
export async function measure(port: number, cases: Case[], data: Dataset): Promise<Result[]> {
  const totals = new Map<string, number>();
  const times = cases.map(() => [] as number[]);
  const problems = cases.map(() => new Set<string>());
  for (let k = 0; k < WARMUP + SAMPLES; k++) {
    for (const [index, c] of cases.entries()) {
      if (k >= WARMUP + Math.min(SAMPLES, c.samples ?? SAMPLES)) continue;
      const params = c.params(k);
      const url = `http://127.0.0.1:${port}${c.path ?? '/api/gallery/get'}?${new URLSearchParams(params)}`;
      const began = performance.now();
      const response = await fetch(url, {
        headers: { cookie: `session=${SESSION_TOKEN}`, accept: 'application/json' },
      });
      const body = await response.json();
      const elapsed = performance.now() - began;
      if (k >= WARMUP) times[index].push(elapsed);
      if (c.path) {
        if (response.status !== 200) problems[index].add(`status ${response.status}`);
        continue;
      }
      const filter = toFilter(params);
      const problem = checkAnswer(response.status, body, filter, expectedTotal(data, filter, totals));
      if (problem) problems[index].add(`${JSON.stringify(params)}: ${problem}`);
    }
  }
  return cases.map((c, index) => summarize(c, times[index], [...problems[index]]));
}

/** Times listGallery in-process on the bench's own connection (what the database costs without HTTP and Fastify). */
export async function measureDirect(
  db: Kysely<Database>,
  cases: Case[],
  results: Result[],
  viewer: string,
): Promise<void> {
  const times = cases.map(() => [] as number[]);
  for (let k = 0; k < WARMUP + SAMPLES; k++) {
    for (const [index, c] of cases.entries()) {
      if (c.path || k >= WARMUP + Math.min(SAMPLES, c.samples ?? SAMPLES)) continue;
      const began = performance.now();
      await listGallery(db, toFilter(c.params(k)), viewer);
      if (k >= WARMUP) times[index].push(performance.now() - began);
    }
  }
  for (const [index, list] of times.entries()) {
    if (list.length === 0) continue;
    list.sort((a, b) => a - b);
    results[index].dbP50 = percentile(list, 50);
    results[index].dbP95 = percentile(list, 95);
  }
}

/** A case's line in a backend's report: HTTP p50, p95 and max, the verdict, and the in-process times. */
export function formatRow(r: Result): string {
  const verdict = r.problems.length > 0 ? 'WRONG' : r.p95 <= GOAL_P95_MS ? 'PASS' : 'FAIL';
  const db =
    r.dbP50 === undefined
      ? ''
      : `  | in-process p50 ${r.dbP50.toFixed(1).padStart(6)} p95 ${r.dbP95!.toFixed(1).padStart(6)}`;
  return `  ${r.name.padEnd(62)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms  ${(r.goal ? verdict : `(${verdict})`).padEnd(6)}${db}`;
}

/** The machine's load averages (1, 5, 15 minutes). */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
}
