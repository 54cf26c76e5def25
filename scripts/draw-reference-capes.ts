// Draws our own artwork for every reference cape into public/images/capes/{platform}/ (run: npm run draw:capes): the
// texture and its two previews. With --previews-only it keeps the textures there (e.g. real cape files an operator put
// in) and redraws only the previews from them.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  capePreviewPath,
  capeTexturePath,
  elytraPreviewPath,
  referenceCapeProblems,
  referenceCapeSchema,
} from '../src/lib/reference-capes.ts';
import { CAPE_TEMPLATE_SIZE } from '../src/lib/texture-layout.ts';
import type { RawImage } from '../server/textures/pipeline/raw-image.ts';
import { capePreview, drawReferenceCape, elytraPreview } from './reference-cape-art.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PUBLIC_DIR = path.join(ROOT, 'public');
const DATA_FILE = path.join(ROOT, 'src', 'content', 'capes.json');

/** Encodes RGBA pixels as a PNG; the same pixels always give the same bytes. */
function encodePng(image: RawImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png({ compressionLevel: 9, adaptiveFiltering: false, palette: false })
    .toBuffer();
}

/** Writes a file under public/ unless it already holds these bytes; says whether it changed. */
function write(sitePath: string, png: Buffer): boolean {
  const file = path.join(PUBLIC_DIR, sitePath);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(png)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, png);
  console.log(`wrote ${path.relative(ROOT, file)} (${png.length} bytes)`);
  return true;
}

const capes = (JSON.parse(fs.readFileSync(DATA_FILE, 'utf8')) as unknown[]).map((entry, index) => {
  const parsed = referenceCapeSchema.safeParse(entry);
  if (!parsed.success) throw new Error(`src/content/capes.json entry ${index}: ${parsed.error.message}`);
  return parsed.data;
});
const problems = referenceCapeProblems(capes);
if (problems.length > 0) throw new Error(`src/content/capes.json: ${problems.join('; ')}`);

/**
 * Reads a texture under public/ as 64 x 32 RGBA pixels: larger textures of the same layout (128 x 64, …) are reduced to
 * it, others refused.
 */
async function readTexture(sitePath: string): Promise<RawImage> {
  const { width, height } = CAPE_TEMPLATE_SIZE;
  const file = path.join(PUBLIC_DIR, sitePath);
  const { info } = await sharp(file).toBuffer({ resolveWithObject: true });
  if (info.width % width !== 0 || info.height * 2 !== info.width)
    throw new Error(`${sitePath} is ${info.width} x ${info.height}, not 64 x 32 or a multiple of it`);
  const data = await sharp(file, { pages: 1 })
    .ensureAlpha()
    .resize(width, height, { kernel: 'nearest' })
    .raw()
    .toBuffer();
  return { data, width, height };
}

const previewsOnly = process.argv.includes('--previews-only');
let changed = 0;
for (const cape of capes) {
  const texture = previewsOnly ? await readTexture(capeTexturePath(cape)) : drawReferenceCape(cape);
  if (!previewsOnly && write(capeTexturePath(cape), await encodePng(texture))) changed++;
  if (write(capePreviewPath(cape), await encodePng(capePreview(texture)))) changed++;
  if (write(elytraPreviewPath(cape), await encodePng(elytraPreview(texture)))) changed++;
}
console.log(`${capes.length} capes, ${changed} of ${capes.length * (previewsOnly ? 2 : 3)} files changed`);
