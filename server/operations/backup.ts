// Backups of a SQLite site while it runs (`cloakroom backup DIR`): an online copy of the database, the blobs that copy
// refers to, and a manifest; and putting one back (`cloakroom restore DIR`). PostgreSQL sites use pg_dump and
// pg_restore instead.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { isPostgresUrl } from '../db/dialect.ts';
import { sqliteFileOf } from '../db/database.ts';
import { LocalBlobStore, type BlobStore } from '../storage/index.ts';
import { textureBlobKeys } from '../textures/library/texture-library.ts';

/** The files of a backup directory. */
export const BACKUP_FILES = { database: 'cloakroom.db', textures: 'textures', manifest: 'manifest.json' } as const;

/** What the backup and restore commands say about a PostgreSQL database. */
export const POSTGRES_BACKUP_MESSAGE =
  'DATABASE_URL is a PostgreSQL database: back it up with pg_dump and put it back with pg_restore, e.g.\n' +
  '  pg_dump --format=custom --file=cloakroom.dump "$DATABASE_URL"\n' +
  '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" cloakroom.dump\n' +
  'and keep the blobs with the S3 bucket\'s versioning (README, "Operations: backups").';

/** How many times a backup takes a new database copy when a blob it refers to vanished before it was copied. */
const SNAPSHOT_ATTEMPTS = 5;
/** Blobs copied at the same time (an S3 store answers each over the network). */
const COPY_CONCURRENCY = 8;

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
async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The texture hashes a database holds. */
function textureHashes(database: SQLite.Database): string[] {
  return (database.prepare('SELECT hash FROM textures ORDER BY hash').all() as Array<{ hash: string }>).map(
    (row) => row.hash,
  );
}

