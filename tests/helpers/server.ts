// Starts the real API server (buildApp) on 127.0.0.1, port 0, against a given database, and logs users in over HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { issueLoginCode } from '../../server/auth/login-codes.ts';
import { loadConfig, type Config } from '../../server/config/index.ts';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrations/migrate.ts';
import { makeAdmin, upsertUser } from '../../server/db/users.ts';
import type { Backend, TestDatabase } from '../../support/backends.ts';
import { CookieJar } from './cookie-jar.ts';

/** A running app: its base URL, its database handle and configuration. */
export interface TestServer {
  url: string;
  db: Db;
  config: Config;
  app: FastifyInstance;
  /** Stops the server and closes its database handle. */
  close(): Promise<void>;
}

/**
 * Starts the app on a database URL with extra environment settings (LOG_LEVEL silent, no built site by default), on
 * the port PORT names, else on any free one.
 */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<TestServer> {
  const scratch = path.join(os.tmpdir(), `cloakroom-nosite-${randomBytes(4).toString('hex')}`);
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: scratch,
    SITE_DIR: path.join(scratch, 'dist'),
    DATABASE_URL: databaseUrl,
    ...env,
  });
  const db = openDatabase(config.databaseUrl);
  await migrateToLatest(db);
  const app = await buildApp(config, db);
  await app.listen({ host: '127.0.0.1', port: env.PORT ? config.port : 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    db,
    config,
    app,
    close: async () => {
      await app.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Gives a describe block its own database and server: made in a beforeAll, closed and dropped in an afterAll; read them
 * from a hook or test.
 */
export function serverForSuite(
  backend: Backend,
  env: Record<string, string> = {},
): { server: TestServer; database: TestDatabase } {
  const suite = {} as { server: TestServer; database: TestDatabase };
  beforeAll(async () => {
    suite.database = await backend.createDatabase();
    suite.server = await startServer(suite.database.url, env);
  });
  afterAll(async () => {
    await suite.server?.close();
    await suite.database?.drop();
  });
  return suite;
}

/** A random player uuid: 32 lowercase hex characters. */
export function randomUuid(): string {
  return randomBytes(16).toString('hex');
}

/** A random valid username (letters and digits, at most 16). */
export function randomUsername(prefix = 'P'): string {
  return `${prefix}${randomBytes(5).toString('hex')}`.slice(0, 16);
}

/** Creates (or updates) an account and returns a fresh login code for it. */
export async function createUserWithCode(
  db: Db,
  username: string,
  options: { uuid?: string; admin?: boolean } = {},
): Promise<{ uuid: string; code: string }> {
  const uuid = options.uuid ?? randomUuid();
  await upsertUser(db, uuid, username);
  if (options.admin) await makeAdmin(db, uuid);
  return { uuid, code: await issueLoginCode(db, uuid) };
}

/** A six-digit code that no player holds right now, for wrong-code attempts that must not hit a real code by chance. */
export async function unusedCode(db: Db): Promise<string> {
  const taken = new Set((await db.selectFrom('login_codes').select('code').execute()).map((row) => row.code));
  for (let n = 0; ; n++) {
    const code = String((n * 7919) % 1_000_000).padStart(6, '0');
    if (!taken.has(code)) return code;
  }
}

/** A browser that has loaded a page: its jar already holds the XSRF-TOKEN cookie from a first API call. */
export async function newBrowser(server: TestServer): Promise<CookieJar> {
  const jar = new CookieJar(server.url);
  await jar.get('/api/home');
  if (!jar.cookie('XSRF-TOKEN')) throw new Error('The server set no XSRF-TOKEN cookie');
  return jar;
}

/** Logs a new account in through POST /api/account/checkauth; returns the browser and the account's uuid. */
export async function loginNewUser(
  server: TestServer,
  username = randomUsername(),
  options: { uuid?: string; admin?: boolean } = {},
): Promise<{ jar: CookieJar; uuid: string; username: string }> {
  const { uuid, code } = await createUserWithCode(server.db, username, options);
  const jar = await newBrowser(server);
  const response = await jar.post('/api/account/checkauth', { code, ref: '/' });
  const body = (await response.json()) as { success?: boolean };
  if (response.status !== 200 || body.success !== true || !jar.cookie('session')) {
    throw new Error(`Login failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return { jar, uuid, username };
}

/** An account logged in by a test: its browser, uuid and name. */
export interface LoggedIn {
  jar: CookieJar;
  uuid: string;
  username: string;
}

/** Logs an admin and a player in once the suite's server is up; read them from a hook or test. */
export function adminAndPlayerForSuite(suite: { server: TestServer }): { admin: LoggedIn; player: LoggedIn } {
  const accounts = {} as { admin: LoggedIn; player: LoggedIn };
  beforeAll(async () => {
    accounts.admin = await loginNewUser(suite.server, undefined, { admin: true });
    accounts.player = await loginNewUser(suite.server);
  });
  return accounts;
}
