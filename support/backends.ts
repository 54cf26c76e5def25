// The database backends the API tests run against: a temp SQLite file and a fresh PostgreSQL database; both unless
// TEST_BACKENDS names one (`TEST_BACKENDS=sqlite` runs the API tests without PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the tests create their databases on. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A database made for one suite: its URL for the app, and how to throw it away. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database backend that can make throwaway databases. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  createDatabase(): Promise<TestDatabase>;
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A temp SQLite file per database. */
export const sqliteBackend: Backend = {
  name: 'sqlite',
  async createDatabase() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-test-'));
    return {
      url: `sqlite:${path.join(dir, 'cloakroom.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** A fresh database per suite on the PostgreSQL server at TEST_DATABASE_URL. */
export const postgresBackend: Backend = {
  name: 'postgres',
  async createDatabase() {
    const name = `cloakroom_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () =>
        withAdminClient(async (client) => {
          // pg's pool.end() resolves before its connections have closed; let them go before forcing the rest.
          for (let wait = 0; wait < 40; wait++) {
            const { rows } = await client.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
              [name],
            );
            if (rows[0]!.n === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }),
    };
  },
};

/** Every backend, in the order the tests run them. */
const ALL_BACKENDS = [sqliteBackend, postgresBackend];

/**
 * The backends a TEST_BACKENDS value names: a comma-separated list of `sqlite` and `postgres`; both when it is unset or
 * empty. Throws on any other name, so a typing mistake does not quietly run nothing.
 */
export function selectBackends(setting: string | undefined): Backend[] {
  const names = (setting ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return [...ALL_BACKENDS];
  const unknown = names.filter((name) => !ALL_BACKENDS.some((backend) => backend.name === name));
  if (unknown.length > 0)
    throw new Error(
      `TEST_BACKENDS names no backend called ${unknown.join(', ')}: use sqlite, postgres or both (sqlite,postgres)`,
    );
  return ALL_BACKENDS.filter((backend) => names.includes(backend.name));
}

/** The backends of this run (TEST_BACKENDS, both by default), for describe.each. */
export const backends: Backend[] = selectBackends(process.env.TEST_BACKENDS);

/** The backend for suites where one database shows it all: SQLite, or PostgreSQL when the run is on PostgreSQL only. */
export const oneBackend: Backend = backends[0]!;

/** Whether this run includes PostgreSQL: suites that need several processes on one database run only then. */
export const runsOnPostgres: boolean = backends.includes(postgresBackend);
