// Putting a backup of a SQLite site back (`cloakroom restore DIR`): its blobs into the store, then its database in place
// of the site's, refused while the server runs or, without --force, when the site holds data.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { LocalBlobStore, type BlobStore } from '../storage/index.ts';
import {
  COPY_CONCURRENCY,
  countRows,
  forEachLimited,
  OperatorError,
  readBackup,
  sqliteFile,
  type BackupManifest,
} from './backup-files.ts';

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
