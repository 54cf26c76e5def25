// The catalogue of the textures' image work the worker processes do: each takes the bytes of one image and resolves
// with its result. A worker process loads this module (server/image-jobs/worker-process.ts).
import type { Refusal } from '../../../src/lib/refusals.ts';
import { makeCreation } from '../generators/index.ts';
import { perceptualHash, perceptualProbes } from '../pipeline/perceptual-hash.ts';
import {
  processCape,
  processEars,
  processGalleryTexture,
  stripStill,
  stripToGif,
  TextureRejected,
  type EncodedTexture,
  type UploadInput,
} from '../pipeline/process.ts';
import { renderCapePreview, renderEarsPreview, renderTextureMap } from '../pipeline/render.ts';

/**
 * An upload's result with the perceptual hashes of its still (an animation's first frame) that the blocklist is checked
 * with.
 */
async function withProbes<T extends { still: EncodedTexture }>(processed: T): Promise<T & { probes: string[] }> {
  return { ...processed, probes: await perceptualProbes(processed.still.bytes) };
}

/** Every kind of image work, by name. */
export const imageWork = {
  /** A cape upload checked and re-encoded (still, optional strip and notice), with its blocklist probes. */
  cape: async (upload: UploadInput) => withProbes(await processCape(upload)),
  /** Ears checked and re-encoded, in the shape of a cape's result. */
  ears: async (upload: UploadInput) => withProbes({ still: await processEars(upload), strip: null, notice: null }),
  /** A gallery upload checked and re-encoded, with its blocklist probes. */
  galleryTexture: async (upload: UploadInput) => withProbes(await processGalleryTexture(upload)),
  /** A stored strip turned back into a looping GIF. */
  stripGif: stripToGif,
  /** The 320x180 preview of a cape. */
  capePreview: renderCapePreview,
  /** The 320x180 preview of ears. */
  earsPreview: renderEarsPreview,
  /** The whole texture scaled to fit 320x180. */
  textureMap: renderTextureMap,
  /** The perceptual hash of a stored texture's first frame, for the blocklist. */
  perceptualHash,
  /** The blocklist probes of a stored texture's first frame, to check it as an upload is checked. */
  perceptualProbes: (texture: Buffer) => perceptualProbes(texture),
  /** A cape made by one of the creators, through the texture pipeline, with its preview. */
  creation: makeCreation,
  /** The first frame of a stored strip as a still cape. */
  stripStill,
} satisfies Record<string, (input: never) => Promise<unknown>>;

/** The name of a kind of image work. */
export type ImageWorkName = keyof typeof imageWork;
/** What a kind of image work takes. */
export type ImageWorkInput<N extends ImageWorkName> = Parameters<(typeof imageWork)[N]>[0];
/** What a kind of image work resolves with. */
export type ImageWorkResult<N extends ImageWorkName> = Awaited<ReturnType<(typeof imageWork)[N]>>;

/** The refusal of a texture the work refused, as the plain value sent back to the API, or null for any other error. */
export function refusalOf(error: unknown): Refusal | null {
  return error instanceof TextureRejected ? error.refusal : null;
}
