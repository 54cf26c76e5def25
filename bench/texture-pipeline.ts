// Texture pipeline timing: validate, re-encode and store a 2048x1024 PNG cape and 64-frame GIF capes, and build the
// gallery download GIF of each strip (median of 20 runs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { CAPE_MAX_BYTES } from '../src/lib/texture-rules.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { LocalBlobStore } from '../server/storage/local-store.ts';
import { TextureLibrary } from '../server/textures/library/texture-library.ts';
import { processCape, stripToGif, type EncodedTexture } from '../server/textures/pipeline/process.ts';
import { animatedGif } from './gif-fixture.ts';

const RUNS = Number(process.env.RUNS ?? 20);

/** A 2048x1024 PNG with gradients and noise-free detail, under the 500 KB limit. */
async function largePng(): Promise<Buffer> {
  const width = 2048;
  const height = 1024;
  const raw = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      raw[i] = (x >> 3) & 0xff;
      raw[i + 1] = (y >> 2) & 0xff;
      raw[i + 2] = ((x ^ y) >> 5) & 0xff;
      raw[i + 3] = 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The median of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-pipeline-'));
const db = openDatabase(`sqlite:${path.join(dir, 'bench.db')}`);
await migrateToLatest(db);
const library = new TextureLibrary(db, new LocalBlobStore(path.join(dir, 'textures')));

/** Times processCape + storing every output, RUNS times, clearing the store between runs so each run writes. */
async function time(label: string, upload: Buffer): Promise<void> {
  if (upload.length > CAPE_MAX_BYTES) throw new Error(`${label} is ${upload.length} bytes, over the limit`);
  const samples: number[] = [];
  let frames = 1;
  let strip: EncodedTexture | null = null;
  for (let run = 0; run < RUNS; run++) {
    await db.deleteFrom('textures').execute();
    fs.rmSync(path.join(dir, 'textures'), { recursive: true, force: true });
    const started = process.hrtime.bigint();
    const cape = await processCape(upload);
    await library.put(cape.still, 'cape');
    if (cape.strip) await library.put(cape.strip, 'cape-strip');
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    frames = cape.strip?.frames ?? 1;
    strip = cape.strip;
  }
  console.log(
    `${label.padEnd(34)} ${String(upload.length).padStart(7)} bytes, ${String(frames).padStart(2)} frames: median ${median(samples).toFixed(1)} ms, min ${Math.min(...samples).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms`,
  );
  if (!strip) return;
  const builds: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    await stripToGif(strip.bytes);
    builds.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  console.log(
    `${''.padEnd(34)} strip ${strip.width}x${strip.height}, download GIF build: median ${median(builds).toFixed(1)} ms`,
  );
}

try {
  await time('PNG 2048x1024', await largePng());
  await time('GIF 64 frames, 64x32', await animatedGif(64, 64));
  await time('GIF 64 frames, 512x256', await animatedGif(512, 64));
  const big = await animatedGif(2048, 64);
  if (big.length <= CAPE_MAX_BYTES) await time('GIF 64 frames, 2048x1024', big);
  else console.log(`GIF 64 frames, 2048x1024: ${big.length} bytes, over the 500 KB limit, so not a valid upload`);
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
