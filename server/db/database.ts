// Opens the database (SQLite file or PostgreSQL) with Kysely; migrations/migrate.ts applies the migrations.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type DatabaseConnection, type Driver } from 'kysely';
import type { Database } from './schema.ts';
import { isPostgresUrl } from './dialect.ts';

/** The app's database handle. */
export type Db = Kysely<Database>;

// PostgreSQL returns bigint (int8) and count() as strings; every such value here fits a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** Opens a database from `sqlite:<file>` (or a bare file path) or a `postgres://` URL. */
export function openDatabase(url: string): Db {
  if (isPostgresUrl(url)) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }),
    });
  }
  const file = sqliteFileOf(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
}

/**
 * SQLite with transactions that take the write lock when they begin (`BEGIN IMMEDIATE`). A plain `BEGIN` reads first
 * and asks for the lock at its first write; if another connection (the CLI, a sweep, a second process) wrote in
 * between, that write fails at once with SQLITE_BUSY, whatever the busy timeout. Taking the lock first makes it wait
 * instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** The file of a SQLite database URL (`sqlite:` prefix optional), or `:memory:`. */
export function sqliteFileOf(url: string): string {
  return url.replace(/^sqlite:/, '');
}

/**
 * Which database a URL names, for people: the SQLite file's full path, or PostgreSQL's host, port and database without
 * credentials.
 */
export function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) {
    const file = sqliteFileOf(url);
    return file === ':memory:' ? 'an in-memory SQLite database' : `the SQLite database ${path.resolve(file)}`;
  }
  const parsed = new URL(url);
  return `the PostgreSQL database ${parsed.pathname.replace(/^\//, '') || '(default)'} on ${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
}

/**
 * Whether the database a URL names exists already: always for PostgreSQL (the server says otherwise when connecting),
 * the file for SQLite.
 */
export function databaseExists(url: string): boolean {
  if (isPostgresUrl(url)) return true;
  const file = sqliteFileOf(url);
  return file === ':memory:' || fs.existsSync(file);
}
