// The OptiFine-style cape generator: a cape in the OptiFine editor's manner (a top-to-bottom colour
// fade with the "OF" mark and its shadow) from a ready-made design or custom colours, and a looked-up OptiFine cape
// placed on our 64·2ⁿ canvas.
import sharp from 'sharp';
import type { OptifineDesign } from '../../../src/lib/creator-rules.ts';
import { storedCapeWidth } from '../../../src/lib/texture-rules.ts';
import { picturePixels } from '../pipeline/picture-pixels.ts';
import { createImage, parseHexColour, type RawImage, type Rgba } from '../pipeline/raw-image.ts';
import { CAPE_BOX, CAPE_FRONT, drawOver, ELYTRA_FACES, fadeRect, fillRect } from './cape-canvas.ts';
import type { GeneratedCape } from './generated.ts';
import { capeFrameHeight } from '../../../src/lib/texture-layout.ts';

/** The four colours of an OptiFine-style cape. */
export interface OptifineColours {
  top: Rgba;
  bottom: Rgba;
  text: Rgba;
  shadow: Rgba;
}

/** The ready-made designs' colours (top, bottom, text, shadow). */
const DESIGN_COLOURS: Record<OptifineDesign, [string, string, string, string]> = {
  standard: ['8b1a1a', '3f0b0b', 'f1f1f1', '5c5c5c'],
  white: ['ffffff', 'c9c9c9', '3a3a3a', 'a0a0a0'],
  gray: ['8a8a8a', '4a4a4a', 'ffffff', '2e2e2e'],
  black: ['2b2b2b', '050505', 'e6e6e6', '6b6b6b'],
  red: ['e0312f', '86100f', 'ffffff', '4d0908'],
  green: ['3fb43a', '1a5c17', 'ffffff', '0f380d'],
  blue: ['3a6fe0', '152f7a', 'ffffff', '0c1c4a'],
  yellow: ['f5d33a', 'b08a0b', '3a2e05', 'fff3b0'],
  purple: ['9b4fd6', '4a1a73', 'ffffff', '2a0d45'],
  cyan: ['3ad0d6', '0f6d72', 'ffffff', '083d40'],
};

/** The colours of a ready-made design. */
export function designColours(design: OptifineDesign): OptifineColours {
  const [top, bottom, text, shadow] = DESIGN_COLOURS[design].map((hex) => parseHexColour(hex)!);
  return { top: top!, bottom: bottom!, text: text!, shadow: shadow! };
}

/** The "OF" mark, 7 x 5 pixels ('#' drawn). */
const MARK = ['###.###', '#.#.#..', '#.#.##.', '#.#.#..', '###.#..'];
/** The OptiFine-style cape's width: 128 x 64 (the mark two pixels a cell). */
const OPTIFINE_CAPE_WIDTH = 128;

/** The mark in one colour, `cell` pixels a mark pixel. */
function drawMark(colour: Rgba, cell: number): RawImage {
  const mark = createImage(MARK[0]!.length * cell, MARK.length * cell);
  MARK.forEach((line, y) =>
    [...line].forEach((pixel, x) => pixel === '#' && fillRect(mark, x * cell, y * cell, cell, cell, colour)),
  );
  return mark;
}

/** Draws an OptiFine-style cape in the given colours. */
export function drawOptifineCape(colours: OptifineColours): GeneratedCape {
  const unit = OPTIFINE_CAPE_WIDTH / 64;
  const cape = createImage(OPTIFINE_CAPE_WIDTH, capeFrameHeight(OPTIFINE_CAPE_WIDTH));
  for (const rect of [CAPE_BOX, ...ELYTRA_FACES]) fadeRect(cape, rect, unit, colours.top, colours.bottom);
  const cell = unit;
  const mark = drawMark(colours.text, cell);
  const x = CAPE_FRONT.x * unit + Math.floor((CAPE_FRONT.w * unit - mark.width) / 2);
  const y = CAPE_FRONT.y * unit + 4 * unit;
  drawOver(cape, drawMark(colours.shadow, cell), x + cell, y + cell);
  drawOver(cape, mark, x, y);
  return { still: cape };
}

/** What drawing the OptiFine design costs: nothing decoded, a small cape of flat colours. */
export function optifineCapePixels(): number {
  return 0;
}

/** What placing an OptiFine cape file costs, in pixels decoded: the file. */
export function optifineFilePixels(file: Uint8Array): number {
  return picturePixels(file);
}

/**
 * An OptiFine cape file (46 x 22 or a multiple, or any other size up to 2048 wide) placed at the top left of the
 * smallest 64·2ⁿ canvas it fits.
 */
export async function placeOptifineCape(file: Uint8Array): Promise<GeneratedCape> {
  const { data, info } = await sharp(Buffer.from(file), { limitInputPixels: 2048 * 1024, failOn: 'error', pages: 1 })
    .ensureAlpha()
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  let width = storedCapeWidth(info.width);
  while (capeFrameHeight(width) < info.height) width *= 2;
  if (width > 2048) throw new Error(`An OptiFine cape of ${info.width} x ${info.height} does not fit a cape texture`);
  const cape = createImage(width, capeFrameHeight(width));
  drawOver(cape, { data, width: info.width, height: info.height }, 0, 0);
  return { still: cape };
}
