// The scale-out suites' cluster (tests/api/scale-out/*.test.ts): two real server processes (server/main.ts) on one
// PostgreSQL database, one Redis and one S3 bucket, behind nginx running the deploy configuration, each with a data
// directory of its own; and what the suites ask of it: players logged in, capes, mod API answers, raw slow uploads.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrations/migrate.ts';
import { frameColour, sha256Hex, solidPng } from '../../support/textures.ts';
import { freePort, startAppProcess, type AppProcess } from '../../support/app-process.ts';
import { postgresBackend, type TestDatabase } from '../../support/backends.ts';
import { requireNginx, startNginx, type RunningNginx } from '../../support/nginx.ts';
import { startS3rver, type RunningS3rver } from '../../support/s3rver.ts';
import { writeSiteFixture } from '../../support/site-fixture.ts';
import { CookieJar } from './cookie-jar.ts';
import { createUserWithCode, randomUsername } from './server.ts';
import { modProfile } from './mod-profile.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** The processes' metrics key: the tests read how many mod API requests reached a process. */
const METRICS_KEY = 'scale-out-metrics-key';
/** The game auth server's key (it registers players, and renames them when their game name changed). */
export const AUTH_API_KEY = 'scale-out-auth-key';
/** Each process's limits: small, so that a few calls spread over both processes reach them. */
export const LOGIN_ATTEMPTS_PER_MINUTE = 4;
export const TEXTURE_UPLOADS_PER_10_MINUTES = 4;
/** The requirement: a change made on one process is in every process's mod API answer within this. */
export const CHANGE_VISIBLE_WITHIN_MS = 1000;

/** The fixture site nginx serves (the processes serve it too, by the same host rules). */
export const SITE_FILES: Record<string, string> = {
  'index.html': '<h1>home page</h1>',
  'help.html': '<h1>help page</h1>',
  'user.html': '<h1>user lookup shell</h1>',
  'gallery/item.html': '<h1>gallery entry shell</h1>',
  '404.html': '<h1>not found page</h1>',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>',
  '_astro/app.abc123.js': `console.log(${JSON.stringify('x'.repeat(2000))});`,
};

/** The cluster a scale-out test file runs against, set by useScaleOutCluster's beforeAll. */
export interface ScaleOutCluster {
  dir: string;
  siteDir: string;
  answersDir: string;
  database: TestDatabase;
  s3: RunningS3rver;
  redisPrefix: string;
  db: Db;
  nginx: RunningNginx;
  processA: AppProcess;
  processB: AppProcess;
  appEnv: Record<string, string>;
}

const cluster = {} as ScaleOutCluster;
/** Every process a test started, killed after the file if a failing test left one running. */
export const started = new Set<AppProcess>();
let colour = 0;
let addressCount = 0;

/**
 * A client address of its own (TEST-NET-2) for each login, so logins spread over tests stay under the per-address
 * limit.
 */
export function newClientAddress(): string {
  addressCount++;
  return `198.51.${100 + Math.floor(addressCount / 250)}.${addressCount % 250}`;
}

/** A jar for another base URL holding the same cookies (the same browser, talking to another process). */
export function sameBrowserAt(url: string, jar: CookieJar): CookieJar {
  const copy = new CookieJar(url);
  for (const name of ['session', 'XSRF-TOKEN']) {
    const value = jar.cookie(name);
    if (value !== undefined) copy.setCookie(name, value);
  }
  return copy;
}

/**
 * Logs a new player in on `url` (a process, or nginx, which puts its own client address last) as a client at `address`.
 */
export async function logIn(
  url: string,
  address = newClientAddress(),
  options: { admin?: boolean } = {},
): Promise<{ jar: CookieJar; uuid: string; username: string }> {
  const username = randomUsername();
  const { uuid, code } = await createUserWithCode(cluster.db, username, options);
  const jar = new CookieJar(url);
  await jar.get('/api/csrf-cookie');
  const response = await jar.post('/api/account/checkauth', { code, ref: '/' }, { 'x-forwarded-for': address });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(((await response.json()) as { success: boolean }).success).toBe(true);
  return { jar, uuid, username };
}

/** A cape (64x32) of a colour no other upload in this file has. */
export async function newCape(): Promise<Buffer> {
  return solidPng(64, 32, frameColour(colour++));
}

/** The cape_url of a player's mod API answer on one server (null when it answers 404: nothing to show). */
export async function capeUrl(url: string, uuid: string): Promise<string | null> {
  return (await modProfile(url, uuid)).cape_url;
}

