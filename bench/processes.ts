// The benchmarks' process handling: servers and baselines started in process groups of their own, stopped with their
// children, and their CPU time and memory read from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, where the benchmarks' commands run. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A started server: its name, port and process. */
export interface BenchProcess {
  name: string;
  port: number;
  child: ChildProcess;
}

/** Resolves after `ms` milliseconds. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a command in its own process group with its output in a log file, and waits (up to a minute) until `readyPath`
 * answers.
 */
export async function startProcess(
  name: string,
  port: number,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  readyPath: string,
): Promise<BenchProcess> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) break;
    try {
      await fetch(`http://127.0.0.1:${port}${readyPath}`);
      return { name, port, child };
    } catch {
      await pause(100);
    }
  }
  await stopProcess(child);
  throw new Error(`${name} did not start; see ${logFile}`);
}

/** Stops a process started by startProcess (its whole group); resolves when it has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return; // Already gone.
  }
  await exited;
}

/**
 * Every live process's /proc stat fields after the command name (state, ppid, …, utime at 11, stime at 12, cutime,
 * cstime), by pid.
 */
function processStats(): Map<number, string[]> {
  const stats = new Map<number, string[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      stats.set(Number(entry), text.slice(text.lastIndexOf(') ') + 2).split(' '));
    } catch {
      // It exited meanwhile.
    }
  }
  return stats;
}

/** The given processes and (with `tree`) every process under them, with their /proc stat fields. */
function processTree(pids: number[], tree: boolean): Array<[number, string[]]> {
  const stats = processStats();
  const children = new Map<number, number[]>();
  for (const [pid, fields] of stats) {
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: Array<[number, string[]]> = [];
  const pending = [...pids];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    const fields = stats.get(pid);
    if (fields) found.push([pid, fields]);
    if (tree) pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * The CPU time (user + system, in µs; Linux counts clock ticks of 10 ms) of the given processes and, with `tree` (the
 * default), every process under them: a server's image workers, nginx's workers. Each counts with its exited children
 * (cutime, cstime), so a worker that ends meanwhile moves its time to its parent and nothing is lost or counted twice.
 */
export function cpuTimeUs(pids: number[], tree = true): number {
  let ticks = 0;
  for (const [, fields] of processTree(pids, tree))
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return ticks * 10_000;
}

/**
 * Starts counting the CPU time of the processes `pids()` names (with every process under them unless `tree` is false);
 * the function it returns gives the µs used since, per request of `requests`.
 */
export function cpuPerRequest(pids: () => number[], tree = true): (requests: number) => number {
  const before = cpuTimeUs(pids(), tree);
  return (requests) => (cpuTimeUs(pids(), tree) - before) / Math.max(1, requests);
}

/** Pins this process (every thread of it) to one core, as `taskset` would. */
export function pinToCore(core: number): void {
  const pinned = spawnSync('taskset', ['-a', '-cp', String(core), String(process.pid)], { stdio: 'ignore' });
  if (pinned.status !== 0) throw new Error(`taskset could not pin the bench to core ${core}`);
}

/**
 * Pins the given processes, every thread of them and every process under them, to one core (`taskset`); what they start
 * later inherits it.
 */
export function pinTreeToCore(pids: number[], core: number): void {
  for (const [pid] of processTree(pids, true)) {
    const pinned = spawnSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
    if (pinned.status !== 0) throw new Error(`taskset could not pin process ${pid} to core ${core}`);
  }
}

/** The resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}
