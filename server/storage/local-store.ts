// The local-file blob store (default): DATA_DIR/textures/ab/<hash>.png, written atomically.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts';
import { TEXTURE_HASH_PATTERN } from '../../src/lib/ids.ts';

/** A stored blob's file name: `<key>.png`. */
const BLOB_FILE = new RegExp(`^(${TEXTURE_HASH_PATTERN})\\.png$`);
/** The file `put` writes before renaming it into place: `<key>.png.<12 hex>.tmp`. */
const PARTIAL_FILE = new RegExp(`^${TEXTURE_HASH_PATTERN}\\.png\\.[0-9a-f]{12}\\.tmp$`);
const SHARD = /^[0-9a-f]{2}$/;

/** The names in a directory; none when it does not exist (yet, or any more). */
async function namesIn(directory: string): Promise<string[]> {
  try {
    return await fs.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** When a file was last written, or null when it is gone. */
async function modifiedAt(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Stores blobs as files under a directory, two-level sharded by the key's first two characters. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!isBlobKey(key)) throw new Error(`Not a blob key: ${key}`);
    return path.join(this.root, key.slice(0, 2), `${key}.png`);
  }

  /** Writes to a temporary file, then renames it into place, so a reader never sees half a file. */
  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, target);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    const file = this.file(key);
    try {
      await fs.access(file);
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  /** The files in the shard directories whose names match a pattern, as paths relative to the root. */
  private async *filesMatching(pattern: RegExp): AsyncGenerator<string> {
    for (const shard of (await namesIn(this.root)).filter((name) => SHARD.test(name)).sort()) {
      for (const name of (await namesIn(path.join(this.root, shard))).sort()) {
        if (pattern.test(name) && name.startsWith(shard)) yield path.join(shard, name);
      }
    }
  }

  async *list(): AsyncGenerator<StoredBlob> {
    for await (const relative of this.filesMatching(BLOB_FILE)) {
      const written = await modifiedAt(path.join(this.root, relative));
      if (written !== null) yield { key: BLOB_FILE.exec(path.basename(relative))![1]!, modifiedAt: written };
    }
  }

  /**
   * Makes sure the directory exists (a fresh install has none until the first upload) and that the process may read and
   * write it.
   */
  async probe(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }

  /** Removes the temporary files of writes that never got renamed into place (a process killed mid-write). */
  async removePartialWrites(before: number): Promise<string[]> {
    const removed: string[] = [];
    for await (const relative of this.filesMatching(PARTIAL_FILE)) {
      const written = await modifiedAt(path.join(this.root, relative));
      if (written === null || written >= before) continue;
      await fs.rm(path.join(this.root, relative), { force: true });
      removed.push(relative.split(path.sep).join('/'));
    }
    return removed;
  }
}
