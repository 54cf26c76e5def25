// What the image job queue charges each kind of image work before it runs (its pixels,
// server/textures/image-work/job-cost.ts: the small-job lane takes jobs up to IMAGE_SMALL_JOB_PIXELS) against the CPU
// the work really takes, on the worst input of each kind this bench knows: pictures whose every pixel is a colour of
// its own (the most work for a palette, as small a file as a plain one) at the largest size the site accepts.
//
// The charge is the job's pixels (weighted by kind, as the queue counts them) plus a fixed set-up, turned into time at
// the rate of the reference job, a 2048 x 1024 cape upload of 2,097,152 colours (the largest small job): a kind that
// takes more than twice its charge holds a lane that much longer than the queue expects. Each case runs
// RUNS times (after one warm-up) in this process; CPU is this process's user + system time (libvips' threads
// included). `npx tsx bench/image-job-cost.ts`
import sharp from 'sharp';
import { IMAGE_JOB_DEFAULTS } from '../server/config/image-job-limits.ts';
import { imageJobPixels } from '../server/textures/image-work/job-cost.ts';
import { imageWork, type ImageWorkInput, type ImageWorkName } from '../server/textures/image-work/catalogue.ts';
import { decodeBannerCode } from '../server/textures/generators/banner/codes.ts';
import { renderBanner } from '../server/textures/generators/banner/render.ts';
import { designColours } from '../server/textures/generators/optifine-cape.ts';
import { drawPromptPattern } from '../server/textures/generators/prompt-pattern.ts';
import { noisePng } from '../support/textures.ts';

const RUNS = Number(process.env.RUNS ?? 3);
/** Each kind may take at most this many times its charge. */
const GOAL = 2;
/**
 * What every job costs whatever its size (the worker's message, starting the decoder and encoder: 3–10 ms), in pixels
 * of the reference's work. The queue's pixel count leaves it out: it never makes a job big, so it never changes a lane.
 */
const SETUP_PIXELS = 200_000;

/**
 * Raw RGBA pixels each of a colour of its own (colour = the pixel's index, offset by `shift`): 2,097,152 colours in a
 * 2048 x 1024 picture, the most a palette has to reduce, in a file that still compresses well.
 */
function allColours(width: number, height: number, shift = 0): Buffer {
  const raw = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const value = (i + shift) & 0xffffff;
    raw.writeUInt32BE(((value << 8) | 0xff) >>> 0, i * 4);
  }
  return raw;
}

/** A PNG whose every pixel is a colour of its own, within the upload size limit (about 20 KB at 2048 x 1024). */
function allColoursPng(width: number, height: number): Promise<Buffer> {
  return sharp(allColours(width, height), { raw: { width, height, channels: 4 } })
    .png({ adaptiveFiltering: true, compressionLevel: 9 })
    .toBuffer();
}

/**
 * A GIF whose frames each hold as many colours as they have pixels (before the palette), a different run each frame.
 */
