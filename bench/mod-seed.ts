// The mod API benchmarks' seed: cape PNGs and a SQLite database of players, half of them (or a share given) wearing
// one.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
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

/**
 * `count` cape PNGs (256x128) from about 2 KB to 40 KB: a noisy band (it does not compress) over a plain background.
 */
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

/** Which share of the seeded players wear a cape and which also have ears (each spread evenly over the players). */
export interface SeedShares {
  cape: number;
  ears: number;
}

/** A seeded player who wears a cape: their uuid, name as registered and the cape's hash. */
export interface SeededWearer {
  uuid: string;
  name: string;
  hash: string;
}

/**
 * Whether player `i` is one of `share` of the players, spread evenly (every other one for 0.5, every tenth for 0.1,
 * player 0 always).
 */
const inShare = (i: number, share: number) => Math.floor(i * share) !== Math.floor((i - 1) * share);

/** Migrates a fresh SQLite database, registers the capes (blob store and `textures` rows) and inserts `players` players
 * with random uuids: by default half with a cape, a quarter also with ears (from the same capes). Returns the uuids,
 * the hashes and the players who wear a cape. */
export async function seed(
  dataDir: string,
  databaseFile: string,
  players: number,
  capes: Buffer[],
  shares: SeedShares = { cape: 0.5, ears: 0.25 },
): Promise<{ uuids: string[]; hashes: string[]; wearers: SeededWearer[] }> {
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
  // A large page cache while a million random keys go into the indexes (the server keeps its own setting).
  sqlite.pragma('cache_size = -262144');
  const insert = sqlite.prepare(
    'INSERT INTO users (uuid, username, username_lower, created_at, cape_hash, ears_hash) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const uuids: string[] = [];
  const wearers: SeededWearer[] = [];
  const now = Date.now();
  // Random bytes a block at a time: one call per 4,096 uuids instead of one per player.
  let random = Buffer.alloc(0);
  sqlite.transaction(() => {
    for (let i = 0; i < players; i++) {
      if (i % 4096 === 0) random = randomBytes(16 * 4096);
      const uuid = random.toString('hex', (i % 4096) * 16, (i % 4096) * 16 + 16);
      uuids.push(uuid);
      const hash = (offset: number) => hashes[(i + offset) % hashes.length]!;
      const cape = inShare(i, shares.cape) ? hash(0) : null;
      const name = `Player${i}`;
      if (cape) wearers.push({ uuid, name, hash: cape });
      insert.run(uuid, name, name.toLowerCase(), now, cape, inShare(i, shares.ears) ? hash(1) : null);
    }
  })();
  sqlite.close();
  return { uuids, hashes, wearers };
}
