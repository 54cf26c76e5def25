// The benchmarks' process handling: servers and baselines started in process groups of their own, stopped with their
// children, and their CPU time and memory read from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
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

/** Starts a command in its own process group with its output in a log file, and waits (up to a minute) until `readyPath` answers. */
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

/** The CPU time a process has used (user + system), in µs (Linux clock ticks of 10 ms). */
export function cpuTimeUs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}
