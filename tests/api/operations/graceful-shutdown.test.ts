// API tests for the graceful shutdown of the real server on SIGTERM: in-flight requests, kept-alive connections, the
// grace period.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/database.ts';
import { CookieJar } from '../../helpers/cookie-jar.ts';
import { createUserWithCode } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { waitFor } from '../../../support/wait.ts';
import { dataDirServerEnv } from '../../../support/app-process.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The real server as `npm start` runs it, in a child process. */
interface RunningServer {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** Every log line so far, parsed. */
  lines: Array<{ msg: string }>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts server/main.ts on a fresh SQLite database and a free port; resolves once it listens. */
async function startRealServer(env: Record<string, string>): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-shutdown-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...dataDirServerEnv(dataDir),
      SWEEP_INTERVAL_MINUTES: '0',
      IMAGE_JOB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: Array<{ msg: string }> = [];
  let pending = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      children.delete(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const line of complete.filter(Boolean)) {
        const parsed = JSON.parse(line) as { msg: string };
        lines.push(parsed);
        const listening = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(parsed.msg);
        if (listening) resolve(listening[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`The server exited (${code}) before it listened: ${stderr}`)));
  });
  return { child, url, dataDir, lines, exited };
}

/** Whether a new connection to the server is refused. */
async function connectionRefused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`);
    return false;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
  }
}

/**
 * A logged-in browser on the real server: a player made directly in its SQLite database, then the code login over HTTP.
 */
async function loginOnRealServer(server: RunningServer): Promise<CookieJar> {
  const db = openDatabase(`sqlite:${path.join(server.dataDir, 'cloakroom.db')}`);
  const { code } = await createUserWithCode(db, `Drain${randomBytes(3).toString('hex')}`);
  await db.destroy();
  const jar = new CookieJar(server.url);
  await jar.get('/api/home');
  const login = await jar.post('/api/account/checkauth', { code, ref: '/' });
  expect(login.status).toBe(200);
  return jar;
}

/** A cape upload whose body is sent in two halves, the second when the test says; resolves with the answer. */
function slowUpload(server: RunningServer, jar: CookieJar, png: Buffer) {
  const boundary = `----drain${randomBytes(6).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="cape.png"\r\ncontent-type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const half = Math.floor(body.length / 2);
  const agent = new http.Agent({ keepAlive: true });
  let answered = false;
  const request = http.request(`${server.url}/api/upload-cape`, {
    method: 'POST',
    agent,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
      cookie: `session=${jar.cookie('session')}; XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}`,
      'x-xsrf-token': decodeURIComponent(jar.cookie('XSRF-TOKEN')!),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        answered = true;
        resolve({ status: response.statusCode!, body: text });
      });
    });
    request.on('error', reject);
  });
  request.write(body.subarray(0, half));
  return {
    answer,
    isAnswered: () => answered,
    finish: () => request.end(body.subarray(half)),
    agent,
  };
}

// The process-level shutdown runs on the default SQLite backend: what it tests (connections, signals, exit) is the same
// on both.
describe('graceful shutdown of the real server (SIGTERM)', () => {
  let cape: Buffer;
  beforeAll(async () => {
    cape = await solidPng(64, 32, frameColour(950));
  });

  it('refuses new connections, finishes the upload in flight with 200, closes kept-alive connections and exits 0 within the grace period', async () => {
    const server = await startRealServer({ SHUTDOWN_GRACE_MS: '15000' });
    const jar = await loginOnRealServer(server);
    // A kept-alive connection that sits idle through the shutdown must not hold it up.
    const idleAgent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${server.url}/healthz`, { agent: idleAgent }, (response) => response.resume().on('end', resolve))
        .on('error', reject),
    );
    const upload = slowUpload(server, jar, cape);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await waitFor(() => server.lines.some((line) => line.msg.startsWith('shutting down')), 'the shutdown log line', {
      timeoutMs: 10_000,
    });
    await waitFor(() => connectionRefused(server.url), 'new connections to be refused', { timeoutMs: 10_000 });
    expect(upload.isAnswered()).toBe(false);

    upload.finish();
    const answer = await upload.answer;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ success: true });
    const answeredAt = Date.now();

    const code = await server.exited;
    const exitedAt = Date.now();
    expect(code).toBe(0);
    // Well before the grace period, and promptly after the last answer (the kept-alive connections did not hold it up).
    expect(exitedAt - signalledAt).toBeLessThan(15_000);
    expect(exitedAt - answeredAt).toBeLessThan(5_000);
    expect(server.lines.some((line) => line.msg.startsWith('requests still in flight'))).toBe(false);
    expect(server.lines.at(-1)?.msg).toBe('shut down');
    idleAgent.destroy();
    upload.agent.destroy();
  }, 60_000);

  it('cuts a request still in flight when the grace period is over, and exits 0', async () => {
    const server = await startRealServer({ SHUTDOWN_GRACE_MS: '1000' });
    const jar = await loginOnRealServer(server);
    const upload = slowUpload(server, jar, cape);
    const failed = upload.answer.then(
      () => false,
      () => true,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(8_000);
    expect(await failed).toBe(true);
    expect(server.lines.some((line) => line.msg.startsWith('requests still in flight after 1000 ms'))).toBe(true);
    upload.agent.destroy();
  }, 60_000);
});
