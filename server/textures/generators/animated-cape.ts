// The animated cape generator: a GIF's frames fitted onto the cape's front (and the elytra when
// asked) over a background, resampled to the 100 ms tick and sized to the strip budget by the upload pipeline's rules.
import sharp from 'sharp';
import { capeWidthForScale, creatorMessages } from '../../../src/lib/creator-rules.ts';
import { capeFramesRefusal, MAX_CAPE_FRAMES, STRIP_MAX_PIXELS } from '../../../src/lib/texture-rules.ts';
import { countGifFrames, readImageHeader } from '../pipeline/image-header.ts';
import { resampleTimeline, stripFrameWidth, TextureRejected } from '../pipeline/process.ts';
import { capePixels, headerOf, headerPixels, picturePixels } from '../pipeline/picture-pixels.ts';
import type { RawImage, Rgba } from '../pipeline/raw-image.ts';
import { CAPE_FRONT, drawCape, drawOver, ELYTRA_OUTER } from './cape-canvas.ts';
import type { GeneratedCape } from './generated.ts';
import { capeFrameHeight } from '../../../src/lib/texture-layout.ts';

/** The animated cape creator's files and settings. */
export interface AnimatedCapeInput {
  gif: Uint8Array;
  background: Uint8Array | null;
  scale: number;
  colour: Rgba;
  elytra: boolean;
}

/**
 * What drawing it costs, in pixels decoded and drawn: the GIF (decoded once for the cape's front and once more for the
 * elytra), the background, and the strip.
 */
export function animatedCapePixels(input: AnimatedCapeInput): number {
  const { gif, background, scale, elytra } = input;
  const header = headerOf(gif);
  const frames = header.gif?.frames ?? 1;
  return (
    headerPixels(header) * (elytra ? 2 : 1) +
    (background ? picturePixels(background) : 0) +
    Math.min(STRIP_MAX_PIXELS, capePixels(scale) * frames)
  );
}

/** Each frame of a GIF fitted to width x height (stacked), with the GIF's frame delays. */
async function fittedFrames(
  gif: Buffer,
  frames: number,
  width: number,
  height: number,
): Promise<{ frames: RawImage[]; delays: number[] }> {
  const decoder = sharp(gif, { limitInputPixels: 2048 * 2048 * MAX_CAPE_FRAMES, failOn: 'error', animated: true });
  const metadata = await decoder.metadata();
  if (metadata.pages !== frames)
    throw new TextureRejected({ reason: 'invalid_image', message: creatorMessages.invalidImage });
  const { data, info } = await decoder
    .ensureAlpha()
    .resize(width, height, { fit: 'cover', kernel: 'nearest' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const frameHeight = info.pageHeight ?? info.height / frames;
  const frameBytes = info.width * frameHeight * 4;
  const list = Array.from({ length: frames }, (_, index) => ({
    data: data.subarray(index * frameBytes, (index + 1) * frameBytes),
    width: info.width,
    height: frameHeight,
  }));
  return { frames: list, delays: metadata.delay ?? [] };
}

/**
 * Draws an animated cape: a strip of capes, one per 100 ms tick, each the background with that moment's frame on the
 * front.
 */
export async function drawAnimatedCape(input: AnimatedCapeInput): Promise<GeneratedCape> {
  const gif = Buffer.from(input.gif);
  const header = readImageHeader(gif);
  if (header.type !== 'gif') throw new TextureRejected({ reason: 'wrong_type', message: creatorMessages.animatedType });
  const counted = countGifFrames(gif, MAX_CAPE_FRAMES);
  if (!counted) throw new TextureRejected({ reason: 'invalid_image', message: creatorMessages.invalidImage });
  const tooMany = capeFramesRefusal(counted);
  if (tooMany) throw new TextureRejected(tooMany);
  // Frames are measured against the delays before sizing: the strip's frame width depends on how many ticks there are.
  const probe = await sharp(gif, {
    limitInputPixels: 2048 * 2048 * MAX_CAPE_FRAMES,
    failOn: 'error',
    animated: true,
  }).metadata();
  const { ticks, cut } = resampleTimeline(probe.delay ?? [], counted);
  const capeWidth = capeWidthForScale(input.scale);
  const width = stripFrameWidth(capeWidth, ticks.length);
  const unit = width / 64;
  const background = input.background ? Buffer.from(input.background) : null;
  const base = await drawCape({
    scale: Math.log2(width / 64) + 1,
    colour: input.colour,
    front: background,
    inner: background,
    elytra: input.elytra ? background : null,
  });
  const { frames } = await fittedFrames(gif, counted, CAPE_FRONT.w * unit, CAPE_FRONT.h * unit);
  const elytraFrames = input.elytra
    ? await fittedFrames(gif, counted, ELYTRA_OUTER.w * unit, ELYTRA_OUTER.h * unit)
    : null;
  const frameBytes = base.data.length;
  const strip = Buffer.alloc(frameBytes * ticks.length);
  const drawn = new Map<number, RawImage>();
  for (const [tick, source] of ticks.entries()) {
    let cape = drawn.get(source);
    if (!cape) {
      cape = { data: Buffer.from(base.data), width: base.width, height: base.height };
      drawOver(cape, frames[source]!, CAPE_FRONT.x * unit, CAPE_FRONT.y * unit);
      if (elytraFrames) drawOver(cape, elytraFrames.frames[source]!, ELYTRA_OUTER.x * unit, ELYTRA_OUTER.y * unit);
      drawn.set(source, cape);
    }
    cape.data.copy(strip, tick * frameBytes);
  }
  const notices: string[] = [];
  if (width < capeWidth)
    notices.push(`The animation was scaled to ${width} × ${capeFrameHeight(width)} a frame to fit.`);
  if (cut) notices.push(`The animation was cut to its first ${MAX_CAPE_FRAMES / 10} seconds.`);
  const still = drawn.get(ticks[0] ?? 0)!;
  if (ticks.length < 2) return { still };
  return {
    still,
    strip: {
      image: { data: strip, width, height: capeFrameHeight(width) * ticks.length },
      frames: ticks.length,
      notice: notices.join(' ') || null,
    },
  };
}
