// Cape creators' timing: each generator's drawing alone and the whole creation step (drawing, the texture pipeline,
// blocklist probes and the 320x180 preview) at the sizes it makes, median and p95 of RUNS runs in this process; then a
// repeated request answered from the creation cache (settings key, one database lookup) against the first request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { upsertUser } from '../server/db/users.ts';
import { LocalBlobStore } from '../server/storage/local-store.ts';
import { decodeBannerCode } from '../server/textures/generators/banner/codes.ts';
import { renderBanner } from '../server/textures/generators/banner/render.ts';
import { Creations, type Made } from '../server/creators/creations.ts';
import type { Refused } from '../src/lib/refusals.ts';
import { drawCreation, makeCreation, type CreationRequest } from '../server/textures/generators/index.ts';
import { designColours } from '../server/textures/generators/optifine-cape.ts';
import { drawPromptPattern } from '../server/textures/generators/prompt-pattern.ts';
import { ImageJobs } from '../server/textures/image-work/image-jobs.ts';
import { TextureIntake } from '../server/textures/intake/intake.ts';
import { TextureLibrary } from '../server/textures/library/texture-library.ts';
import { animatedGif } from './gif-fixture.ts';

const RUNS = Number(process.env.RUNS ?? 20);

/** The value at a quantile of numbers. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Times an async step RUNS times (after one warm-up run) and returns the samples in ms. */
async function sample(step: () => Promise<unknown>): Promise<number[]> {
  await step();
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    await step();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples;
}

/** A creation the bench made; a refusal of it ends the bench. */
async function madeOrThrow(making: Promise<Made | Refused>): Promise<Made> {
  const made = await making;
  if ('refusal' in made) throw new Error(`The bench creation was refused: ${made.refusal.message}`);
  return made;
}

/** A photo-like 600 x 900 picture: gradients and detail, so resizing has work to do. */
async function photo(): Promise<Buffer> {
  const width = 600;
  const height = 900;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = ((x ^ y) & 0x3f) * 4;
      raw[i + 2] = (y * 255) / height;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A 64 x 64 skin with a face. */
function skin(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 200, g: 150, b: 100, alpha: 1 } } })
    .png()
    .toBuffer();
}

const picture = await photo();
const gif4 = await animatedGif(64, 4);
const gif16 = await animatedGif(64, 16);
const banner = renderBanner(decodeBannerCode('pmc', '2c729cmcf28')!);
const colour = { r: 40, g: 40, b: 40, a: 255 };
const cases: Array<{ label: string; request: CreationRequest }> = [
  {
    label: 'image, scale 1 (64x32)',
    request: { generator: 'image', input: { image: picture, scale: 1, colour: 'auto', elytra: true } },
  },
  {
    label: 'image, scale 6 (2048x1024)',
    request: { generator: 'image', input: { image: picture, scale: 6, colour: 'auto', elytra: true } },
  },
  {
    label: 'animated 16 frames, scale 1',
    request: { generator: 'animated', input: { gif: gif16, background: null, scale: 1, colour, elytra: true } },
  },
  {
    label: 'animated 4 frames, scale 6',
    request: { generator: 'animated', input: { gif: gif4, background: null, scale: 6, colour, elytra: true } },
  },
  {
    label: 'prompt (built-in, 256x128)',
    request: { generator: 'prompt', input: drawPromptPattern('gold star on navy') },
  },
  {
    label: 'banner (256x128)',
    request: { generator: 'banner', input: { banner, top: colour, bottom: colour, alignment: 'top' } },
  },
  {
    label: 'head (128x64)',
    request: {
      generator: 'head',
      input: { skin: await skin(), helmet: true, red: 10, green: 0, blue: -10, brightness: 20 },
    },
  },
  { label: 'optifine design (128x64)', request: { generator: 'optifine', input: designColours('red') } },
  {
    label: 'optifine lookup (64x32)',
    request: {
      generator: 'optifineFile',
      input: await sharp({ create: { width: 46, height: 22, channels: 4, background: '#22aa44' } })
        .png()
        .toBuffer(),
    },
  },
];

console.log(`${RUNS} runs each, ms (median / p95)`);
console.log(`${'generator'.padEnd(30)} ${'drawing'.padStart(15)} ${'whole creation'.padStart(17)}`);
for (const { label, request } of cases) {
  const drawing = await sample(async () => drawCreation(request));
  const whole = await sample(() => makeCreation(request));
  const cell = (values: number[]) =>
    `${quantile(values, 0.5).toFixed(1)} / ${quantile(values, 0.95).toFixed(1)}`.padStart(15);
  console.log(`${label.padEnd(30)} ${cell(drawing)} ${cell(whole).padStart(17)}`);
}

// The cache: a first request (made in an image worker, stored) against repeats of it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-creators-'));
const db = openDatabase(`sqlite:${path.join(dir, 'bench.db')}`);
await migrateToLatest(db);
const jobs = new ImageJobs({ concurrency: 1 });
try {
  const library = new TextureLibrary(db, new LocalBlobStore(path.join(dir, 'textures')));
  // Nothing is worn here: no change to publish, no upload to count.
  const intake = new TextureIntake({
    db,
    library,
    imageJobs: jobs,
    bus: { publish: async () => {}, close: async () => {} },
    config: { wardrobeItems: 30 },
    uploads: { countUpload: () => {} },
  });
  const creations = new Creations({ db, library, imageJobs: jobs, intake }, 60 * 60_000);
  const maker = 'b'.repeat(32);
  await upsertUser(db, maker, 'BenchMaker');
  const request: CreationRequest = {
    generator: 'image',
    input: { image: picture, scale: 6, colour: 'auto', elytra: true },
  };
  const started = process.hrtime.bigint();
  const first = await madeOrThrow(creations.make(request, maker));
  const firstMs = Number(process.hrtime.bigint() - started) / 1e6;
  const repeats = await sample(() => creations.make(request, maker));
  const again = await madeOrThrow(creations.make(request, maker));
  if (first.cached || !again.cached) throw new Error('The cache did not answer the repeat');
  console.log(
    `cache, image scale 6: first request ${firstMs.toFixed(1)} ms (worker start included); repeat ${quantile(repeats, 0.5).toFixed(2)} / ${quantile(repeats, 0.95).toFixed(2)} ms`,
  );
} finally {
  jobs.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
