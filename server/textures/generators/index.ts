// Every cape generator by name, and the step that runs one and puts its output through the texture pipeline (the same
// dimension rules and PNG encoder as an upload) with the blocklist probes and the 320 x 180 preview. Runs in the image
// workers.
import { perceptualProbes } from '../pipeline/perceptual-hash.ts';
import { encodeRaw, TextureRejected, type EncodedTexture } from '../pipeline/process.ts';
import { renderCapePreview } from '../pipeline/render.ts';
import {
  capeDimensionsRefusal,
  wrongSizeRefusal,
  storedCapeWidth,
  textureRefusal,
} from '../../../src/lib/texture-rules.ts';
import { animatedCapePixels, drawAnimatedCape } from './animated-cape.ts';
import { bannerCapePixels, drawBannerCape } from './banner-cape.ts';
import type { GeneratedCape } from './generated.ts';
import { drawHeadCape, headCapePixels } from './head-cape.ts';
import { drawImageCape, imageCapePixels } from './image-cape.ts';
import { drawOptifineCape, optifineCapePixels, optifineFilePixels, placeOptifineCape } from './optifine-cape.ts';
import { drawPromptCape, promptCapePixels } from './prompt-cape.ts';

/**
 * Every cape generator, by name: how it draws, and what drawing costs before it runs (the pixels it decodes and draws,
 * from its input's headers), which the image job queue judges the job's size and the player's share by.
 */
export const capeGenerators = {
  image: { draw: drawImageCape, pixels: imageCapePixels },
  animated: { draw: drawAnimatedCape, pixels: animatedCapePixels },
  prompt: { draw: drawPromptCape, pixels: promptCapePixels },
  banner: { draw: drawBannerCape, pixels: bannerCapePixels },
  head: { draw: drawHeadCape, pixels: headCapePixels },
  optifine: { draw: drawOptifineCape, pixels: optifineCapePixels },
  optifineFile: { draw: placeOptifineCape, pixels: optifineFilePixels },
} satisfies Record<
  string,
  { draw: (input: never) => GeneratedCape | Promise<GeneratedCape>; pixels: (input: never) => number }
>;

/** The name of a cape generator. */
export type CapeGeneratorName = keyof typeof capeGenerators;

/** One generator's name with its input. */
export type CreationRequest = {
  [N in CapeGeneratorName]: { generator: N; input: Parameters<(typeof capeGenerators)[N]['draw']>[0] };
}[CapeGeneratorName];

/** Draws a creation with its generator, nothing more (no pipeline). */
export function drawCreation(request: CreationRequest): GeneratedCape | Promise<GeneratedCape> {
  return (capeGenerators[request.generator].draw as (input: unknown) => GeneratedCape | Promise<GeneratedCape>)(
    request.input,
  );
}

/** What a creation costs before it runs: its generator's pixels for its input. */
export function creationPixels(request: CreationRequest): number {
  return (capeGenerators[request.generator].pixels as (input: unknown) => number)(request.input);
}

/**
 * A generated cape as the pipeline left it: the still, the strip of an animation, a note, blocklist probes and the
 * preview.
 */
export interface Creation {
  still: EncodedTexture;
  strip: EncodedTexture | null;
  notice: string | null;
  probes: string[];
  preview: Buffer;
}

/**
 * The zlib level creations are stored at: a 2048 x 1024 photo cape takes 92 ms at level 9 and 23 ms at level 6
 * (bench/creators.ts), for files a few per cent larger.
 */
const CREATION_COMPRESSION_LEVEL = 6;

/**
 * Runs a generator; a picture it cannot read (the player's file, a skin, a looked-up cape) is rejected as not valid.
 */
async function generate(request: CreationRequest): Promise<GeneratedCape> {
  try {
    return await drawCreation(request);
  } catch (error) {
    if (error instanceof TextureRejected) throw error;
    throw new TextureRejected(textureRefusal('invalidImage'));
  }
}

/** Makes a cape with a generator and puts it through the texture pipeline. */
export async function makeCreation(request: CreationRequest): Promise<Creation> {
  const generated = await generate(request);
  // The upload pipeline's rules and encoder, from the drawn pixels (no file size limit: nothing was uploaded).
  const problem =
    capeDimensionsRefusal(generated.still) ??
    (generated.still.width === storedCapeWidth(generated.still.width)
      ? null
      : wrongSizeRefusal('cape', generated.still));
  if (problem) throw new TextureRejected(problem);
  const still = await encodeRaw(generated.still, 1, CREATION_COMPRESSION_LEVEL);
  const strip = generated.strip
    ? await encodeRaw(generated.strip.image, generated.strip.frames, CREATION_COMPRESSION_LEVEL)
    : null;
  return {
    still,
    strip,
    notice: generated.strip?.notice ?? null,
    probes: await perceptualProbes(still.bytes),
    preview: await renderCapePreview((strip ?? still).bytes),
  };
}
