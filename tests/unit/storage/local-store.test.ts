// LocalBlobStore in a temp directory: round trips, misses, deletes, key checks, atomic writes, sharding, listing and
// partial writes.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../../server/storage/local-store.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under a directory, as paths relative to it. */
function listFiles(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

let root: string;
let store: LocalBlobStore;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-local-store-'));
  store = new LocalBlobStore(path.join(root, 'textures'));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('LocalBlobStore', () => {
  it('returns the identical bytes it stored', async () => {
    const bytes = randomBytes(100_000);
    const key = sha256(bytes);
    await store.put(key, bytes);
    expect((await store.get(key))!.equals(bytes)).toBe(true);
  });

  it('reports whether a key exists', async () => {
    const bytes = randomBytes(64);
    const key = sha256(bytes);
    expect(await store.has(key)).toBe(false);
    await store.put(key, bytes);
    expect(await store.has(key)).toBe(true);
  });

  it('returns null for a missing key', async () => {
    expect(await store.get(sha256(randomBytes(16)))).toBeNull();
  });

  it('deletes a key, and deleting it again or deleting a missing key is harmless', async () => {
    const bytes = randomBytes(64);
    const key = sha256(bytes);
    await store.put(key, bytes);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    expect(await store.has(key)).toBe(false);
    await expect(store.delete(key)).resolves.toBeUndefined();
    await expect(store.delete(sha256(randomBytes(16)))).resolves.toBeUndefined();
  });

  it('accepts the same key twice', async () => {
    const bytes = randomBytes(64);
    const key = sha256(bytes);
    await store.put(key, bytes);
    await store.put(key, bytes);
    expect((await store.get(key))!.equals(bytes)).toBe(true);
    expect(listFiles(root)).toEqual([`textures/${key.slice(0, 2)}/${key}.png`]);
  });

  it('refuses keys that are not SHA-256 hex, and writes nothing for them', async () => {
    const good = sha256(Buffer.from('x'));
    const bad = ['', 'abc', good.toUpperCase(), `${good}0`, `../${good.slice(3)}`, `ab/../../${good.slice(9)}`];
    for (const key of bad) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Not a blob key/);
      await expect(store.get(key)).rejects.toThrow(/Not a blob key/);
      await expect(store.delete(key)).rejects.toThrow(/Not a blob key/);
      await expect(store.has(key)).rejects.toThrow(/Not a blob key/);
    }
    expect(listFiles(root)).toEqual([]);
  });

  it('leaves no .tmp files behind after puts', async () => {
    const blobs = Array.from({ length: 20 }, () => randomBytes(4096));
    await Promise.all(blobs.map((bytes) => store.put(sha256(bytes), bytes)));
    // The same key written concurrently several times must also end as one complete file.
    const same = randomBytes(50_000);
    await Promise.all(Array.from({ length: 5 }, () => store.put(sha256(same), same)));
    const files = listFiles(root);
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
    expect(files).toHaveLength(21);
    expect((await store.get(sha256(same)))!.equals(same)).toBe(true);
  });

  it('shards files as <first two hex>/<hash>.png', async () => {
    const bytes = randomBytes(64);
    const key = sha256(bytes);
    await store.put(key, bytes);
    const file = path.join(root, 'textures', key.slice(0, 2), `${key}.png`);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(listFiles(path.join(root, 'textures'))).toEqual([`${key.slice(0, 2)}/${key}.png`]);
  });

  it('lists every stored key with its write time, and nothing else in the directory', async () => {
    const blobs = [randomBytes(64), randomBytes(64)];
    for (const bytes of blobs) await store.put(sha256(bytes), bytes);
    const key = sha256(blobs[0]!);
    const shard = path.join(root, 'textures', key.slice(0, 2));
    const hourAgo = Date.now() - 3_600_000;
    fs.utimesSync(path.join(shard, `${key}.png`), hourAgo / 1000, hourAgo / 1000);
    fs.writeFileSync(path.join(shard, `${key}.png.0123456789ab.tmp`), 'partial');
    fs.writeFileSync(path.join(shard, 'notes.txt'), 'not a blob');
    fs.writeFileSync(path.join(root, 'textures', `${key}.png`), 'not in its shard');
    fs.mkdirSync(path.join(root, 'textures', 'zz'));
    fs.writeFileSync(path.join(root, 'textures', 'zz', `${sha256(Buffer.from('z'))}.png`), 'wrong shard');

    const listed = [];
    for await (const blob of store.list()) listed.push(blob);
    expect(listed.map((blob) => blob.key).sort()).toEqual(blobs.map(sha256).sort());
    expect(Math.round(listed.find((blob) => blob.key === key)!.modifiedAt / 1000)).toBe(Math.round(hourAgo / 1000));
  });

  it('lists nothing before the first write', async () => {
    const listed = [];
    for await (const blob of store.list()) listed.push(blob);
    expect(listed).toEqual([]);
    expect(await store.removePartialWrites(Date.now())).toEqual([]);
  });

  it('removes the temporary files of writes cut short before a time, and nothing else', async () => {
    const bytes = randomBytes(64);
    const key = sha256(bytes);
    await store.put(key, bytes);
    const shard = key.slice(0, 2);
    const old = `${shard}/${key}.png.0123456789ab.tmp`;
    const recent = `${shard}/${key}.png.ba9876543210.tmp`;
    for (const name of [old, recent]) fs.writeFileSync(path.join(root, 'textures', name), 'partial');
    const hourAgo = Date.now() - 3_600_000;
    for (const name of [old, `${shard}/${key}.png`])
      fs.utimesSync(path.join(root, 'textures', name), hourAgo / 1000, hourAgo / 1000);

    expect(await store.removePartialWrites(Date.now() - 60_000)).toEqual([old]);
    expect(listFiles(path.join(root, 'textures'))).toEqual([`${shard}/${key}.png`, recent]);
    expect((await store.get(key))!.equals(bytes)).toBe(true);
  });
});
