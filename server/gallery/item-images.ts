// A gallery item's rendered images (its 320 x 180 preview and its texture map) are made when the item is added, as the
// image work of the player adding it, and stored beside its texture: viewing an item never causes image work.
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { EncodedTexture } from '../textures/pipeline/process.ts';

/** The renders an item needs, from the image job queue. */
export interface ItemRenderWork {
  run(name: 'capePreview' | 'earsPreview' | 'textureMap', picture: Buffer, owner: string): Promise<Buffer>;
}

/**
 * Renders an item's preview and texture map as `owner`'s image work (throws the queue's refusal when they do not fit);
 * returns the step that stores them once the texture is stored.
 */
export async function renderItemImages(
  work: ItemRenderWork,
  texture: EncodedTexture,
  ears: boolean,
  owner: string,
): Promise<(library: TextureLibrary) => Promise<void>> {
  const preview = await work.run(ears ? 'earsPreview' : 'capePreview', texture.bytes, owner);
  const map = await work.run('textureMap', texture.bytes, owner);
  return async (library) => {
    await library.putDerived(texture.hash, 'preview', preview);
    await library.putDerived(texture.hash, 'map', map);
  };
}
