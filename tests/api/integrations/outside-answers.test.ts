// Answers from outside services are read up to a cap, against the real server process (server/main.ts), so that its
// memory can be watched: an endless 1.5 GB answer from the OptiFine cape server, the Mojang profile API or the skin
// server costs the server little memory and ends in a 502 with the service's message; an answer that never finishes
// ends in a 502 too (not a 500); both are logged as warnings, not errors.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import { PROFILE_SERVICE_DOWN_MESSAGE } from '../../../server/accounts/registration.ts';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { solidPng } from '../../../support/textures.ts';
import { freePort, startAppProcess, type AppProcess } from '../../../support/app-process.ts';
import { backends, type TestDatabase } from '../../../support/backends.ts';
import { CookieJar } from '../../helpers/cookie-jar.ts';
import { startGameServicesStandIn, type GameServicesStandIn } from '../../helpers/game-services.ts';
import { createUserWithCode, randomUsername, randomUuid } from '../../helpers/server.ts';

/** The most the server's memory may grow while it is sent the endless answers. */
const MAX_GROWTH_BYTES = 100 * 1024 * 1024;
const SKIN_PLAYER = { uuid: randomUuid(), name: 'SkinPlayer' };
const CAPE_PLAYER = { uuid: randomUuid(), name: 'CapePlayer' };

/** A process's resident memory now, in bytes (Linux: /proc/<pid>/status). */
function residentBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** Samples a process's resident memory every 10 ms until stopped; resolves with the highest sample. */
function watchPeakMemory(pid: number): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 10);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, residentBytes(pid));
    },
  };
}

/** The pino lines of a process's output at a level (40 warn, 50 error). */
function logLines(output: string, level: number): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.level === level);
}

let services: GameServicesStandIn;
let app: AppProcess;

/**
 * The process's warnings since `logStart` in its output, once there are `count` of them (its log reaches this process
 * through a pipe, a moment after its answers); fails if it logged anything at error level.
 */
async function warningsSince(logStart: number, count: number): Promise<Array<Record<string, unknown>>> {
  await vi.waitFor(() => expect(logLines(app.output().slice(logStart), 40).length).toBeGreaterThanOrEqual(count));
  expect(logLines(app.output().slice(logStart), 50)).toEqual([]);
  return logLines(app.output().slice(logStart), 40);
}

beforeAll(async () => {
  services = await startGameServicesStandIn({
    players: [
      { ...SKIN_PLAYER, skin: await solidPng(64, 64, [200, 150, 100, 255]) },
      { ...CAPE_PLAYER, optifineCape: await solidPng(46, 22, [10, 200, 30, 255]) },
    ],
  });
});
afterAll(() => services.close());

describe.each(backends)('answers from outside services on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  let player: CookieJar;
  let admin: CookieJar;

  /** Logs a new account in on the process. */
  async function logIn(options: { admin?: boolean } = {}): Promise<CookieJar> {
    const { code } = await createUserWithCode(db, randomUsername(), options);
    const jar = new CookieJar(app.url);
    await jar.get('/api/csrf-cookie');
    const response = await jar.post('/api/account/checkauth', { code, ref: '/' });
    expect(response.status, await response.clone().text()).toBe(200);
    return jar;
  }

  /** The three calls that read the cape server and the profile API, at once; resolves with each status and error. */
  async function callServices(): Promise<Array<{ status: number; error: unknown }>> {
    const answers = await Promise.all([
      player.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`),
      player.post(`/api/gallery/head-capes/${SKIN_PLAYER.name}/0/0/0/0/false`),
      admin.post('/api/admin/registration/generate', { username: SKIN_PLAYER.name }),
    ]);
    return Promise.all(
      answers.map(async (answer) => ({
        status: answer.status,
        error: ((await answer.json()) as { error?: unknown }).error,
      })),
    );
  }

  beforeAll(async () => {
    database = await backend.createDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-outside-'));
    app = await startAppProcess('outside', await freePort(), {
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      SITE_DIR: path.join(dir, 'dist'),
      SKIP_SITE_BUILD: 'true',
      LOG_LEVEL: 'warn',
      SWEEP_INTERVAL_MINUTES: '0',
      IMAGE_JOB_CONCURRENCY: '1',
      MOJANG_API_URL: services.url,
      MOJANG_SESSION_URL: services.url,
      OPTIFINE_CAPES_URL: services.url,
      // The stand-in's skin URLs are on 127.0.0.1.
      OUTSIDE_URLS_ALLOW_PRIVATE: 'true',
      CREATOR_CALLS_PER_MINUTE: '1000',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    });
    player = await logIn();
    admin = await logIn({ admin: true });
    // Every code path runs once before memory is measured.
    expect((await callServices()).map((answer) => answer.status)).toEqual([200, 200, 200]);
  }, 60_000);
  afterAll(async () => {
    await app?.kill();
    await db?.destroy();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stops reading an endless answer at its cap: the server grows by less than 100 MB and answers 502 with the service's message", async () => {
    const before = residentBytes(app.child.pid!);
    const watch = watchPeakMemory(app.child.pid!);
    const logStart = app.output().length;
    const cutShortBefore = services.hostile.cutShort;
    let answers: Array<{ status: number; error: unknown }>;
    let skin: Response;
    try {
      // The cape server and the profile API send 1.5 GB each, three calls at once; then the skin server does.
      services.misbehave('endless', /^\/(capes|users)\//);
      answers = await callServices();
      services.misbehave('endless', /^\/texture\//);
      skin = await player.post(`/api/gallery/head-capes/${SKIN_PLAYER.name}/0/0/0/0/false`);
    } finally {
      services.misbehave(null);
    }
    const growth = watch.stop() - before;
    console.log(`${backend.name}: the server grew by ${(growth / 1024 / 1024).toFixed(1)} MB`);

    expect(answers).toEqual([
      { status: 502, error: creatorMessages.optifineServiceDown },
      { status: 502, error: creatorMessages.playerServiceDown },
      { status: 502, error: PROFILE_SERVICE_DOWN_MESSAGE },
    ]);
    expect(skin.status).toBe(502);
    expect(((await skin.json()) as { error: string }).error).toBe(creatorMessages.playerServiceDown);
    expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
    // Every reader hung up long before the end of its 1.5 GB.
    await vi.waitFor(() => expect(services.hostile.cutShort - cutShortBefore).toBe(4));

    const warnings = await warningsSince(logStart, 4);
    expect(warnings.every((line) => line.msg === 'an outside service failed')).toBe(true);
  }, 120_000);

  it('answers 502, not 500, when a service starts an answer and never finishes it, and logs a warning', async () => {
    const logStart = app.output().length;
    let answers: Array<{ status: number; error: unknown }>;
    try {
      services.misbehave('stall', /^\/(capes|users)\//);
      answers = await callServices();
    } finally {
      services.misbehave(null);
    }
    expect(answers).toEqual([
      { status: 502, error: creatorMessages.optifineServiceDown },
      { status: 502, error: creatorMessages.playerServiceDown },
      { status: 502, error: PROFILE_SERVICE_DOWN_MESSAGE },
    ]);
    const warnings = await warningsSince(logStart, 3);
    expect(warnings.map((line) => line.detail)).toEqual([
      'no answer within 5000 ms',
      'no answer within 5000 ms',
      'no answer within 5000 ms',
    ]);
  }, 60_000);
});