/** A count of a table's rows. */
function countRows(database: SQLite.Database, table: string): number {
  return (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** The SHA-256 of a file, as hex. */
function fileSha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** `PRAGMA integrity_check` of a database file; throws unless it says ok. */
function checkIntegrity(file: string): void {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const result = database.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new OperatorError(`${file} fails SQLite's integrity check: ${String(result)}`);
  } finally {
    database.close();
  }
}

/**
 * Copies the live database into `target` with SQLite's online backup, all pages in one step: one read transaction, so
 * the copy is the database at one moment, and writers (WAL) go on meanwhile. The copy is switched to a rollback journal
 * so that it is one self-contained file.
 */
async function snapshotDatabase(source: string, target: string): Promise<void> {
  fs.rmSync(target, { force: true });
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(target, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const copy = new SQLite(target);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/**
 * Copies blobs from a store into the backup's directory store, skipping those already there; returns the keys the store
 * did not have.
 */
async function copyBlobs(
  keys: readonly string[],
  from: BlobStore,
  into: LocalBlobStore,
  copied: Set<string>,
): Promise<string[]> {
  const absent: string[] = [];
  await forEachLimited(
    keys.filter((key) => !copied.has(key)),
    COPY_CONCURRENCY,
    async (key) => {
      const bytes = await from.get(key);
      if (!bytes) return void absent.push(key);
      await into.put(key, bytes);
      copied.add(key);
    },
  );
  return absent.sort();
}

/** What a backup wrote, for the CLI to print. */
export interface BackupResult {
  manifest: BackupManifest;
  /** Database copies taken (more than 1 when a blob vanished between a copy and its blobs). */
  snapshots: number;
}

/**
 * Backs up a SQLite site into `directory` (created; it must be empty): the database, every blob its textures own, then
 * the manifest. Blobs are copied twice over: first those the live database owns (the bulk, before the copy is taken),
 * then the ones only the copy owns. A blob written after the copy is not needed by it (the sweep removes it later if it
 * stays unowned); a blob the copy owns never changes its bytes (the key is their hash), but it may be deleted before it
 * is copied, when its texture was released in between: then a new database copy is taken, which no longer owns it.
 */
export async function backupSite(options: {
  databaseUrl: string;
  store: BlobStore;
  storeKind: 'local' | 's3';
  directory: string;
}): Promise<BackupResult> {
  const source = sqliteFile(options.databaseUrl);
  if (!fs.existsSync(source)) throw new OperatorError(`There is no database at ${source}.`);
  const directory = path.resolve(options.directory);
  if (fs.existsSync(directory) && fs.readdirSync(directory).length > 0)
    throw new OperatorError(`${directory} is not empty: back up into a new directory.`);
  fs.mkdirSync(directory, { recursive: true });
  const databaseCopy = path.join(directory, BACKUP_FILES.database);
  const into = new LocalBlobStore(path.join(directory, BACKUP_FILES.textures));
  const copied = new Set<string>();

  // The bulk of the blobs, while the server goes on writing.
  const live = new SQLite(source, { fileMustExist: true });
  let liveKeys: string[];
  try {
    liveKeys = textureHashes(live).flatMap(textureBlobKeys);
  } finally {
    live.close();
  }
  await copyBlobs(liveKeys, options.store, into, copied);

  // A database copy, then the blobs it owns that the first pass did not copy; texture bytes that vanished meanwhile are
  // missing.
  const snapshotWithBlobs = async () => {
    await snapshotDatabase(source, databaseCopy);
    const createdAt = new Date().toISOString();
    const copy = new SQLite(databaseCopy, { readonly: true });
    let hashes: string[];
    try {
      hashes = textureHashes(copy);
    } finally {
      copy.close();
    }
    // Rendered images (previews, maps, GIFs) are made again when missing; a texture's own bytes are not.
    const absent = await copyBlobs(hashes.flatMap(textureBlobKeys), options.store, into, copied);
    const hashSet = new Set(hashes);
    return {
      createdAt,
      owned: new Set(hashes.flatMap(textureBlobKeys)),
      missing: absent.filter((key) => hashSet.has(key)),
    };
  };
  let snapshots = 1;
  let snapshot = await snapshotWithBlobs();
  while (snapshot.missing.length > 0 && snapshots < SNAPSHOT_ATTEMPTS) {
    snapshots++;
    snapshot = await snapshotWithBlobs();
  }
  const { createdAt, owned, missing } = snapshot;
  // Blobs copied before the last database copy that it does not own are left out.
  for (const key of copied) if (!owned.has(key)) await into.delete(key);

  checkIntegrity(databaseCopy);
  const copy = new SQLite(databaseCopy, { readonly: true });
  let manifest: BackupManifest;
  try {
    let count = 0;
    let bytes = 0;
    for await (const blob of into.list()) {
      count++;
      bytes += fs.statSync(path.join(directory, BACKUP_FILES.textures, blob.key.slice(0, 2), `${blob.key}.png`)).size;
    }
    const migration = copy.prepare('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1').get() as
      { name: string } | undefined;
    manifest = {
      format: 1,
      createdAt,
      database: {
        file: BACKUP_FILES.database,
        bytes: fs.statSync(databaseCopy).size,
        sha256: fileSha256(databaseCopy),
        players: countRows(copy, 'users'),
        textures: countRows(copy, 'textures'),
        galleryItems: countRows(copy, 'gallery_items'),
        lastMigration: migration?.name ?? null,
      },
      blobs: { directory: BACKUP_FILES.textures, count, bytes, store: options.storeKind },
      missingBlobs: missing,
    };
  } finally {
    copy.close();
  }
  fs.writeFileSync(path.join(directory, BACKUP_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, snapshots };
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

/**
 * The ids of other processes that have one of the files open (Linux: /proc/<pid>/fd; processes of other users are not
 * seen).
 */
export function processesUsing(files: readonly string[]): number[] {
  if (!fs.existsSync('/proc/self/fd')) return [];
  const targets = new Set(files);
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let descriptors: string[];
    try {
      descriptors = fs.readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${entry}/fd/${descriptor}`);
      } catch {
        continue;
      }
      if (targets.has(target)) {
        found.push(Number(entry));
        break;
      }
    }
  }
  return found;
}

/** Whether a Cloakroom server answers on a port of this machine (its API answers JSON, in maintenance mode too). */
export async function serverAnswersOn(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/home`, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return (response.headers.get('content-type') ?? '').startsWith('application/json');
  } catch {
    return false;
  }
}

/** What a database file holds, or null when there is none. */
function describeDatabase(file: string): { players: number; textures: number } | null {
  if (!fs.existsSync(file)) return null;
  const database = new SQLite(file);
  try {
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('users', 'textures')")
      .all();
    if (tables.length < 2) return { players: 0, textures: 0 };
    return { players: countRows(database, 'users'), textures: countRows(database, 'textures') };
  } finally {
    database.close();
  }
}

/** How many blobs a store holds, counting up to `limit`. */
async function countBlobs(store: BlobStore, limit = Infinity): Promise<number> {
  let count = 0;
  for await (const _blob of store.list()) if (++count >= limit) break;
  return count;
}

/** What a restore did, for the CLI to print. */
export interface RestoreResult {
  manifest: BackupManifest;
  /** Blobs written into the store, and those it already had. */
  blobsWritten: number;
  blobsPresent: number;
  /** What the target held before: its database (null when there was none) and its blob count. */
  replaced: { database: { players: number; textures: number } | null; blobs: number };
}

/**
 * Puts a backup back: its blobs into the store, then its database in place of the configured SQLite file (the old
 * file's `-wal` and `-shm` go with it). Refuses while a process has the database open or a server answers on `port`,
 * and when the target holds data, unless `force`. Blobs the store has that the backup does not stay (unowned, swept
 * later).
 */
export async function restoreSite(options: {
  databaseUrl: string;
  store: BlobStore;
  directory: string;
  port: number;
  force: boolean;
}): Promise<RestoreResult> {
  const target = sqliteFile(options.databaseUrl);
  const directory = path.resolve(options.directory);
  const manifest = readBackup(directory);

  fs.mkdirSync(path.dirname(target), { recursive: true });
  const targetFiles = ['', '-wal', '-shm'].map(
    (suffix) => path.join(fs.realpathSync(path.dirname(target)), path.basename(target)) + suffix,
  );
  const holders = processesUsing(targetFiles);
  if (holders.length > 0) {
    throw new OperatorError(
      `The database ${target} is open in process ${holders.join(', ')}: the server seems to be running. Stop it first.`,
    );
  }
  if (await serverAnswersOn(options.port)) {
    throw new OperatorError(
      `A Cloakroom server answers on port ${options.port}: the server seems to be running. Stop it first.`,
    );
  }

  const database = describeDatabase(target);
  const blobs = await countBlobs(options.store, options.force ? Infinity : 1);
  const hasData = (database !== null && database.players + database.textures > 0) || blobs > 0;
  if (hasData && !options.force) {
    const held = database
      ? `a database with ${database.players} players and ${database.textures} textures`
      : 'no database';
    throw new OperatorError(
      `The target holds data (${held}, ${blobs > 0 ? 'blobs in the store' : 'no blobs'}). Add --force to replace it.`,
    );
  }

  // Blobs first, so that the database never refers to a blob that is not there yet.
  const backupStore = new LocalBlobStore(path.join(directory, manifest.blobs.directory));
  const keys: string[] = [];
  for await (const blob of backupStore.list()) keys.push(blob.key);
  let blobsWritten = 0;
  let blobsPresent = 0;
  await forEachLimited(keys, COPY_CONCURRENCY, async (key) => {
    if (await options.store.has(key)) {
      blobsPresent++;
      return;
    }
    const bytes = await backupStore.get(key);
    if (!bytes) throw new OperatorError(`The backup's blob ${key} could not be read.`);
    await options.store.put(key, bytes);
    blobsWritten++;
  });

  const incoming = `${target}.restore-${randomBytes(4).toString('hex')}`;
  fs.copyFileSync(path.join(directory, manifest.database.file), incoming);
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(target + suffix, { force: true });
  fs.renameSync(incoming, target);
  return { manifest, blobsWritten, blobsPresent, replaced: { database, blobs } };
}
