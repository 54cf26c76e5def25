// The banner cape generator: a banner (drawn from its code) on the cape's front, every face faded
// from the top colour to the bottom colour; the banner stretched to the front (scale) or at its own shape at the top,
// middle or bottom.
import type { BannerAlignment } from '../../../src/lib/creator-rules.ts';
import { scaleNearest } from '../pipeline/process.ts';
import { createImage, type RawImage, type Rgba } from '../pipeline/raw-image.ts';
import { CAPE_BOX, CAPE_FRONT, drawOver, ELYTRA_FACES, fadeRect, fillRect } from './cape-canvas.ts';
import type { GeneratedCape } from './generated.ts';
import { capeFrameHeight } from '../../../src/lib/texture-layout.ts';

/** The banner cape's settings and the banner's face (20 x 40 pixels). */
export interface BannerCapeInput {
  banner: { data: Uint8Array; width: number; height: number };
  top: Rgba;
  bottom: Rgba;
  alignment: BannerAlignment;
}

/**
 * The banner cape's width: 256 x 128, so the front (40 x 64) shows a 20 x 40 banner at twice its pixels' size when
 * stretched, or at its own size.
 */
const BANNER_CAPE_WIDTH = 256;

/** What drawing it costs, in pixels: the banner's face. */
export function bannerCapePixels(input: BannerCapeInput): number {
  return input.banner.width * input.banner.height;
}

/** Draws a banner cape. */
export function drawBannerCape(input: BannerCapeInput): GeneratedCape {
  const unit = BANNER_CAPE_WIDTH / 64;
  const cape = createImage(BANNER_CAPE_WIDTH, capeFrameHeight(BANNER_CAPE_WIDTH));
  fadeRect(cape, CAPE_BOX, unit, input.top, input.bottom);
  for (const rect of ELYTRA_FACES)
    fillRect(cape, rect.x * unit, rect.y * unit, rect.w * unit, rect.h * unit, input.bottom);
  const banner: RawImage = {
    data: Buffer.from(input.banner.data),
    width: input.banner.width,
    height: input.banner.height,
  };
  const frontWidth = CAPE_FRONT.w * unit;
  const frontHeight = CAPE_FRONT.h * unit;
  if (input.alignment === 'scale') {
    drawOver(cape, scaleNearest(banner, frontWidth, frontHeight), CAPE_FRONT.x * unit, CAPE_FRONT.y * unit);
  } else {
    // At its own shape: as wide as half the front, with the fade showing around it.
    const width = frontWidth / 2;
    const height = Math.min(frontHeight - 2, Math.round((width * banner.height) / banner.width));
    const space = frontHeight - height;
    const offset = input.alignment === 'top' ? 1 : input.alignment === 'middle' ? Math.floor(space / 2) : space - 1;
    drawOver(
      cape,
      scaleNearest(banner, width, height),
      CAPE_FRONT.x * unit + (frontWidth - width) / 2,
      CAPE_FRONT.y * unit + offset,
    );
  }
  return { still: cape };
}
