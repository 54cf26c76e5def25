// The local-file blob store (default): DATA_DIR/textures/ab/<hash>.png, written atomically.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isBlobKey, type BlobStore } from './blob-store.ts';

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
}
