// The mod API benchmarks' seed: cape PNGs and a SQLite database of players, half of them wearing one.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { migrateToLatest, openDatabase } from '../server/db/database.ts';
import { LocalBlobStore } from '../server/storage/local-store.ts';
import { TextureLibrary } from '../server/textures/library/texture-library.ts';

/** A deterministic pseudo-random byte source, so every run seeds the same textures. */
function randomByteStream(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) & 0xff;
  };
}

/** `count` cape PNGs (256x128) from about 2 KB to 40 KB: a noisy band (it does not compress) over a plain background. */
export async function makeCapes(count: number): Promise<Buffer[]> {
  const width = 256;
  const height = 128;
  const capes: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const next = randomByteStream(i + 1);
    const raw = Buffer.alloc(width * height * 4, 0x40);
    const noisyBytes = Math.round(((1_000 + (34_000 * i) / Math.max(1, count - 1)) * 4) / 3);
    for (let offset = 0; offset < raw.length; offset += 4) {
      raw[offset + 3] = 255;
      if (offset < noisyBytes) for (let channel = 0; channel < 3; channel++) raw[offset + channel] = next();
    }
    capes.push(
      await sharp(raw, { raw: { width, height, channels: 4 } })
        .png()
        .toBuffer(),
    );
  }
  return capes;
}

/** Migrates a fresh SQLite database, registers the capes (blob store and `textures` rows) and inserts `players` players
 * with random uuids: half with a cape, a quarter also with ears (from the same capes). Returns the uuids and hashes. */
export async function seed(dataDir: string, databaseFile: string, players: number, capes: Buffer[]): Promise<{ uuids: string[]; hashes: string[] }> {
  const db = openDatabase(`sqlite:${databaseFile}`);
  await migrateToLatest(db);
  const library = new TextureLibrary(db, new LocalBlobStore(path.join(dataDir, 'textures')));
  const hashes: string[] = [];
  for (const bytes of capes) {
    const hash = createHash('sha256').update(bytes).digest('hex');
    hashes.push(await library.put({ bytes, hash, width: 256, height: 128, frames: 1 }, 'cape'));
  }
  await db.destroy();

  const sqlite = new SQLite(databaseFile);
  const insert = sqlite.prepare('INSERT INTO users (uuid, username, username_lower, created_at, cape_hash, ears_hash) VALUES (?, ?, ?, ?, ?, ?)');
  const uuids: string[] = [];
  const now = Date.now();
  sqlite.transaction(() => {
    for (let i = 0; i < players; i++) {
      const uuid = randomBytes(16).toString('hex');
      uuids.push(uuid);
      const hash = (offset: number) => hashes[(i + offset) % hashes.length]!;
      insert.run(uuid, `Player${i}`, `player${i}`, now, i % 2 === 0 ? hash(0) : null, i % 4 === 0 ? hash(1) : null);
    }
  })();
  sqlite.close();
  return { uuids, hashes };
}