/** How many mod API requests the app processes have answered so far (their request metrics). */
export async function modRequestsServed(): Promise<number> {
  let total = 0;
  for (const app of [cluster.processA, cluster.processB]) {
    const text = await (
      await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } })
    ).text();
    for (const match of text.matchAll(
      /^cloakroom_http_request_duration_seconds_count\{[^}]*route="(\/(?:profile|capes|elytras|csl|textures)[^"]*)"[^}]*\} (\d+)$/gm,
    )) {
      total += Number(match[2]);
    }
  }
  return total;
}

/** Polls a server's mod API every 50 ms until the player's cape_url is `expected`; resolves with the time it took. */
export async function timeUntilCape(
  url: string,
  uuid: string,
  expected: string | null,
  since: number,
): Promise<number> {
  for (;;) {
    if ((await capeUrl(url, uuid)) === expected) return Date.now() - since;
    if (Date.now() - since > 5 * CHANGE_VISIBLE_WITHIN_MS)
      throw new Error(`${url}/profile/${uuid} never showed ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * What the mod API answers for a player through nginx on each layout: the profile's body, and the status of the others.
 */
export async function modAnswers(
  uuid: string,
  username: string,
): Promise<{ profile: string; cape: number; elytra: number; csl: string; cslMinecraftCapes: string }> {
  const [profile, cape, elytra, csl, cslMinecraftCapes] = await Promise.all(
    [
      `/profile/${uuid}`,
      `/capes/${username}.png`,
      `/elytras/${username}.png`,
      `/csl/${username}.json`,
      `/csl-minecraftcapes/${uuid}`,
    ].map((path) => fetch(`${cluster.nginx.url}${path}`)),
  );
  await Promise.all([cape!.arrayBuffer(), elytra!.arrayBuffer()]);
  return {
    profile: `${profile!.status} ${await profile!.text()}`,
    cape: cape!.status,
    elytra: elytra!.status,
    csl: `${csl!.status} ${await csl!.text()}`,
    cslMinecraftCapes: `${cslMinecraftCapes!.status} ${await minecraftCapesHash(cslMinecraftCapes!)}`,
  };
}

/** The sha256 of the cape a MinecraftCapes-style JSON answer holds in base64, or '' when it holds none. */
async function minecraftCapesHash(response: Response): Promise<string> {
  if (response.status !== 200) return '';
  const cape = ((await response.json()) as { textures?: { cape?: unknown } }).textures?.cape;
  return typeof cape === 'string' ? sha256Hex(Buffer.from(cape, 'base64')) : '';
}

/** Polls every layout through nginx every 20 ms until `seen` holds; resolves with the time since `since` it took. */
export async function timeUntilSeen(
  uuid: string,
  username: string,
  seen: (answers: Awaited<ReturnType<typeof modAnswers>>) => boolean,
  since: number,
): Promise<number> {
  for (;;) {
    const answers = await modAnswers(uuid, username);
    if (seen(answers)) return Date.now() - since;
    if (Date.now() - since > 5 * CHANGE_VISIBLE_WITHIN_MS)
      throw new Error(`nginx never showed the change for ${username}: ${JSON.stringify(answers)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a texture URL's bytes are served by `url` and hash to the name in the URL. */
export async function servesTexture(url: string, textureUrl: string): Promise<boolean> {
  const hash = textureUrl.slice(textureUrl.lastIndexOf('/') + 1);
  const response = await fetch(`${url}/textures/${hash}`);
  return response.status === 200 && sha256Hex(Buffer.from(await response.arrayBuffer())) === hash;
}

/** The Cookie header a browser sends with a jar's cookies. */
export function cookieHeader(jar: CookieJar): string {
  return ['session', 'XSRF-TOKEN'].map((name) => `${name}=${jar.cookie(name)}`).join('; ');
}

/** One HTTP answer read off a raw connection. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/** Splits what a server sent on one connection into its answers (each with a Content-Length, as the app's JSON has). */
function parseAnswers(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) throw new Error(`An incomplete answer: ${bytes.subarray(offset).toString()}`);
    const [statusLine = '', ...lines] = bytes.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const headers = new Headers();
    for (const line of lines)
      headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
    const length = Number(headers.get('content-length'));
    if (!Number.isInteger(length)) throw new Error(`An answer without Content-Length: ${statusLine}`);
    answers.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: bytes.subarray(headEnd + 4, headEnd + 4 + length).toString(),
    });
    offset = headEnd + 4 + length;
  }
  return answers;
}

/**
 * Starts a cape upload on its own kept-alive connection and sends the first half of its body. `finish` sends the rest
 * (and `next`, raw request bytes to send right behind it on the same connection), waits until the server closes the
 * connection, and returns every answer it sent.
 */
