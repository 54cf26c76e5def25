// What writing a backup and putting one back share: the files of a backup directory and its manifest, the SQLite file
// they work on, the refusals they print, the checks of a database copy, and reading a finished backup back.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { isPostgresUrl } from '../db/dialect.ts';
import { sqliteFileOf } from '../db/database.ts';

/** The files of a backup directory. */
export const BACKUP_FILES = { database: 'cloakroom.db', textures: 'textures', manifest: 'manifest.json' } as const;

/** What the backup and restore commands say about a PostgreSQL database. */
export const POSTGRES_BACKUP_MESSAGE =
  'DATABASE_URL is a PostgreSQL database: back it up with pg_dump and put it back with pg_restore, e.g.\n' +
  '  pg_dump --format=custom --file=cloakroom.dump "$DATABASE_URL"\n' +
  '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" cloakroom.dump\n' +
  'and keep the blobs with the S3 bucket\'s versioning (README, "Operations: backups").';

/** Blobs copied at the same time (an S3 store answers each over the network). */
export const COPY_CONCURRENCY = 8;

/** The manifest written last into a backup directory: a directory without one holds no finished backup. */
export interface BackupManifest {
  format: 1;
  /** When the database copy was taken (ISO 8601): the backup holds the site as it was then. */
  createdAt: string;
  database: {
    file: string;
    bytes: number;
    sha256: string;
    players: number;
    textures: number;
    galleryItems: number;
    lastMigration: string | null;
  };
  blobs: { directory: string; count: number; bytes: number; store: 'local' | 's3' };
  /** Texture blobs the database refers to that were not in the store (0 in a sound backup). */
  missingBlobs: string[];
}

/** A refusal or failure to print as it is (exit code 1), as opposed to a bug. */
export class OperatorError extends Error {}

/** The SQLite file of a database URL (`sqlite:<file>` or a bare path); refuses PostgreSQL and in-memory databases. */
export function sqliteFile(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) throw new OperatorError(POSTGRES_BACKUP_MESSAGE);
  const file = sqliteFileOf(databaseUrl);
  if (file === ':memory:')
    throw new OperatorError('DATABASE_URL is an in-memory database: there is nothing to back up or restore.');
  return path.resolve(file);
}

/** Runs `work` on each item with at most `limit` at a time. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A count of a table's rows. */
export function countRows(database: SQLite.Database, table: string): number {
  return (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** The SHA-256 of a file, as hex. */
export function fileSha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** `PRAGMA integrity_check` of a database file; throws unless it says ok. */
export function checkIntegrity(file: string): void {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const result = database.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new OperatorError(`${file} fails SQLite's integrity check: ${String(result)}`);
  } finally {
    database.close();
  }
}

/** Reads and checks a backup directory's manifest and database file. */
export function readBackup(directory: string): BackupManifest {
  const manifestFile = path.join(directory, BACKUP_FILES.manifest);
  if (!fs.existsSync(manifestFile))
    throw new OperatorError(`${directory} holds no finished backup (no ${BACKUP_FILES.manifest}).`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== 1)
    throw new OperatorError(`${manifestFile} is of an unknown format (${String(manifest.format)}).`);
  const databaseFile = path.join(directory, manifest.database.file);
  if (!fs.existsSync(databaseFile) || fileSha256(databaseFile) !== manifest.database.sha256) {
    throw new OperatorError(`${databaseFile} is missing or not the file the manifest describes.`);
  }
  checkIntegrity(databaseFile);
  return manifest;
}