function allColoursGif(width: number, height: number, frames: number): Promise<Buffer> {
  const raw = Buffer.concat(Array.from({ length: frames }, (_, frame) => allColours(width, height, frame * 99_991)));
  return sharp(raw, { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .gif({ effort: 1, dither: 0, delay: Array.from({ length: frames }, () => 100) })
    .toBuffer();
}

/** One kind of work on one input. */
interface Case {
  label: string;
  name: ImageWorkName;
  input: unknown;
}

const black = { r: 0, g: 0, b: 0, a: 255 };
const manyColours = await allColoursPng(2048, 1024);
const strip = await allColoursPng(1024, 512 * 8);
const cases: Case[] = [
  { label: 'cape upload, 2048x1024 PNG of 2,097,152 colours (reference)', name: 'cape', input: manyColours },
  { label: 'cape upload, 64x32 noise PNG', name: 'cape', input: await noisePng(64, 32) },
  {
    label: 'cape upload, 512x256 GIF of 16 many-coloured frames',
    name: 'cape',
    input: await allColoursGif(512, 256, 16),
  },
  { label: 'gallery upload, 2048x1024 of 2,097,152 colours', name: 'galleryTexture', input: manyColours },
  { label: 'ears upload, 14x7 noise', name: 'ears', input: await noisePng(14, 7) },
  { label: 'GIF of a 2048x1024 still of 2,097,152 colours', name: 'stripGif', input: manyColours },
  { label: 'GIF of a 1024x512 x 8 strip of as many colours', name: 'stripGif', input: strip },
  { label: 'still of that strip', name: 'stripStill', input: strip },
  { label: 'cape preview, 2048x1024', name: 'capePreview', input: manyColours },
  { label: 'ears preview, 14x7 noise', name: 'earsPreview', input: await noisePng(14, 7) },
  { label: 'texture map, 2048x1024', name: 'textureMap', input: manyColours },
  { label: 'perceptual hash, 2048x1024', name: 'perceptualHash', input: manyColours },
  { label: 'blocklist probes, 2048x1024', name: 'perceptualProbes', input: manyColours },
  {
    label: 'image creator, 4096x4096 of as many colours, scale 6',
    name: 'creation',
    input: {
      generator: 'image',
      input: { image: await allColoursPng(4096, 4096), scale: 6, colour: 'auto', elytra: true },
    },
  },
  {
    label: 'animated creator, 512x512 x 16 many-coloured GIF, background, elytra, scale 3',
    name: 'creation',
    input: {
      generator: 'animated',
      input: {
        gif: await allColoursGif(512, 512, 16),
        background: await noisePng(512, 256),
        scale: 3,
        colour: black,
        elytra: true,
      },
    },
  },
  {
    label: 'head creator, 64x64 noise skin',
    name: 'creation',
    input: {
      generator: 'head',
      input: { skin: await noisePng(64, 64), helmet: true, red: 10, green: 0, blue: -10, brightness: 20 },
    },
  },
  {
    label: 'OptiFine file, 2048x1024 of 2,097,152 colours',
    name: 'creation',
    input: { generator: 'optifineFile', input: manyColours },
  },
  {
    label: 'prompt creator (built-in pattern)',
    name: 'creation',
    input: { generator: 'prompt', input: drawPromptPattern('noise on noise, gold stars') },
  },
  {
    label: 'banner creator',
    name: 'creation',
    input: {
      generator: 'banner',
      input: {
        banner: renderBanner(decodeBannerCode('pmc', '2c729cmcf28')!),
        top: black,
        bottom: black,
        alignment: 'top',
      },
    },
  },
  { label: 'OptiFine design creator', name: 'creation', input: { generator: 'optifine', input: designColours('red') } },
];

/** The median of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs a case RUNS times after a warm-up; the median CPU ms a run. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  await work();
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000);
  }
  return median(samples);
}

const rows: Array<{ label: string; name: string; pixels: number; small: boolean; cpu: number }> = [];
for (const { label, name, input } of cases) {
  const run = imageWork[name] as (input: unknown) => Promise<unknown>;
  const pixels = imageJobPixels(name, input as ImageWorkInput<typeof name>);
  rows.push({
    label,
    name,
    pixels,
    small: pixels <= IMAGE_JOB_DEFAULTS.smallJobPixels,
    cpu: await cpuMs(() => run(input)),
  });
}

const reference = rows[0]!;
/** CPU ms per charged pixel at the reference's rate (its set-up counted). */
const msPerPixel = reference.cpu / (reference.pixels + SETUP_PIXELS);
let failures = 0;
console.log(
  `RUNS=${RUNS}; the charge in ms is (the pixels + ${SETUP_PIXELS.toLocaleString('en')} of set-up) at the reference's ${(msPerPixel * 1e6).toFixed(1)} ns a pixel\n`,
);
console.log(`| work | kind | charged pixels | lane | charge ms | CPU ms | CPU / charge | holds (≤ ${GOAL}×) |`);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  const charge = (row.pixels + SETUP_PIXELS) * msPerPixel;
  const ratio = row.cpu / charge;
  const holds = ratio <= GOAL;
  if (!holds) failures += 1;
  console.log(
    `| ${row.label} | ${row.name} | ${row.pixels.toLocaleString('en')} | ${row.small ? 'small' : 'any'} | ${charge.toFixed(1)} | ${row.cpu.toFixed(1)} | ${ratio.toFixed(2)}× | ${holds ? 'yes' : 'NO'} |`,
  );
}
process.exitCode = failures === 0 ? 0 : 1;
