// Draws our own artwork for every reference cape into public/images/capes/{platform}/ (run: npm run draw:capes): the texture and its two previews.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { capePreviewPath, capeTexturePath, elytraPreviewPath, referenceCapeProblems, referenceCapeSchema } from '../src/lib/reference-capes.ts';
import type { RawImage } from '../server/textures/raw-image.ts';
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

let changed = 0;
for (const cape of capes) {
  const texture = drawReferenceCape(cape);
  if (write(capeTexturePath(cape), await encodePng(texture))) changed++;
  if (write(capePreviewPath(cape), await encodePng(capePreview(texture)))) changed++;
  if (write(elytraPreviewPath(cape), await encodePng(elytraPreview(texture)))) changed++;
}
console.log(`${capes.length} capes, ${changed} of ${capes.length * 3} files changed`);
