// Backups of a SQLite site while it runs (`cloakroom backup DIR`): an online copy of the database, the blobs that copy
// refers to, and a manifest. Putting one back is in restore.ts. PostgreSQL sites use pg_dump and pg_restore instead.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { LocalBlobStore, type BlobStore } from '../storage/index.ts';
import { textureBlobKeys } from '../textures/library/texture-library.ts';
import {
  BACKUP_FILES,
  checkIntegrity,
  COPY_CONCURRENCY,
  countRows,
  fileSha256,
  forEachLimited,
  OperatorError,
  sqliteFile,
  type BackupManifest,
} from './backup-files.ts';

/** How many times a backup takes a new database copy when a blob it refers to vanished before it was copied. */
const SNAPSHOT_ATTEMPTS = 5;
/** The texture hashes a database holds. */
function textureHashes(database: SQLite.Database): string[] {
  return (database.prepare('SELECT hash FROM textures ORDER BY hash').all() as Array<{ hash: string }>).map(
    (row) => row.hash,
  );
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
