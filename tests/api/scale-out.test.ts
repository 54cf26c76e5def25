// Several processes, proven: two real server processes (server/main.ts) on one PostgreSQL database, one Redis and one S3
// bucket, behind nginx running the deploy configuration (deploy/nginx/cloakroom.conf). Sessions, profile changes and
// limits hold across the processes; a process killed with SIGKILL loses no acknowledged upload while the other keeps
// answering; a process told to stop (SIGTERM) finishes the request it is answering and exits 0. Both processes write the
// answer files nginx serves into one directory, as the processes of one host do.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../server/db/database.ts';
import { textureMessages } from '../../src/lib/texture-rules.ts';
import { frameColour, sha256Hex, solidPng } from '../../support/textures.ts';
import { freePort, startAppProcess, type AppProcess } from '../../support/app-process.ts';
import { postgresBackend, runsOnPostgres, type TestDatabase } from '../../support/backends.ts';
import { CookieJar } from '../helpers/cookie-jar.ts';
import { requireNginx, startNginx, type RunningNginx } from '../../support/nginx.ts';
import { startS3rver, type RunningS3rver } from '../../support/s3rver.ts';
import { waitFor } from '../../support/wait.ts';
import { createUserWithCode, randomUsername, unusedCode } from '../helpers/server.ts';
import { modProfile } from '../helpers/mod-profile.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** The processes' metrics key: the tests read how many mod API requests reached a process. */
const METRICS_KEY = 'scale-out-metrics-key';
/** The game auth server's key (it registers players, and renames them when their game name changed). */
const AUTH_API_KEY = 'scale-out-auth-key';
/** Each process's limits: small, so that a few calls spread over both processes reach them. */
const LOGIN_ATTEMPTS_PER_MINUTE = 4;
const TEXTURE_UPLOADS_PER_10_MINUTES = 4;
/** The requirement: a change made on one process is in every process's mod API answer within this. */
const CHANGE_VISIBLE_WITHIN_MS = 1000;

/** The fixture site nginx serves files from (and the processes serve pages from). */
const SITE_FILES: Record<string, string> = {
  'index.html': '<h1>home page</h1>',
  'help.html': '<h1>help page</h1>',
  'user.html': '<h1>user lookup shell</h1>',
  '404.html': '<h1>not found page</h1>',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>',
  '_astro/app.abc123.js': `console.log(${JSON.stringify('x'.repeat(2000))});`,
};

let dir: string;
let siteDir: string;
let answersDir: string;
let database: TestDatabase;
let s3: RunningS3rver;
let redisPrefix: string;
let db: Db;
let nginx: RunningNginx;
let processA: AppProcess;
let processB: AppProcess;
let appEnv: Record<string, string>;
/** Every process a test started, killed after the file if a failing test left one running. */
const started = new Set<AppProcess>();
let colour = 0;
let addressCount = 0;

/** A client address of its own (TEST-NET-2) for each login, so logins spread over tests stay under the per-address limit. */
function newClientAddress(): string {
  addressCount++;
  return `198.51.${100 + Math.floor(addressCount / 250)}.${addressCount % 250}`;
}

/** A jar for another base URL holding the same cookies (the same browser, talking to another process). */
function sameBrowserAt(url: string, jar: CookieJar): CookieJar {
  const copy = new CookieJar(url);
  for (const name of ['session', 'XSRF-TOKEN']) {
    const value = jar.cookie(name);
    if (value !== undefined) copy.setCookie(name, value);
  }
  return copy;
}

/** Logs a new player in on `url` (a process, or nginx, which puts its own client address last) as a client at `address`. */
async function logIn(
  url: string,
  address = newClientAddress(),
  options: { admin?: boolean } = {},
): Promise<{ jar: CookieJar; uuid: string; username: string }> {
  const username = randomUsername();
  const { uuid, code } = await createUserWithCode(db, username, options);
  const jar = new CookieJar(url);
  await jar.get('/api/csrf-cookie');
  const response = await jar.post('/api/account/checkauth', { code, ref: '/' }, { 'x-forwarded-for': address });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(((await response.json()) as { success: boolean }).success).toBe(true);
  return { jar, uuid, username };
}

/** A cape (64x32) of a colour no other upload in this file has. */
async function newCape(): Promise<Buffer> {
  return solidPng(64, 32, frameColour(colour++));
}

