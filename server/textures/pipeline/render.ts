// Gallery card images for stored textures: cape and ears previews and a whole-texture map, scaled with
// nearest-neighbour.
import sharp, { type Metadata } from 'sharp';
import { CAPE_MAX_WIDTH, EARS_HEIGHT, EARS_WIDTH, MAX_CAPE_FRAMES } from '../../../src/lib/texture-rules.ts';
import { capeFrameHeight, stripFrameCount } from '../../../src/lib/texture-layout.ts';

/** Width of a preview card image, in pixels. */
export const PREVIEW_WIDTH = 320;
/** Height of a preview card image, in pixels. */
export const PREVIEW_HEIGHT = 180;

/** Space between the two panels of a preview. */
const PANEL_GAP = 20;
/** Least space between a panel and the edge of the preview. */
const PANEL_MARGIN = 10;

/** A rectangle of a texture in scale-1 pixels (multiplied by the texture's scale factor before use). */
interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The cape's outside: what other players see from behind (DESIGN "The mod API"). */
const CAPE_FRONT: Region = { left: 1, top: 1, width: 10, height: 16 };
/** The cape's inside, facing the player's back. */
const CAPE_INNER: Region = { left: 12, top: 1, width: 10, height: 16 };
/** The ears' front face. */
const EARS_FRONT: Region = { left: 1, top: 1, width: 6, height: 6 };
/** The ears' back face. */
const EARS_BACK: Region = { left: 8, top: 1, width: 6, height: 6 };

/** A texture's first frame decoded to 8-bit sRGB RGBA, with its scale factor (texture width / scale-1 width). */
interface DecodedFrame {
  pixels: Buffer;
  width: number;
  height: number;
  scale: number;
}

/** The texture kinds a preview can be drawn for. */
export type PreviewKind = 'cape' | 'ears';