export async function startSlowUpload(
  port: number,
  jar: CookieJar,
  cape: Buffer,
): Promise<{ finish(next?: string): Promise<RawAnswer[]> }> {
  const boundary = `----cloakroom${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cape.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    cape,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const head = [
    'POST /api/upload-cape HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Accept: application/json',
    'Connection: keep-alive',
    `Cookie: ${cookieHeader(jar)}`,
    `X-XSRF-TOKEN: ${decodeURIComponent(jar.cookie('XSRF-TOKEN')!)}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${body.length}`,
  ].join('\r\n');
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => undefined); // a reset shows as missing answers
  const closed = once(socket, 'close');
  const half = Math.floor(body.length / 2);
  socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body.subarray(0, half)]));
  return {
    async finish(next = '') {
      socket.write(Buffer.concat([body.subarray(half), Buffer.from(next)]));
      await closed;
      return parseAnswers(Buffer.concat(received));
    },
  };
}

/** The environment both processes share: the scale-out configuration of deploy/README.md. */
function sharedEnvironment(databaseUrl: string, publicBaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: cluster.redisPrefix,
    S3_BUCKET: cluster.s3.bucket,
    S3_ENDPOINT: cluster.s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: cluster.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: cluster.s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    PUBLIC_BASE_URL: publicBaseUrl,
    TRUST_PROXY: '1',
    SKIP_SITE_BUILD: 'true',
    SITE_DIR: cluster.siteDir,
    ANSWER_FILES_DIR: cluster.answersDir,
    OFFLINE_MODE: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    LOGIN_ATTEMPTS_PER_MINUTE: String(LOGIN_ATTEMPTS_PER_MINUTE),
    LOGIN_FAILURES_PER_MINUTE: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: String(TEXTURE_UPLOADS_PER_10_MINUTES),
    SWEEP_INTERVAL_MINUTES: '0',
    IMAGE_JOB_CONCURRENCY: '1',
    METRICS_KEY,
    AUTH_API_KEY,
  };
}

/** Starts one app process and remembers it for the clean-up. */
export async function startProcess(name: string, port: number): Promise<AppProcess> {
  // Each process gets a data directory of its own: nothing may be shared through local files.
  const dataDir = fs.mkdtempSync(path.join(cluster.dir, `data-${name}-`));
  const app = await startAppProcess(name, port, { ...cluster.appEnv, DATA_DIR: dataDir });
  started.add(app);
  return app;
}

/**
 * Starts the cluster for a test file, before its tests: the fixture site, a PostgreSQL database, an S3 bucket, a Redis
 * prefix, two app processes started at once on the empty database, and nginx in front of them; `onReady` gets it.
 * Everything is stopped and removed after the file.
 */
export function useScaleOutCluster(onReady: (cluster: ScaleOutCluster) => void): void {
  beforeAll(async () => {
    requireNginx();
    cluster.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-scale-out-'));
    cluster.siteDir = path.join(cluster.dir, 'site');
    cluster.answersDir = path.join(cluster.dir, 'answers');
    writeSiteFixture(cluster.siteDir, SITE_FILES);
    // A pre-compressed copy, as the build writes them: nginx sends it as it is (gzip_static).
    fs.writeFileSync(
      path.join(cluster.siteDir, '_astro/app.abc123.js.gz'),
      gzipSync(SITE_FILES['_astro/app.abc123.js']!),
    );

    cluster.redisPrefix = `cloakroom-scale-out-${randomBytes(6).toString('hex')}:`;
    [cluster.database, cluster.s3] = await Promise.all([postgresBackend.createDatabase(), startS3rver()]);
    const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
    cluster.appEnv = sharedEnvironment(cluster.database.url, `http://127.0.0.1:${nginxPort}`);
    // Both start at once on the empty database, as systemd starts them: the migrations take a lock.
    [cluster.processA, cluster.processB] = await Promise.all([startProcess('A', portA), startProcess('B', portB)]);
    cluster.nginx = await startNginx({
      dir: path.join(cluster.dir, 'nginx'),
      port: nginxPort,
      upstreamPorts: [portA, portB],
      siteDir: cluster.siteDir,
      answersDir: cluster.answersDir,
    });
    cluster.db = openDatabase(cluster.database.url);
    await migrateToLatest(cluster.db);
    onReady(cluster);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...started].map((app) => app.kill()));
    await cluster.nginx?.stop();
    await cluster.db?.destroy();
    await cluster.database?.drop();
    await cluster.s3?.close();
    if (cluster.redisPrefix) {
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        const keys = await redis.keys(`${cluster.redisPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    }
    if (cluster.dir) fs.rmSync(cluster.dir, { recursive: true, force: true });
  }, 30_000);
}
