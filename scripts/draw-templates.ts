// Draws the cape and ears templates and the default skin with sharp into public/ (run: npx tsx
// scripts/draw-templates.ts).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  CAPE_REGIONS,
  CAPE_TEMPLATE_SIZE,
  EARS_REGIONS,
  EARS_TEMPLATE_SIZE,
  HD_SCALE,
  TEMPLATE_FILES,
  type TextureRegion,
} from '../src/lib/texture-layout.ts';

const PUBLIC_DIR = path.resolve(import.meta.dirname, '..', 'public');

type Rgba = [number, number, number, number];

/** An RGBA pixel buffer that rectangles are painted into. */
class PixelCanvas {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = Buffer.alloc(width * height * 4);
  }

  /** Paints one pixel. */
  set(x: number, y: number, colour: Rgba): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.data.set(colour, (y * this.width + x) * 4);
  }

  /** Paints a rectangle; `shade` may vary the colour per pixel. */
  fill(x: number, y: number, w: number, h: number, colour: Rgba | ((px: number, py: number) => Rgba)): void {
    for (let py = y; py < y + h; py++) {
      for (let px = x; px < x + w; px++)
        this.set(px, py, typeof colour === 'function' ? colour(px - x, py - y) : colour);
    }
  }

  /** Encodes the buffer as a PNG. */
  png(): Promise<Buffer> {
    return sharp(this.data, { raw: { width: this.width, height: this.height, channels: 4 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
  }
}

/** `#rrggbb` to an opaque RGBA colour. */
function hex(colour: string): Rgba {
  const value = Number.parseInt(colour.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255, 255];
}

/** Darkens or lightens a colour by `amount` (-255…255). */
function shade([r, g, b, a]: Rgba, amount: number): Rgba {
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v + amount)));
  return [clamp(r), clamp(g), clamp(b), a];
}

/** A small deterministic per-pixel noise, so flat skin colours look like fabric and skin. */
function noisy(base: Rgba, strength = 10): (px: number, py: number) => Rgba {
  return (px, py) =>
    shade(
      base,
      (((px * 73856093) ^ (py * 19349663)) % 7) - 3 === 0 ? 0 : ((((px * 31 + py * 17) % 5) - 2) * strength) / 2,
    );
}

