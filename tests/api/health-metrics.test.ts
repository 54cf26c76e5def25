// API tests for operations: /healthz and /readyz (also when the database, the blob store or Redis fails, and in maintenance
// mode), the Prometheus metrics on their own port and behind METRICS_KEY, and the graceful shutdown of the real server.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { backends } from '../../support/backends.ts';
import { CookieJar } from '../helpers/cookie-jar.ts';
import { createUserWithCode, loginNewUser, newBrowser, serverForSuite, startServer, unusedCode, type TestServer } from '../helpers/server.ts';
import { startS3rver } from '../../support/s3rver.ts';
import { closedPort } from '../helpers/tcp-proxy.ts';
import { frameColour, solidPng } from '../../support/textures.ts';
import { waitFor } from '../../support/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One sample of the Prometheus text format: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus' text format (the subset prom-client writes: no escaped quotes in the labels used here). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1]!, pair[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with this name whose labels include these (0 when there is none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found?.value ?? 0;
}

/** The metrics port's address of a server started with METRICS_PORT=0. */
function metricsUrl(server: TestServer): string {
  const address = server.app.metrics.address();
  if (!address) throw new Error('The metrics port is off');
  return `http://127.0.0.1:${address.port}/metrics`;
}

/** Scrapes the metrics port once. */
async function scrape(server: TestServer): Promise<Sample[]> {
  const response = await fetch(metricsUrl(server));
  expect(response.status).toBe(200);
  return parseMetrics(await response.text());
}

/** GETs a path and returns its status and JSON body. */
async function getJson(server: TestServer, urlPath: string): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await fetch(`${server.url}${urlPath}`);
  return { status: response.status, body: await response.json(), response };
}