/** Reads a PNG's header size, throwing a clear Error for anything that is not a readable PNG. */
async function readPngSize(png: Buffer): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(png).metadata();
  } catch (error) {
    throw new Error(`Cannot render texture: the input is not a readable image (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (metadata.format !== 'png')
    throw new Error(`Cannot render texture: expected a PNG, got ${metadata.format ?? 'an unknown format'}`);
  return { width: metadata.width ?? 0, height: metadata.height ?? 0 };
}

/** Describes why width x height is not a cape layout, or returns null when it is one (a still or a strip of frames). */
function capeLayoutProblem(width: number, height: number): string | null {
  if (width <= 0 || width % 64 !== 0 || width > CAPE_MAX_WIDTH) {
    return `a cape must be a multiple of 64 pixels wide, at most ${CAPE_MAX_WIDTH}`;
  }
  const frameHeight = capeFrameHeight(width);
  if (height <= 0 || height % frameHeight !== 0) {
    return `a cape must be half as tall as it is wide (${width}x${frameHeight}), or a strip of such frames stacked vertically`;
  }
  if (stripFrameCount(width, height) > MAX_CAPE_FRAMES) return `an animated cape has at most ${MAX_CAPE_FRAMES} frames`;
  return null;
}

/** Checks that the PNG has the layout of `kind` and returns its size and scale factor. */
async function checkLayout(
  png: Buffer,
  kind: PreviewKind,
): Promise<{ width: number; frameHeight: number; scale: number }> {
  const { width, height } = await readPngSize(png);
  if (kind === 'ears') {
    if (width !== EARS_WIDTH || height !== EARS_HEIGHT) {
      throw new Error(
        `Cannot render ears: the texture must be exactly ${EARS_WIDTH}x${EARS_HEIGHT}, got ${width}x${height}`,
      );
    }
    return { width, frameHeight: height, scale: 1 };
  }
  const problem = capeLayoutProblem(width, height);
  if (problem) throw new Error(`Cannot render cape: ${problem}; got ${width}x${height}`);
  return { width, frameHeight: capeFrameHeight(width), scale: width / 64 };
}

/** Decodes the top `frameHeight` rows of the PNG (the first frame of a strip) to raw 8-bit RGBA. */
async function decodeFirstFrame(png: Buffer, width: number, frameHeight: number, scale: number): Promise<DecodedFrame> {
  try {
    const { data, info } = await sharp(png)
      .extract({ left: 0, top: 0, width, height: frameHeight })
      .ensureAlpha()
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`decoded to ${info.channels} channels`);
    return { pixels: data, width: info.width, height: info.height, scale };
  } catch (error) {
    throw new Error(`Cannot render texture: the PNG could not be decoded (${(error as Error).message})`, {
      cause: error,
    });
  }
}

/** One region of a decoded frame scaled to width x height with nearest-neighbour, as PNG bytes for compositing. */
function scaledRegion(frame: DecodedFrame, region: Region | null, width: number, height: number): Promise<Buffer> {
  const image = sharp(frame.pixels, { raw: { width: frame.width, height: frame.height, channels: 4 } });
  if (region) {
    image.extract({
      left: region.left * frame.scale,
      top: region.top * frame.scale,
      width: region.width * frame.scale,
      height: region.height * frame.scale,
    });
  }
  return image.resize(width, height, { kernel: 'nearest', fit: 'fill' }).png().toBuffer();
}

/** Draws two same-sized regions side by side, as large as a whole-number zoom of their scale-1 size allows, centred. */
async function renderPanels(frame: DecodedFrame, left: Region, right: Region): Promise<Buffer> {
  const zoom = Math.max(
    1,
    Math.min(
      Math.floor((PREVIEW_WIDTH - 2 * PANEL_MARGIN - PANEL_GAP) / (2 * left.width)),
      Math.floor((PREVIEW_HEIGHT - 2 * PANEL_MARGIN) / left.height),
    ),
  );
  const panelWidth = left.width * zoom;
  const panelHeight = left.height * zoom;
  const x = Math.floor((PREVIEW_WIDTH - (2 * panelWidth + PANEL_GAP)) / 2);
  const y = Math.floor((PREVIEW_HEIGHT - panelHeight) / 2);
  // One after the other: an image job holds one of libuv's threads at a time (see server/image-jobs/job-queue.ts).
  const leftPanel = await scaledRegion(frame, left, panelWidth, panelHeight);
  const rightPanel = await scaledRegion(frame, right, panelWidth, panelHeight);
  return sharp({
    create: { width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      { input: leftPanel, left: x, top: y },
      { input: rightPanel, left: x + panelWidth + PANEL_GAP, top: y },
    ])
    .png()
    .toBuffer();
}

/** A 320x180 PNG of a cape's outside (left) and inside (right), first frame of a strip, on a transparent background. */
export async function renderCapePreview(png: Buffer): Promise<Buffer> {
  const { width, frameHeight, scale } = await checkLayout(png, 'cape');
  return renderPanels(await decodeFirstFrame(png, width, frameHeight, scale), CAPE_FRONT, CAPE_INNER);
}

/** A 320x180 PNG of the ears' front (left) and back (right) on a transparent background. */
export async function renderEarsPreview(png: Buffer): Promise<Buffer> {
  const { width, frameHeight, scale } = await checkLayout(png, 'ears');
  return renderPanels(await decodeFirstFrame(png, width, frameHeight, scale), EARS_FRONT, EARS_BACK);
}

/** The 320x180 preview PNG for a texture of the given kind. */
export function renderTexturePreview(png: Buffer, kind: PreviewKind): Promise<Buffer> {
  if (kind === 'cape') return renderCapePreview(png);
  if (kind === 'ears') return renderEarsPreview(png);
  return Promise.reject(new Error(`Cannot render texture: unknown kind ${String(kind)}`));
}

/**
 * The whole texture (first frame of a strip) scaled with nearest-neighbour to fit 320x180: largest whole zoom, or
 * shrunk to fit.
 */
export async function renderTextureMap(png: Buffer): Promise<Buffer> {
  const { width, height } = await readPngSize(png);
  const isEars = width === EARS_WIDTH && height === EARS_HEIGHT;
  if (!isEars && capeLayoutProblem(width, height)) {
    throw new Error(
      `Cannot render texture map: expected ears (${EARS_WIDTH}x${EARS_HEIGHT}) or a cape (a multiple of 64 wide, at most ${CAPE_MAX_WIDTH}, height width/2 or a strip of such frames); got ${width}x${height}`,
    );
  }
  const frameHeight = isEars ? height : capeFrameHeight(width);
  const frame = await decodeFirstFrame(png, width, frameHeight, isEars ? 1 : width / 64);
  const fit = Math.min(PREVIEW_WIDTH / width, PREVIEW_HEIGHT / frameHeight);
  const zoom = fit >= 1 ? Math.floor(fit) : fit;
  const outWidth = Math.max(1, Math.min(PREVIEW_WIDTH, Math.round(width * zoom)));
  const outHeight = Math.max(1, Math.min(PREVIEW_HEIGHT, Math.round(frameHeight * zoom)));
  return scaledRegion(frame, null, outWidth, outHeight);
}
