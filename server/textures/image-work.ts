// The catalogue of image work the worker processes do: each takes the bytes of one image and resolves with its result.
import { processCape, processEars, processGalleryTexture, stripToGif } from './process.ts';
import { renderCapePreview, renderEarsPreview, renderTextureMap } from './render.ts';

/** Every kind of image work, by name. */
export const imageWork = {
  /** A cape upload checked and re-encoded (still, optional strip and notice). */
  cape: processCape,
  /** Ears checked and re-encoded, in the shape of a cape's result. */
  ears: async (upload: Buffer) => ({ still: await processEars(upload), strip: null, notice: null }),
  /** A gallery upload checked and re-encoded. */
  galleryTexture: processGalleryTexture,
  /** A stored strip turned back into a looping GIF. */
  stripGif: stripToGif,
  /** The 320x180 preview of a cape. */
  capePreview: renderCapePreview,
  /** The 320x180 preview of ears. */
  earsPreview: renderEarsPreview,
  /** The whole texture scaled to fit 320x180. */
  textureMap: renderTextureMap,
} satisfies Record<string, (input: Buffer) => Promise<unknown>>;

/** The name of a kind of image work. */
export type ImageWorkName = keyof typeof imageWork;
/** What a kind of image work resolves with. */
export type ImageWorkResult<N extends ImageWorkName> = Awaited<ReturnType<(typeof imageWork)[N]>>;
