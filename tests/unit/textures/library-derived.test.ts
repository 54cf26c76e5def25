// TextureLibrary.derived (server/textures/library/texture-library.ts): an image rendered from a texture is built once,
// shared by concurrent callers, kept in the blob store and removed with its texture.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import { LocalBlobStore } from '../../../server/storage/local-store.ts';
import { derivedKey, TextureLibrary } from '../../../server/textures/library/texture-library.ts';
import { sha256 } from '../../../server/textures/pipeline/process.ts';

let root: string;
let db: Db;
let library: TextureLibrary;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-library-'));
  db = openDatabase(`sqlite:${path.join(root, 'test.db')}`);
  await migrateToLatest(db);
  library = new TextureLibrary(db, new LocalBlobStore(path.join(root, 'textures')));
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Stores a texture nothing refers to yet (release then removes it). */
async function storeTexture(text: string): Promise<string> {
  const bytes = Buffer.from(text);
  return library.put({ bytes, hash: sha256(bytes), width: 64, height: 32, frames: 1 }, 'gallery');
}

describe('TextureLibrary.derived', () => {
  it('builds once for concurrent callers, keeps the result and serves it from the store afterwards', async () => {
    const hash = await storeTexture('strip pixels');
    let builds = 0;
    const build = async (texture: Buffer) => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return Buffer.concat([Buffer.from('GIF of '), texture]);
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => library.derived(hash, 'gif', build)));
    expect(builds).toBe(1);
    for (const answer of answers) expect(answer?.toString()).toBe('GIF of strip pixels');
    expect((await library.store.get(derivedKey(hash, 'gif')))?.toString()).toBe('GIF of strip pixels');
    expect((await library.derived(hash, 'gif', build))?.toString()).toBe('GIF of strip pixels');
    expect(builds).toBe(1);
  });

  it('answers null for a texture that is gone, and lets a failed build be tried again', async () => {
    expect(await library.derived(sha256(Buffer.from('never stored')), 'gif', async () => Buffer.from('x'))).toBeNull();
    const hash = await storeTexture('flaky');
    await expect(library.derived(hash, 'gif', async () => Promise.reject(new Error('render failed')))).rejects.toThrow(
      'render failed',
    );
    expect((await library.derived(hash, 'gif', async () => Buffer.from('second try')))?.toString()).toBe('second try');
  });

  it('removes the kept images with their texture', async () => {
    const hash = await storeTexture('released');
    await library.derived(hash, 'gif', async () => Buffer.from('gif'));
    await library.derived(hash, 'preview', async () => Buffer.from('preview'));
    await library.release([hash]);
    expect(await library.store.has(derivedKey(hash, 'gif'))).toBe(false);
    expect(await library.store.has(derivedKey(hash, 'preview'))).toBe(false);
    expect(await library.read(hash)).toBeNull();
  });
});
