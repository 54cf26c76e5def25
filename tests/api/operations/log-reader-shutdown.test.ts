// The real server stops within its grace period whatever its log's reader does: a reader that never reads, a reader
// that has closed, and Ctrl-C to a `npm start | reader` pipeline whose reader exits on the signal. Each case fills the
// log's pipe with page requests first, so lines wait when the signal comes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDirServerEnv, freePort, groupAlive } from '../../../support/app-process.ts';
import { waitFor } from '../../../support/wait.ts';
import { SYSTEMD_PATH } from '../../helpers/systemd-unit.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The grace period the servers here run with. */
const GRACE_MS = 2000;
/** Page requests made before the signal: each logs two lines, about 0.6 MB in all, more than a pipe holds. */
const PAGE_REQUESTS = 1200;

/** How long after `since` the process group was gone, or Infinity when it is still there after `limitMs`. */
async function goneAfter(group: number, since: number, limitMs: number): Promise<number> {
  while (Date.now() - since < limitMs) {
    if (!groupAlive(group)) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return groupAlive(group) ? Infinity : Date.now() - since;
}

/** Makes `count` page requests, a few at a time, and checks each was answered. */
async function requestPages(url: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += 20) {
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/api/home`)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
  }
}

/** Waits until the server on `port` answers. */
async function untilListening(port: number, child: ChildProcess): Promise<string> {
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error('the process ended before it listened');
      return fetch(`${url}/healthz`).then(
        (answer) => answer.ok,
        () => false,
      );
    },
    'the server to listen',
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  return url;
}

const groups: number[] = [];
const dataDirs: string[] = [];
afterEach(() => {
  for (const group of groups.splice(0)) if (groupAlive(group)) process.kill(-group, 'SIGKILL');
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a server on a fresh SQLite database and `port`, with a short grace period. */
async function serverEnv(port: number): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-log-reader-'));
  dataDirs.push(dataDir);
  return {
    ...dataDirServerEnv(dataDir),
    PORT: String(port),
    OFFLINE_MODE: 'true',
    SWEEP_INTERVAL_MINUTES: '0',
    IMAGE_JOB_CONCURRENCY: '1',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  };
}

/** Starts server/main.ts in a process group of its own, its stdout a pipe this process holds and never reads. */
async function startUnreadServer(env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...(await serverEnv(port)), ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  groups.push(child.pid!);
  // Never read: nothing is taken from the pipe beyond what the stream buffers before it stops.
  child.stdout!.pause();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await untilListening(port, child);
  return { child, url, exited };
}

describe('stopping while the log cannot be written', { timeout: 60_000 }, () => {
  it('exits 0 within the grace period on SIGTERM while its reader never reads, and counts the lines it dropped', async () => {
    const server = await startUnreadServer({ LOG_BUFFER_KB: '16', METRICS_KEY: 'log-metrics-key' });
    await requestPages(server.url, PAGE_REQUESTS);
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer log-metrics-key' } });
    const dropped = /^cloakroom_log_lines_dropped_total (\d+)$/m.exec(await metrics.text());
    expect(Number(dropped?.[1])).toBeGreaterThan(0);
    const signalledAt = Date.now();
    process.kill(-server.child.pid!, 'SIGTERM');
    expect(await goneAfter(server.child.pid!, signalledAt, GRACE_MS + 1000)).toBeLessThan(GRACE_MS + 1000);
    expect(await server.exited).toBe(0);
  });

  it('exits 0 within the grace period on SIGTERM once its reader has closed', async () => {
    const server = await startUnreadServer();
    await requestPages(server.url, PAGE_REQUESTS);
    server.child.stdout!.destroy();
    // The server keeps answering with nobody to read its log.
    await requestPages(server.url, 100);
    const signalledAt = Date.now();
    process.kill(-server.child.pid!, 'SIGTERM');
    expect(await goneAfter(server.child.pid!, signalledAt, GRACE_MS + 1000)).toBeLessThan(GRACE_MS + 1000);
    expect(await server.exited).toBe(0);
  });

  it('ends a `npm start | reader` pipeline within the grace period on Ctrl-C, its reader gone first', async () => {
    const port = await freePort();
    const env = await serverEnv(port);
    const statusFile = path.join(env.DATA_DIR!, 'npm-status');
    // A pipeline as a shell runs it: npm start's exit code is written once it ends; the reader reads nothing and dies
    // of SIGINT.
    const pipeline = spawn('sh', ['-c', '(trap "" INT; npm start; echo $? > "$0") | sleep 600', statusFile], {
      cwd: ROOT,
      detached: true,
      env: { PATH: SYSTEMD_PATH, HOME: process.env.HOME ?? env.DATA_DIR!, ...env },
      stdio: 'ignore',
    });
    groups.push(pipeline.pid!);
    const url = await untilListening(port, pipeline);
    await requestPages(url, PAGE_REQUESTS);
    const signalledAt = Date.now();
    process.kill(-pipeline.pid!, 'SIGINT');
    expect(await goneAfter(pipeline.pid!, signalledAt, GRACE_MS + 1000)).toBeLessThan(GRACE_MS + 1000);
    expect(fs.readFileSync(statusFile, 'utf8').trim()).toBe('0');
  });
});