/** The cape_url of a player's mod API answer on one server (null when it answers 404: nothing to show). */
async function capeUrl(url: string, uuid: string): Promise<string | null> {
  return (await modProfile(url, uuid)).cape_url;
}

/** How many mod API requests the app processes have answered so far (their request metrics). */
async function modRequestsServed(): Promise<number> {
  let total = 0;
  for (const app of [processA, processB]) {
    const text = await (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } })).text();
    for (const match of text.matchAll(
      /^cloakroom_http_request_duration_seconds_count\{[^}]*route="(\/(?:profile|capes|elytras|csl|textures)[^"]*)"[^}]*\} (\d+)$/gm,
    )) {
      total += Number(match[2]);
    }
  }
  return total;
}

/** Polls a server's mod API every 50 ms until the player's cape_url is `expected`; resolves with the time it took. */
async function timeUntilCape(url: string, uuid: string, expected: string | null, since: number): Promise<number> {
  for (;;) {
    if ((await capeUrl(url, uuid)) === expected) return Date.now() - since;
    if (Date.now() - since > 5 * CHANGE_VISIBLE_WITHIN_MS) throw new Error(`${url}/profile/${uuid} never showed ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the mod API answers for a player through nginx on each layout: the profile's body, and the status of the others. */
async function modAnswers(uuid: string, username: string): Promise<{ profile: string; cape: number; elytra: number; csl: string }> {
  const [profile, cape, elytra, csl] = await Promise.all(
    [`/profile/${uuid}`, `/capes/${username}.png`, `/elytras/${username}.png`, `/csl/${username}.json`].map((path) => fetch(`${nginx.url}${path}`)),
  );
  await Promise.all([cape!.arrayBuffer(), elytra!.arrayBuffer()]);
  return { profile: `${profile!.status} ${await profile!.text()}`, cape: cape!.status, elytra: elytra!.status, csl: `${csl!.status} ${await csl!.text()}` };
}

/** Polls every layout through nginx every 20 ms until `seen` holds; resolves with the time since `since` it took. */
async function timeUntilSeen(
  uuid: string,
  username: string,
  seen: (answers: Awaited<ReturnType<typeof modAnswers>>) => boolean,
  since: number,
): Promise<number> {
  for (;;) {
    const answers = await modAnswers(uuid, username);
    if (seen(answers)) return Date.now() - since;
    if (Date.now() - since > 5 * CHANGE_VISIBLE_WITHIN_MS) throw new Error(`nginx never showed the change for ${username}: ${JSON.stringify(answers)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a texture URL's bytes are served by `url` and hash to the name in the URL. */
async function servesTexture(url: string, textureUrl: string): Promise<boolean> {
  const hash = textureUrl.slice(textureUrl.lastIndexOf('/') + 1);
  const response = await fetch(`${url}/textures/${hash}`);
  return response.status === 200 && sha256Hex(Buffer.from(await response.arrayBuffer())) === hash;
}

/** The Cookie header a browser sends with a jar's cookies. */
function cookieHeader(jar: CookieJar): string {
  return ['session', 'XSRF-TOKEN'].map((name) => `${name}=${jar.cookie(name)}`).join('; ');
}

/** One HTTP answer read off a raw connection. */
interface RawAnswer {
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
    for (const line of lines) headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
    const length = Number(headers.get('content-length'));
    if (!Number.isInteger(length)) throw new Error(`An answer without Content-Length: ${statusLine}`);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: bytes.subarray(headEnd + 4, headEnd + 4 + length).toString() });
    offset = headEnd + 4 + length;
  }
  return answers;
}

/**
 * Starts a cape upload on its own kept-alive connection and sends the first half of its body. `finish` sends the rest
 * (and `next`, raw request bytes to send right behind it on the same connection), waits until the server closes the
 * connection, and returns every answer it sent.
 */
async function startSlowUpload(port: number, jar: CookieJar, cape: Buffer): Promise<{ finish(next?: string): Promise<RawAnswer[]> }> {
  const boundary = `----cloakroom${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cape.png"\r\nContent-Type: image/png\r\n\r\n`),
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
    REDIS_PREFIX: redisPrefix,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    PUBLIC_BASE_URL: publicBaseUrl,
    TRUST_PROXY: '1',
    SKIP_SITE_BUILD: 'true',
    SITE_DIR: siteDir,
    ANSWER_FILES_DIR: answersDir,
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
async function startProcess(name: string, port: number): Promise<AppProcess> {
  // Each process gets a data directory of its own: nothing may be shared through local files.
  const dataDir = fs.mkdtempSync(path.join(dir, `data-${name}-`));
  const app = await startAppProcess(name, port, { ...appEnv, DATA_DIR: dataDir });
  started.add(app);
  return app;
}

beforeAll(async () => {
  requireNginx();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-scale-out-'));
  siteDir = path.join(dir, 'site');
  answersDir = path.join(dir, 'answers');
  for (const [name, body] of Object.entries(SITE_FILES)) {
    fs.mkdirSync(path.dirname(path.join(siteDir, name)), { recursive: true });
    fs.writeFileSync(path.join(siteDir, name), body);
  }
  // A pre-compressed copy, as the build writes them: nginx sends it as it is (gzip_static).
  fs.writeFileSync(path.join(siteDir, '_astro/app.abc123.js.gz'), gzipSync(SITE_FILES['_astro/app.abc123.js']!));

  redisPrefix = `cloakroom-scale-out-${randomBytes(6).toString('hex')}:`;
  [database, s3] = await Promise.all([postgresBackend.createDatabase(), startS3rver()]);
  const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
  appEnv = sharedEnvironment(database.url, `http://127.0.0.1:${nginxPort}`);
  // Both start at once on the empty database, as systemd starts them: the migrations take a lock.
  [processA, processB] = await Promise.all([startProcess('A', portA), startProcess('B', portB)]);
  nginx = await startNginx({ dir: path.join(dir, 'nginx'), port: nginxPort, upstreamPorts: [portA, portB], siteDir, answersDir });
  db = openDatabase(database.url);
  await migrateToLatest(db);
}, 60_000);

afterAll(async () => {
  await Promise.all([...started].map((app) => app.kill()));
  await nginx?.stop();
  await db?.destroy();
  await database?.drop();
  await s3?.close();
  if (redisPrefix) {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 30_000);

// Real processes start, migrate and fork image workers: slow on a busy machine, so each test gets time (the file takes ~15 s).
describe.skipIf(!runsOnPostgres)('two processes behind nginx on PostgreSQL, Redis and S3', { timeout: 45_000 }, () => {
  it('nginx serves the build files itself (pre-compressed, hashed ones cached for a year) and the pages through a process', async () => {
    const asset = await fetch(`${nginx.url}/_astro/app.abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('content-length'), 'the .gz file as it is').toBe(String(fs.statSync(path.join(siteDir, '_astro/app.abc123.js.gz')).size));
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('x-request-id'), 'no process saw it').toBeNull();
    expect(await asset.text()).toBe(SITE_FILES['_astro/app.abc123.js']);
    const icon = await fetch(`${nginx.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('x-request-id')).toBeNull();
    expect(icon.headers.get('content-security-policy')).toContain("default-src 'none'");

    // Pages, dynamic routes and the 404 page come from a process, with its page headers.
    const help = await fetch(`${nginx.url}/help`);
    expect(help.status).toBe(200);
    expect(await help.text()).toBe(SITE_FILES['help.html']);
    expect(help.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(help.headers.get('content-security-policy')).toContain('script-src');
    const user = await fetch(`${nginx.url}/user/069a79f444e94726a5befca90e38aaf5`);
    expect(await user.text()).toBe(SITE_FILES['user.html']);
    for (const missing of ['/no-such-page', '/_astro/old.js', '/images/none.png']) {
      const response = await fetch(`${nginx.url}${missing}`);
      expect(response.status, missing).toBe(404);
      expect(await response.text(), missing).toBe(SITE_FILES['404.html']);
    }
  });

  it('a login through nginx is a session on both processes, and a logout on one ends it on the other', async () => {
    const { jar, uuid } = await logIn(nginx.url);
    for (const app of [processA, processB]) {
      const me = await sameBrowserAt(app.url, jar).get('/api/user');
      expect(me.status, app.name).toBe(200);
      expect(((await me.json()) as { uuid: string }).uuid).toBe(uuid);
    }
    expect((await sameBrowserAt(processA.url, jar).post('/api/account/logout')).status).toBe(200);
    expect((await sameBrowserAt(processB.url, jar).get('/api/user')).status).toBe(401);
  });

  it(`a cape uploaded on one process is in the other's mod API answer within ${CHANGE_VISIBLE_WITHIN_MS} ms, and so is its removal`, async () => {
    const { jar, uuid } = await logIn(processA.url);
    // Both processes have the player cached (no cape yet): only a change notice can tell them.
    expect(await capeUrl(processA.url, uuid)).toBeNull();
    expect(await capeUrl(processB.url, uuid)).toBeNull();

    const upload = await jar.upload('/api/upload-cape', await newCape());
    const uploadedAt = Date.now();
    expect(upload.status, await upload.clone().text()).toBe(200);
    const cape = ((await upload.json()) as { cape: string }).cape;
    expect(cape).toMatch(new RegExp(`^${nginx.url}/textures/[0-9a-f]{64}$`));
    const seenOnB = await timeUntilCape(processB.url, uuid, cape, uploadedAt);
    expect(seenOnB).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);

    const removal = await sameBrowserAt(processB.url, jar).request('DELETE', '/api/upload-cape');
    const removedAt = Date.now();
    expect(removal.status, await removal.clone().text()).toBe(200);
    const removalSeenOnA = await timeUntilCape(processA.url, uuid, null, removedAt);
    expect(removalSeenOnA).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);
  });

  it('nginx answers every layout, texture and unknown player from the answer files, and none of those requests reaches a process', async () => {
    const { jar, uuid, username } = await logIn(processA.url);
    const upload = await jar.upload('/api/upload-cape', await newCape());
    expect(upload.status).toBe(200);
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const empty = await logIn(processB.url);
    const before = await modRequestsServed();
    const found = [
      `/profile/${uuid}`,
      `/profile/${username}`,
      `/capes/${username}.png`,
      `/capes/${uuid}.gif`,
      `/capes/strip/${uuid}.png`,
      `/elytras/${username.toLowerCase()}.png`,
      `/csl/${username}.json`,
      `/textures/${hash}`,
      `/csl/textures/${hash}.png`,
    ];
    const missing = [
      `/profile/${randomBytes(16).toString('hex')}`,
      `/profile/${empty.uuid}`,
      `/capes/${empty.username}.png`,
      `/csl/${empty.username.toLowerCase()}.json`,
      `/textures/${'e'.repeat(64)}`,
    ];
    // Compared with the process that made the change (the other may not have heard of it yet).
    for (const path of found) {
      const [throughNginx, straight] = await Promise.all([fetch(`${nginx.url}${path}`), fetch(`${processA.url}${path}`)]);
      expect(throughNginx.status, path).toBe(200);
      expect(Buffer.from(await throughNginx.arrayBuffer()), path).toEqual(Buffer.from(await straight.arrayBuffer()));
      expect(throughNginx.headers.get('content-type'), path).toBe(straight.headers.get('content-type'));
      expect(throughNginx.headers.get('cache-control'), path).toBe(straight.headers.get('cache-control'));
    }
    for (const path of missing) {
      const [throughNginx, straight] = await Promise.all([fetch(`${nginx.url}${path}`), fetch(`${processB.url}${path}`)]);
      expect(throughNginx.status, path).toBe(404);
      expect(await throughNginx.text(), path).toBe(await straight.text());
      for (const header of ['content-type', 'access-control-allow-origin', 'x-content-type-options', 'content-security-policy', 'cache-control']) {
        expect(throughNginx.headers.get(header), `${path} ${header}`).toBe(straight.headers.get(header));
      }
    }
    // The checks above asked processB once per path straight: only those reached a process.
    expect((await modRequestsServed()) - before).toBe(found.length + missing.length);
  });

  it('an encoded slash in a mod API path answers 404 and never hides the real answer (no cache to poison)', async () => {
    const { jar, username } = await logIn(processA.url);
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    for (const path of [
      `/capes%2F${username}.png`,
      `/capes/strip%2F${username}.png`,
      `/profile%2F${username}`,
      `/csl%2F${username}.json`,
      `/elytras%2F${username}.png`,
    ]) {
      for (let i = 0; i < 3; i++) expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(404);
    }
    for (const path of [
      `/capes/${username}.png`,
      `/capes/strip/${username}.png`,
      `/profile/${username}`,
      `/csl/${username}.json`,
      `/elytras/${username}.png`,
    ]) {
      expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(200);
    }
  });

  it('a texture removed on one process stays gone on every URL, though the other process had just served it from memory', async () => {
    const admin = await logIn(processB.url, newClientAddress(), { admin: true });
    const { jar, uuid } = await logIn(processA.url);
    const upload = await jar.upload('/api/upload-cape', await newCape());
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const urls = [`/textures/${hash}`, `/textures/${hash}.png`, `/csl/textures/${hash}`];
    for (const path of urls) {
      expect((await fetch(`${processB.url}${path}`)).status, path).toBe(200);
      expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(200);
    }
    // A moderator removes the cape on process A (edit user: delete the cape).
    const removal = await sameBrowserAt(processA.url, admin.jar).post('/api/admin/user/cape/delete', { uuid });
    expect(removal.status, await removal.clone().text()).toBe(200);
    const removedAt = Date.now();
    // Asked again and again, through nginx and straight from the process that had it in memory: gone, and it stays gone.
    while (Date.now() - removedAt < 2 * CHANGE_VISIBLE_WITHIN_MS) {
      for (const path of urls) {
        const seenAt = Date.now();
        const statuses = [(await fetch(`${processB.url}${path}`)).status, (await fetch(`${nginx.url}${path}`)).status];
        if (seenAt - removedAt >= CHANGE_VISIBLE_WITHIN_MS) expect(statuses, path).toEqual([404, 404]);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('a new cape of the same size in the same second never answers 304 to the old ETag through nginx', async () => {
    const { jar, uuid } = await logIn(processA.url);
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    const first = await fetch(`${nginx.url}/profile/${uuid}`);
    const firstBody = await first.text();
    const etag = first.headers.get('etag')!;
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, CHANGE_VISIBLE_WITHIN_MS));
    const second = await fetch(`${nginx.url}/profile/${uuid}`, { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(200);
    const secondBody = await second.text();
    expect(secondBody.length, 'the same length: only the time tells the answers apart').toBe(firstBody.length);
    expect(secondBody).not.toBe(firstBody);
  });

  it("nginx serves a profile by uuid and a texture from the files the processes write, with the app's answer", async () => {
    const { jar, uuid } = await logIn(processA.url);
    const upload = await jar.upload('/api/upload-cape', await newCape());
    expect(upload.status).toBe(200);
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const dashed = `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20)}`;
    const sameAnswer = [
      'content-type',
      'cache-control',
      'access-control-allow-origin',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'content-security-policy',
    ];
    for (const path of [`/profile/${uuid}`, `/textures/${hash}`]) {
      // The upload's answer came after the files were written: nginx serves them from the first request. (Compared with
      // the process that made the change: the other may not have heard of it yet.)
      expect(fs.existsSync(`${answersDir}${path}`), path).toBe(true);
      const direct = await fetch(`${processA.url}${path}`);
      const directBody = Buffer.from(await direct.arrayBuffer());
      const variants = path.startsWith('/profile/')
        ? [path, `/profile/${dashed}`, `/profile/${dashed.replace('-', '')}`]
        : [path, `${path}.png`, `/csl${path}`];
      for (const variant of variants) {
        const fromFile = await fetch(`${nginx.url}${variant}`);
        expect(fromFile.status, variant).toBe(200);
        expect(Buffer.from(await fromFile.arrayBuffer()), variant).toEqual(directBody);
        for (const header of sameAnswer) expect(fromFile.headers.get(header), `${variant} ${header}`).toBe(direct.headers.get(header));
        expect(fromFile.headers.get('set-cookie')).toBeNull();
        // A client holding the file's answer gets 304, by its ETag or its date.
        expect((await fetch(`${nginx.url}${variant}`, { headers: { 'if-none-match': fromFile.headers.get('etag')! } })).status, variant).toBe(304);
        expect((await fetch(`${nginx.url}${variant}`, { headers: { 'if-modified-since': fromFile.headers.get('last-modified')! } })).status, variant).toBe(304);
      }
      // Another method on a file's path gets the process's answer, not nginx's.
      for (const method of ['POST', 'DELETE']) {
        const [throughNginx, straight] = await Promise.all(
          [nginx.url, processB.url].map((base) => fetch(`${base}${path}`, { method, body: method === 'POST' ? '{}' : undefined })),
        );
        expect(throughNginx.status, `${method} ${path}`).toBe(straight.status);
        expect(await throughNginx.text(), `${method} ${path}`).toBe(await straight.text());
      }
    }
    // The profile file's date is the profile's Last-Modified, as the processes answer it.
    expect((await fetch(`${nginx.url}/profile/${uuid}`)).headers.get('last-modified')).toBe(
      (await fetch(`${processA.url}/profile/${uuid}`)).headers.get('last-modified'),
    );

    // An uppercase uuid has no file of its own: a process answers it. An unknown player and a texture path that is not a
    // lowercase hash are answered 404 by nginx, as the processes answer them.
    const unknown = randomBytes(16).toString('hex');
    await waitFor(async () => (await fetch(`${processB.url}/profile/${uuid}`)).status === 200, 'both processes knowing of the cape');
    for (const path of [
      `/profile/${uuid.toUpperCase()}`,
      `/profile/${unknown}`,
      `/textures/${hash.toUpperCase()}`,
      '/textures/nothing',
      '/csl/textures/nothing',
    ]) {
      const [throughNginx, straight] = await Promise.all([fetch(`${nginx.url}${path}`), fetch(`${processB.url}${path}`)]);
      expect(throughNginx.status, path).toBe(straight.status);
      expect(await throughNginx.text(), path).toBe(await straight.text());
    }
    expect((await fetch(`${nginx.url}/profile/${uuid.toUpperCase()}`)).status).toBe(200);
    expect(fs.existsSync(`${answersDir}/profile/${unknown}`)).toBe(false);
    expect(fs.readdirSync(answersDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it(`every change of a player is seen through nginx on every layout within ${CHANGE_VISIBLE_WITHIN_MS} ms`, async () => {
    const admin = await logIn(processB.url, newClientAddress(), { admin: true });
    const { jar, uuid, username } = await logIn(processA.url);
    await db.insertInto('premium').values({ user_uuid: uuid, dinnerbone: 1 }).execute();
    const player = [jar, sameBrowserAt(processB.url, jar)] as const;
    const timings: Record<string, number> = {};
    /** Asks nginx for every layout (so it holds them open), makes a change through a process, then times until nginx shows it. */
    const change = async (label: string, make: () => Promise<Response>, seen: (answers: Awaited<ReturnType<typeof modAnswers>>) => boolean) => {
      for (let i = 0; i < 5; i++) await modAnswers(uuid, username);
      const response = await make();
      const changedAt = Date.now();
      expect(response.status, `${label}: ${await response.clone().text()}`).toBe(200);
      timings[label] = await timeUntilSeen(uuid, username, seen, changedAt);
      expect(seen(await modAnswers(uuid, username)), label).toBe(true);
    };

    const cape = await newCape();
    let capeHash = '';
    await change(
      'upload',
      async () => {
        const response = await player[0].upload('/api/upload-cape', cape);
        capeHash = sha256Hex(Buffer.from(await (await fetch(((await response.clone().json()) as { cape: string }).cape)).arrayBuffer()));
        return response;
      },
      (answers) => answers.profile.includes(capeHash) && answers.cape === 200 && answers.elytra === 200 && answers.csl.includes(capeHash),
    );
    await change(
      'premium toggle',
      () => player[1].post('/api/premium/dinnerbone', { enabled: true }),
      (answers) => answers.profile.includes('"upsideDown":true'),
    );
    await change(
      'removal',
      () => player[0].request('DELETE', '/api/upload-cape'),
      (answers) => answers.profile.includes('"cape_url":null') && answers.cape === 404 && answers.elytra === 404 && !answers.csl.includes(capeHash),
    );
    expect((await player[1].upload('/api/upload-cape', cape)).status).toBe(200);
    await change(
      'ban',
      () => admin.jar.post('/api/admin/user/ban', { uuid, confirm: true, reason: 'nsfw' }),
      (answers) => !answers.profile.includes(capeHash) && answers.cape === 404 && answers.elytra === 404 && !answers.csl.includes(capeHash),
    );

    const other = await logIn(processB.url);
    expect((await other.jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    const before = await modAnswers(other.uuid, other.username);
    expect(before.profile).toMatch(/^200 /);
    for (let i = 0; i < 5; i++) await modAnswers(other.uuid, other.username);
    const deletion = await sameBrowserAt(processA.url, other.jar).post('/api/account/delete', { confirm: true });
    const deletedAt = Date.now();
    expect(deletion.status).toBe(200);
    timings['account deletion'] = await timeUntilSeen(
      other.uuid,
      other.username,
      (answers) => answers.profile.startsWith('404') && answers.cape === 404 && answers.elytra === 404 && answers.csl.startsWith('404'),
      deletedAt,
    );

    for (const [label, ms] of Object.entries(timings)) expect(ms, label).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);
  });

  it(`a rename is seen through nginx within ${CHANGE_VISIBLE_WITHIN_MS} ms on every layout by name, and the old name is gone`, async () => {
    const { jar, username } = await logIn(processA.url);
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    const byName = (name: string) => [`/profile/${name}`, `/capes/${name}.png`, `/capes/${name}.gif`, `/elytras/${name}.png`, `/csl/${name}.json`];
    const statuses = async (name: string) => Promise.all(byName(name).map(async (path) => (await fetch(`${nginx.url}${path}`)).status));
    expect(await statuses(username)).toEqual([200, 200, 200, 200, 200]);
    const { uuid } = (await (await jar.get('/api/user')).json()) as { uuid: string };
    const newName = randomUsername();
    // The game auth server tells a process (B) the player joined under a new name.
    const rename = await fetch(`${processB.url}/api/internal/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${AUTH_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uuid, username: newName }),
    });
    const renamedAt = Date.now();
    expect(rename.status, await rename.clone().text()).toBe(200);
    for (;;) {
      const [now, before] = await Promise.all([statuses(newName), statuses(username)]);
      if (now.every((status) => status === 200) && before.every((status) => status === 404)) break;
      expect(Date.now() - renamedAt, `new name ${now.join()} old name ${before.join()}`).toBeLessThan(CHANGE_VISIBLE_WITHIN_MS);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(JSON.parse(await (await fetch(`${nginx.url}/csl/${newName.toLowerCase()}.json`)).text())).toMatchObject({ username: newName });
  });

  it("refuses an over-limit upload through nginx with the app's own 413 message (nginx's body limit is above the app's)", async () => {
    const { jar } = await logIn(processA.url);
    const throughNginx = sameBrowserAt(nginx.url, jar);
    for (const size of [600_000, 3_000_000]) {
      const response = await throughNginx.upload('/api/upload-cape', randomBytes(size));
      expect(response.status, `${size} B`).toBe(413);
      expect(await response.json()).toEqual({ success: false, msg: textureMessages.capeTooBig });
    }
  });

  it(`counts code logins per client address over both processes (${LOGIN_ATTEMPTS_PER_MINUTE} a minute in all)`, async () => {
    const address = newClientAddress();
    const browsers = [processA, processB].map((app) => new CookieJar(app.url));
    for (const browser of browsers) await browser.get('/api/csrf-cookie');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_ATTEMPTS_PER_MINUTE + 2; attempt++) {
      const response = await browsers[attempt % 2]!.post('/api/account/checkauth', { code: await unusedCode(db) }, { 'x-forwarded-for': address });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it(`counts a player's cape uploads over both processes (${TEXTURE_UPLOADS_PER_10_MINUTES} per 10 minutes in all)`, async () => {
    const { jar } = await logIn(processA.url);
    const browsers = [jar, sameBrowserAt(processB.url, jar)];
    const statuses: number[] = [];
    for (let upload = 0; upload < TEXTURE_UPLOADS_PER_10_MINUTES + 2; upload++) {
      statuses.push((await browsers[upload % 2]!.upload('/api/upload-cape', await newCape())).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('a process killed with SIGKILL in the middle of a series of uploads loses no acknowledged one, and the other keeps answering', async () => {
    const uploads = 10;
    const players = await Promise.all(
      Array.from({ length: uploads }, async (_, i) => {
        const { jar, uuid } = await logIn(i % 2 === 0 ? processA.url : processB.url);
        return { uuid, jar: sameBrowserAt(nginx.url, jar), cape: await newCape() };
      }),
    );
    // And one upload that A is still reading when it dies (half its body sent, directly).
    const cut = await logIn(processA.url);
    const cutUpload = await startSlowUpload(processA.port, cut.jar, await newCape());
    const results: Array<{ uuid: string; status: number; cape?: string }> = [];
    let killed: Promise<unknown> | undefined;
    // Two uploads at a time through nginx; process A dies once three have been acknowledged.
    const lane = async (first: number) => {
      for (let i = first; i < uploads; i += 2) {
        const player = players[i]!;
        const response = await player.jar.upload('/api/upload-cape', player.cape);
        const body = (await response.json().catch(() => ({}))) as { cape?: string };
        results.push({ uuid: player.uuid, status: response.status, cape: body.cape });
        if (!killed && results.filter((result) => result.status === 200).length >= 3) killed = processA.kill();
      }
    };
    await Promise.all([lane(0), lane(1)]);
    expect(killed, 'process A was killed during the series').toBeDefined();
    expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });

    const acknowledged = results.filter((result) => result.status === 200);
    // At most the uploads in flight on A when it died fail, with nginx's 502: an upload is never sent to a second process.
    expect(acknowledged.length).toBeGreaterThanOrEqual(uploads - 2);
    for (const failed of results.filter((result) => result.status !== 200)) expect(failed.status).toBe(502);

    // Every acknowledged upload is there on B: the profile points at it, and its bytes are served (by B and through nginx).
    for (const { uuid, cape } of acknowledged) {
      expect(await capeUrl(processB.url, uuid)).toBe(cape);
      expect(await servesTexture(processB.url, cape!)).toBe(true);
      expect(await servesTexture(nginx.url, cape!)).toBe(true);
    }
    // Each acknowledged upload's texture is an answer file nginx serves (written before the upload's answer).
    const again = await fetch(acknowledged[0]!.cape!);
    expect(fs.existsSync(`${answersDir}${new URL(acknowledged[0]!.cape!).pathname}`)).toBe(true);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The upload cut off mid-body got no answer and changed nothing; one whose answer was lost is whole or not there at all.
    expect(await cutUpload.finish()).toEqual([]);
    expect(await capeUrl(processB.url, cut.uuid)).toBeNull();
    for (const { uuid } of results.filter((result) => result.status !== 200)) {
      const current = await capeUrl(processB.url, uuid);
      if (current !== null) expect(await servesTexture(processB.url, current)).toBe(true);
    }

    // Through nginx everything keeps working: reads, the site API, and a new upload.
    const reads = await Promise.all([
      ...acknowledged.map(({ uuid }) => fetch(`${nginx.url}/profile/${uuid}`)),
      ...players.map((player) => player.jar.get('/api/user')),
    ]);
    expect(reads.map((response) => response.status)).toEqual(reads.map(() => 200));
    const { jar } = await logIn(processB.url);
    expect((await sameBrowserAt(nginx.url, jar).upload('/api/upload-cape', await newCape())).status).toBe(200);
  });

  it('a process told to stop (SIGTERM) finishes the uploads it is reading, answers what follows on their connections, exits 0', async () => {
    // A new process A on the same port (as systemd restarts it), in place of the one killed above.
    await processA.kill();
    started.delete(processA);
    processA = await startProcess('A2', processA.port);
    const [first, second] = [await logIn(processA.url), await logIn(processA.url)];
    // Two uploads whose bodies arrive in two parts, on kept-alive connections like nginx's: the first is followed on its
    // connection by another request (as nginx reuses a connection), the second by nothing (the process must close it).
    const followed = await startSlowUpload(processA.port, first.jar, await newCape());
    const alone = await startSlowUpload(processA.port, second.jar, await newCape());
    await new Promise((resolve) => setTimeout(resolve, 300));

    processA.child.kill('SIGTERM');
    const signalledAt = Date.now();
    // The process stops taking connections at once; nginx sends new requests to B meanwhile.
    let refused = false;
    for (let attempt = 0; attempt < 40 && !refused; attempt++) {
      refused = await fetch(`${processA.url}/api/csrf-cookie`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(refused, 'A refuses new connections while it drains').toBe(true);
    const during = await Promise.all(Array.from({ length: 6 }, () => sameBrowserAt(nginx.url, first.jar).get('/api/user')));
    expect(during.map((response) => response.status)).toEqual(during.map(() => 200));
    expect(processA.child.exitCode, 'A is still reading the uploads').toBeNull();

    const [followedAnswers, aloneAnswers] = await Promise.all([
      followed.finish(`GET /api/user HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nCookie: ${cookieHeader(first.jar)}\r\n\r\n`),
      alone.finish(),
    ]);
    expect(followedAnswers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(aloneAnswers.map((answer) => answer.status)).toEqual([200]);
    // The request that came after the SIGTERM is answered, not refused with 503, and ends its connection.
    expect((JSON.parse(followedAnswers[1]!.body) as { uuid: string }).uuid).toBe(first.uuid);
    expect(followedAnswers[1]!.headers.get('connection')).toBe('close');
    expect(await processA.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt, 'it exits once the last answer is sent, not at its 10 s deadline').toBeLessThan(5000);
    started.delete(processA);

    for (const [player, answers] of [
      [first, followedAnswers],
      [second, aloneAnswers],
    ] as const) {
      const uploaded = (JSON.parse(answers[0]!.body) as { cape: string }).cape;
      expect(await capeUrl(processB.url, player.uuid)).toBe(uploaded);
      expect(await servesTexture(nginx.url, uploaded)).toBe(true);
    }
  });
});
