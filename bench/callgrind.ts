// Instructions counted by valgrind's callgrind: what a process runs during some work, which the rest of the machine
// does not move (CPU time does).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pause } from './processes.ts';

/** The command words that run a program under callgrind, writing its counts to `out`. */
export function underCallgrind(out: string): string[] {
  return ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`];
}

/**
 * The instructions the process `pid` (running under callgrind, writing to `out`) runs during `work`: its counts are
 * zeroed before and dumped after.
 */
export async function countedInstructions(pid: number, out: string, work: () => Promise<void>): Promise<number> {
  execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' });
  await work();
  execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore' });
  // The dump is written beside `out` with a numbered suffix.
  const folder = path.dirname(out);
  const prefix = `${path.basename(out)}.`;
  let dump: string | undefined;
  for (let attempt = 0; attempt < 100 && !dump; attempt++, await pause(50))
    dump = fs.readdirSync(folder).find((name) => name.startsWith(prefix));
  if (!dump) throw new Error(`callgrind wrote no dump beside ${out}`);
  // A dump may be listed before it is written out.
  let total: RegExpExecArray | null = null;
  for (let attempt = 0; attempt < 100 && !total; attempt++, await pause(50))
    total = /^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(path.join(folder, dump), 'utf8'));
  fs.rmSync(path.join(folder, dump));
  if (!total) throw new Error(`callgrind's dump ${dump} holds no total`);
  return Number(total[1]);
}
