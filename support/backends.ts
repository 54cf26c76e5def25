// The two database backends every API test file runs against: a temp SQLite file and a fresh PostgreSQL database.
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

const sqlite: Backend = {
  name: 'sqlite',
  async createDatabase() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-test-'));
    return {
      url: `sqlite:${path.join(dir, 'cloakroom.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

const postgres: Backend = {
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
            const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
            if (rows[0]!.n === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }),
    };
  },
};

/** Both backends, for describe.each. */
export const backends: Backend[] = [sqlite, postgres];