describe.each(backends)('health checks and metrics on $name', (backend) => {
  const suite = serverForSuite(backend, { METRICS_PORT: '0', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });

  it('answers /healthz with 200 {status: ok}, uncached and without cookies', async () => {
    const { status, body, response } = await getJson(suite.server, '/healthz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('answers /readyz with 200 and every check ok (Redis not configured), without cookies', async () => {
    const { status, body, response } = await getJson(suite.server, '/readyz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', checks: { database: 'ok', blobStore: 'ok', redis: 'not_configured' } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('serves Prometheus text on the metrics port, with process metrics and the image job gauges', async () => {
    const response = await fetch(metricsUrl(suite.server));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE cloakroom_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE cloakroom_image_jobs_waiting gauge');
    const samples = parseMetrics(text);
    expect(samples.find((sample) => sample.name === 'cloakroom_image_jobs_waiting')?.value).toBe(0);
    expect(samples.find((sample) => sample.name === 'cloakroom_image_jobs_running')?.value).toBe(0);
    expect(samples.some((sample) => sample.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect((await fetch(metricsUrl(suite.server).replace('/metrics', '/other'))).status).toBe(404);
    // Without METRICS_KEY the main port has no /metrics.
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(404);
  });

  it('counts mod API profile answers (fast path included) by route pattern, and the profile cache hits and misses', async () => {
    const { uuid } = await loginNewUser(suite.server);
    const before = await scrape(suite.server);
    const profileOk = { method: 'GET', route: '/profile/:id', status: '200' };
    expect((await fetch(`${suite.server.url}/profile/${uuid}`)).status).toBe(200); // a miss: the route loads it
    const fastPathBefore = suite.server.app.modFastPath.answered;
    expect((await fetch(`${suite.server.url}/profile/${uuid}`)).status).toBe(200); // a hit: the fast path answers
    expect(suite.server.app.modFastPath.answered).toBe(fastPathBefore + 1);
    expect((await fetch(`${suite.server.url}/profile/NoSuchPlayer_1`)).status).toBe(404);
    const after = await scrape(suite.server);

    const count = 'cloakroom_http_request_duration_seconds_count';
    expect(valueOf(after, count, profileOk) - valueOf(before, count, profileOk)).toBe(2);
    expect(valueOf(after, count, { route: '/profile/:id', status: '404' }) - valueOf(before, count, { route: '/profile/:id', status: '404' })).toBe(1);
    const fastBucket = { ...profileOk, le: '+Inf' };
    expect(valueOf(after, 'cloakroom_http_request_duration_seconds_bucket', fastBucket)).toBe(valueOf(after, count, profileOk));
    const lookups = 'cloakroom_profile_cache_lookups_total';
    expect(valueOf(after, lookups, { result: 'hit' }) - valueOf(before, lookups, { result: 'hit' })).toBe(1);
    expect(valueOf(after, lookups, { result: 'miss' }) - valueOf(before, lookups, { result: 'miss' })).toBe(2);
    expect(valueOf(after, 'cloakroom_profile_cache_entries')).toBeGreaterThanOrEqual(1);
    // Labels carry route patterns, never the URL asked for.
    const text = await (await fetch(metricsUrl(suite.server))).text();
    expect(text).not.toContain(uuid);
    expect(text).not.toContain('NoSuchPlayer_1');
  });

  it('labels a route with a parameter pattern by its name only, and a request no route matched as unmatched', async () => {
    const { jar } = await loginNewUser(suite.server);
    expect((await jar.get(`/api/gallery/${'a'.repeat(64)}`)).status).toBe(404);
    const samples = await scrape(suite.server);
    expect(valueOf(samples, 'cloakroom_http_request_duration_seconds_count', { route: '/api/gallery/:hash', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(samples.some((sample) => sample.labels.route?.includes('aaaa'))).toBe(false);
  });

  it('counts logins by method and result', async () => {
    const logins = 'cloakroom_logins_total';
    const before = await scrape(suite.server);
    await loginNewUser(suite.server);
    const jar = await newBrowser(suite.server);
    const wrong = await jar.post('/api/account/checkauth', { code: await unusedCode(suite.server.db), ref: '/' });
    expect(((await wrong.json()) as { success: boolean }).success).toBe(false);
    const banned = await createUserWithCode(suite.server.db, 'BannedMetrics');
    await suite.server.db.updateTable('users').set({ banned: 1 }).where('uuid', '=', banned.uuid).execute();
    expect((await jar.post('/api/account/checkauth', { code: banned.code, ref: '/' })).status).toBe(403);
    const after = await scrape(suite.server);
    for (const result of ['ok', 'wrong_code', 'banned']) {
      const labels = { method: 'code', result };
      expect(valueOf(after, logins, labels) - valueOf(before, logins, labels), result).toBe(1);
    }
  });

  it('counts uploads by kind and result: ok, or the reason they were refused', async () => {
    const uploads = 'cloakroom_uploads_total';
    const { jar } = await loginNewUser(suite.server);
    const before = await scrape(suite.server);
    expect((await jar.upload('/api/upload-cape', Buffer.from('not a picture at all'.repeat(10)))).status).toBe(422);
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 10))).status).toBe(422);
    expect((await jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(901)))).status).toBe(200);
    const form = new FormData();
    form.append('title', 'Metrics');
    form.append('tags', JSON.stringify(['food']));
    form.append('file', new Blob([new Uint8Array(await solidPng(64, 33))], { type: 'image/png' }), 'texture.png');
    expect((await jar.sendForm('POST', '/api/gallery/new', form)).status).toBe(422);
    const after = await scrape(suite.server);
    const moved = (labels: Record<string, string>) => valueOf(after, uploads, labels) - valueOf(before, uploads, labels);
    expect(moved({ kind: 'cape', result: 'wrong_type' })).toBe(1);
    expect(moved({ kind: 'ears', result: 'dimensions' })).toBe(1);
    expect(moved({ kind: 'cape', result: 'ok' })).toBe(1);
    expect(moved({ kind: 'gallery', result: 'dimensions' })).toBe(1);
  });
});

describe.each(backends)('upload metrics past the upload limit on $name', (backend) => {
  const suite = serverForSuite(backend, { METRICS_PORT: '0', TEXTURE_UPLOADS_PER_10_MINUTES: '1' });

  it('counts an upload refused by the per-player limit as rate_limited', async () => {
    const { jar } = await loginNewUser(suite.server);
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(960)))).status).toBe(200);
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(961)))).status).toBe(429);
    const samples = await scrape(suite.server);
    expect(valueOf(samples, 'cloakroom_uploads_total', { kind: 'ears', result: 'ok' })).toBe(1);
    expect(valueOf(samples, 'cloakroom_uploads_total', { kind: 'ears', result: 'rate_limited' })).toBe(1);
  });
});