/** Fills every region of a layout with its colour at scale 1. */
function drawRegions(size: { width: number; height: number }, regions: readonly TextureRegion[]): PixelCanvas {
  const canvas = new PixelCanvas(size.width, size.height);
  for (const region of regions) canvas.fill(region.x, region.y, region.w, region.h, hex(region.colour));
  return canvas;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The SVG of an HD template: each region filled, outlined and labelled (rotated in tall, narrow regions). */
function hdTemplateSvg(
  size: { width: number; height: number },
  regions: readonly TextureRegion[],
  scale: number,
  fontSize: number,
): string {
  const width = size.width * scale;
  const height = size.height * scale;
  const parts = regions.map((region) => {
    const x = region.x * scale;
    const y = region.y * scale;
    const w = region.w * scale;
    const h = region.h * scale;
    const cx = x + w / 2;
    const cy = y + h / 2;
    const label = escapeXml(region.label);
    // Tall, narrow strips get the label turned on its side; flat strips get a smaller font.
    const vertical = h > w * 2 && w < label.length * fontSize * 0.6;
    const room = vertical ? h : w;
    const thickness = vertical ? w : h;
    const size = Math.max(8, Math.min(fontSize, thickness * 0.7, (room * 0.9) / (label.length * 0.6)));
    const text = `<text x="${cx}" y="${cy}" font-size="${size.toFixed(1)}"${vertical ? ` transform="rotate(-90 ${cx} ${cy})"` : ''}>${label}</text>`;
    return `<rect x="${x + 1}" y="${y + 1}" width="${w - 2}" height="${h - 2}" fill="${region.colour}" stroke="#11141b" stroke-width="2"/>${text}`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" fill="#ffffff" stroke="#11141b" stroke-width="0.6" paint-order="stroke" text-anchor="middle" dominant-baseline="central">
    ${parts.join('\n    ')}
  </g>
</svg>`;
}

/** Renders an HD template SVG into a PNG of exactly the SVG's size. */
async function renderSvg(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: 72 }).png({ compressionLevel: 9 }).toBuffer();
}

/**
 * Paints a box of the standard skin layout (top, bottom, right, front, left, back) at (u, v) with width w, height h and
 * depth d.
 */
function skinBox(
  canvas: PixelCanvas,
  u: number,
  v: number,
  w: number,
  h: number,
  d: number,
  paint: (
    face: 'top' | 'bottom' | 'right' | 'front' | 'left' | 'back',
    px: number,
    py: number,
    faceWidth: number,
  ) => Rgba,
): void {
  const faces = [
    ['top', u + d, v, w, d],
    ['bottom', u + d + w, v, w, d],
    ['right', u, v + d, d, h],
    ['front', u + d, v + d, w, h],
    ['left', u + d + w, v + d, d, h],
    ['back', u + d + w + d, v + d, w, h],
  ] as const;
  for (const [face, x, y, fw, fh] of faces) canvas.fill(x, y, fw, fh, (px, py) => paint(face, px, py, fw));
}

/** A plain but recognisable 64 x 64 player skin: brown hair, blue eyes, teal shirt, blue trousers, grey shoes. */
function drawDefaultSkin(): PixelCanvas {
  const canvas = new PixelCanvas(64, 64);
  const skin = hex('#c68e6e');
  const hair = hex('#4a2f1d');
  const shirt = hex('#2aa5a0');
  const trousers = hex('#3b4aa8');
  const shoes = hex('#5a5a5a');
  const white: Rgba = [245, 245, 245, 255];
  const eye = hex('#3a6fd8');
  const mouth = hex('#8a4a3a');
  const skinAt = noisy(skin, 8);
  const hairAt = noisy(hair, 10);
  const shirtAt = noisy(shirt, 10);
  const trousersAt = noisy(trousers, 10);

  // Head: hair on top and the back, a fringe round the sides, a face at the front.
  skinBox(canvas, 0, 0, 8, 8, 8, (face, px, py) => {
    if (face === 'top' || face === 'back') return hairAt(px, py);
    if (face === 'bottom') return shade(skin, -20);
    if (face === 'front') {
      if (py <= 1) return hairAt(px, py);
      if (py === 4 && (px === 1 || px === 5)) return white;
      if (py === 4 && (px === 2 || px === 6)) return eye;
      if (py === 6 && px >= 3 && px <= 4) return mouth;
      if (py === 5 && (px === 3 || px === 4)) return shade(skin, -25);
      return skinAt(px, py);
    }
    // Sides: hair above the ear line and at the back of the head.
    const backEdge = face === 'right' ? px <= 2 : px >= 5;
    return py <= 2 || (backEdge && py <= 5) ? hairAt(px, py) : skinAt(px, py);
  });
  // Body: shirt all round.
  skinBox(canvas, 16, 16, 8, 12, 4, (face, px, py) =>
    face === 'top' || face === 'bottom' ? shade(shirt, -15) : shirtAt(px, py),
  );
  // Arms: short sleeves, then bare arms and hands.
  const arm = (face: string, px: number, py: number): Rgba => {
    if (face === 'top') return shade(shirt, -15);
    if (face === 'bottom') return shade(skin, -20);
    return py < 4 ? shirtAt(px, py) : skinAt(px, py);
  };
  skinBox(canvas, 40, 16, 4, 12, 4, arm);
  skinBox(canvas, 32, 48, 4, 12, 4, arm);
  // Legs: trousers with shoes at the bottom.
  const leg = (face: string, px: number, py: number): Rgba => {
    if (face === 'top') return shade(trousers, -15);
    if (face === 'bottom') return shade(shoes, -15);
    return py >= 10 ? shoes : trousersAt(px, py);
  };
  skinBox(canvas, 0, 16, 4, 12, 4, leg);
  skinBox(canvas, 16, 48, 4, 12, 4, leg);
  return canvas;
}

/** Writes a file under public/ and reports it. */
function write(sitePath: string, png: Buffer): void {
  const file = path.join(PUBLIC_DIR, sitePath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, png);
  console.log(`wrote ${path.relative(process.cwd(), file)} (${png.length} bytes)`);
}

write(TEMPLATE_FILES.cape, await drawRegions(CAPE_TEMPLATE_SIZE, CAPE_REGIONS).png());
write(TEMPLATE_FILES.capeHd, await renderSvg(hdTemplateSvg(CAPE_TEMPLATE_SIZE, CAPE_REGIONS, HD_SCALE.cape, 26)));
write(TEMPLATE_FILES.ears, await drawRegions(EARS_TEMPLATE_SIZE, EARS_REGIONS).png());
write(TEMPLATE_FILES.earsHd, await renderSvg(hdTemplateSvg(EARS_TEMPLATE_SIZE, EARS_REGIONS, HD_SCALE.ears, 40)));
write(TEMPLATE_FILES.defaultSkin, await drawDefaultSkin().png());
