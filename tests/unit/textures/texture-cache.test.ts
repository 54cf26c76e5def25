// The mod API's texture cache (server/textures/library/cache.ts) and the library reading through it: bounded by bytes,
// and a released texture stops being served (at once in this process, after the re-check interval for another process's
// release).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import { LocalBlobStore } from '../../../server/storage/local-store.ts';
import { TextureLibrary } from '../../../server/textures/library/texture-library.ts';
import { TextureCache } from '../../../server/textures/library/cache.ts';

/** A texture of `size` bytes, different for every `seed`, with its hash as the library keys it. */
function texture(seed: number, size = 100) {
  const bytes = Buffer.alloc(size, seed);
  bytes.writeUInt32BE(seed, 0);
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex'), width: 64, height: 32, frames: 1 };
}

describe('TextureCache', () => {
  it('keeps at most maxBytes, dropping the least recently used first', () => {
    const cache = new TextureCache(1_000);
    const [a, b, c] = [texture(1, 400), texture(2, 400), texture(3, 400)];
    cache.set(a.hash, a.bytes);
    cache.set(b.hash, b.bytes);
    expect(cache.get(a.hash)?.bytes, 'a is used again, so b is now the oldest').toBe(a.bytes);
    cache.set(c.hash, c.bytes);
    expect(cache.size).toBe(800);
    expect(cache.get(b.hash)).toBeNull();
    expect(cache.get(a.hash)?.bytes).toBe(a.bytes);
    expect(cache.get(c.hash)?.bytes).toBe(c.bytes);
  });

  it('does not keep a texture larger than the whole budget, and keeps nothing with a budget of 0', () => {
    const cache = new TextureCache(1_000);
    const small = texture(4, 300);
    cache.set(small.hash, small.bytes);
    const large = texture(5, 1_001);
    cache.set(large.hash, large.bytes);
    expect(cache.get(large.hash)).toBeNull();
    expect(cache.get(small.hash)?.bytes, 'a refused texture evicts nothing').toBe(small.bytes);

    const none = new TextureCache(0);
    none.set(small.hash, small.bytes);
    expect(none.get(small.hash)).toBeNull();
    expect(none.size).toBe(0);
  });

  it('says an entry is due for a check once the re-check interval has passed', () => {
    const cache = new TextureCache(1_000, 60_000);
    const a = texture(6);
    cache.set(a.hash, a.bytes, 1_000);
    expect(cache.get(a.hash, 60_999)?.fresh).toBe(true);
    expect(cache.get(a.hash, 61_000)?.fresh).toBe(false);
  });
});

describe('TextureLibrary with a texture cache', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-texture-cache-'));
    db = openDatabase(`sqlite:${path.join(dir, 'cloakroom.db')}`);
    await migrateToLatest(db);
  });

  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A library on the shared database whose blob reads are counted. */
  function countingLibrary(cache: TextureCache) {
    const store = new LocalBlobStore(path.join(dir, 'textures'));
    const reads = { count: 0 };
    const get = store.get.bind(store);
    store.get = async (key) => {
      reads.count += 1;
      return get(key);
    };
    return { library: new TextureLibrary(db, store, cache), reads };
  }

  it('reads the blob once, then serves the bytes from memory', async () => {
    const { library, reads } = countingLibrary(new TextureCache(10_000));
    const a = texture(10);
    await library.put(a, 'cape');
    for (let i = 0; i < 3; i++) expect((await library.readRegistered(a.hash))?.equals(a.bytes)).toBe(true);
    expect(reads.count).toBe(1);
  });

  it('stops serving a released texture at once, though it was cached', async () => {
    const { library } = countingLibrary(new TextureCache(10_000));
    const a = texture(11);
    await library.put(a, 'cape');
    expect(await library.readRegistered(a.hash)).not.toBeNull();
    await library.release([a.hash]);
    expect(await library.readRegistered(a.hash)).toBeNull();
  });

  it("stops serving a texture another process released once the entry's re-check is due", async () => {
    const cache = new TextureCache(10_000, 60_000);
    const { library } = countingLibrary(cache);
    const other = new TextureLibrary(db, new LocalBlobStore(path.join(dir, 'textures')));
    const a = texture(12);
    await library.put(a, 'cape');
    const now = Date.now();
    expect(await library.readRegistered(a.hash, now)).not.toBeNull();
    await other.release([a.hash]);
    expect(
      await library.readRegistered(a.hash, now + 59_000),
      'within the re-check interval the cached bytes are served',
    ).not.toBeNull();
    expect(await library.readRegistered(a.hash, now + 61_000)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('keeps serving a cached texture that is still registered after the re-check, without reading the blob again', async () => {
    const { library, reads } = countingLibrary(new TextureCache(10_000, 60_000));
    const a = texture(13);
    await library.put(a, 'cape');
    const now = Date.now();
    await library.readRegistered(a.hash, now);
    expect((await library.readRegistered(a.hash, now + 61_000))?.equals(a.bytes)).toBe(true);
    expect(reads.count).toBe(1);
  });

  it('does not cache bytes read while the texture was being released', async () => {
    const cache = new TextureCache(10_000);
    const store = new LocalBlobStore(path.join(dir, 'textures'));
    const library = new TextureLibrary(db, store, cache);
    const a = texture(14);
    await library.put(a, 'cape');
    // The blob read of a request is slow; the texture is released meanwhile.
    let releaseDone: Promise<unknown> = Promise.resolve();
    const get = store.get.bind(store);
    store.get = async (key) => {
      const bytes = await get(key);
      releaseDone = library.release([a.hash]);
      await releaseDone;
      return bytes;
    };
    await library.readRegistered(a.hash);
    await releaseDone;
    store.get = get;
    expect(cache.get(a.hash)).toBeNull();
    expect(await library.readRegistered(a.hash)).toBeNull();
  });
});