describe.each(backends)('metrics behind METRICS_KEY on the main port on $name', (backend) => {
  const suite = serverForSuite(backend, { METRICS_KEY: 'scrape-key' });

  it('serves /metrics to the bearer key only, keeps the metrics port off, and leaves /metrics out of the API description', async () => {
    expect(suite.server.app.metrics.address()).toBeNull();
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${suite.server.url}/metrics`, { headers: { authorization: 'Bearer wrong-key' } })).status).toBe(401);
    const response = await fetch(`${suite.server.url}/metrics`, { headers: { authorization: 'Bearer scrape-key' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await response.text()).toContain('cloakroom_http_request_duration_seconds_bucket');
    const spec = (await (await fetch(`${suite.server.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(spec.paths['/metrics']).toBeUndefined();
  });
});

describe.each(backends)('metrics by default on $name', (backend) => {
  const suite = serverForSuite(backend);

  it('serves no metrics: no port, no /metrics route', async () => {
    expect(suite.server.config.metrics).toEqual({ port: undefined, host: '127.0.0.1', key: undefined });
    expect(suite.server.app.metrics.address()).toBeNull();
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(404);
  });
});

describe.each(backends)('readiness when a dependency fails on $name', (backend) => {
  it('answers 503 with the database failed once the database is gone, while /healthz still answers', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url);
    try {
      await server.db.destroy();
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toEqual({ status: 'unavailable', checks: { database: 'failed', blobStore: 'ok', redis: 'not_configured' } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('answers 503 with the blob store failed when its directory cannot be made or written', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url);
    try {
      expect((await getJson(server, '/readyz')).status).toBe(200);
      const storeRoot = path.join(server.config.dataDir, 'textures');
      fs.rmSync(storeRoot, { recursive: true, force: true });
      fs.writeFileSync(storeRoot, 'a file where the texture directory should be');
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toEqual({ status: 'unavailable', checks: { database: 'ok', blobStore: 'failed', redis: 'not_configured' } });
      fs.rmSync(storeRoot);
      expect((await getJson(server, '/readyz')).status).toBe(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('probes an S3 bucket: 200 while it answers, 503 with the blob store failed once it is gone', async () => {
    const s3 = await startS3rver();
    const database = await backend.createDatabase();
    const server = await startServer(database.url, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      expect(await getJson(server, '/readyz')).toMatchObject({ status: 200, body: { checks: { blobStore: 'ok' } } });
      await s3.close();
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toEqual({ status: 'unavailable', checks: { database: 'ok', blobStore: 'failed', redis: 'not_configured' } });
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('answers 200 degraded when Redis is down: the server keeps serving without it', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url, { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      const { status, body } = await getJson(server, '/readyz');
      expect(status).toBe(200);
      expect(body).toEqual({ status: 'degraded', checks: { database: 'ok', blobStore: 'ok', redis: 'failed' } });
    } finally {
      await server.close();
      await database.drop();
    }
  });
});

describe.each(backends)('health checks in maintenance mode on $name', (backend) => {
  const suite = serverForSuite(backend, { MAINTENANCE: 'true' });

  it('answers /healthz and /readyz while the API answers 503', async () => {
    expect((await fetch(`${suite.server.url}/api/home`)).status).toBe(503);
    expect(await getJson(suite.server, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await getJson(suite.server, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});

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
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SITE_DIR: path.join(dataDir, 'dist'),
      SKIP_SITE_BUILD: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
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

/** A logged-in browser on the real server: a player made directly in its SQLite database, then the code login over HTTP. */
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
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="cape.png"\r\ncontent-type: image/png\r\n\r\n`),
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

// The process-level shutdown runs on the default SQLite backend: what it tests (connections, signals, exit) is the same on both.
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
      http.get(`${server.url}/healthz`, { agent: idleAgent }, (response) => response.resume().on('end', resolve)).on('error', reject),
    );
    const upload = slowUpload(server, jar, cape);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await waitFor(() => server.lines.some((line) => line.msg.startsWith('shutting down')), 'the shutdown log line', { timeoutMs: 10_000 });
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
