// Adding a picture to the gallery as an item: its rendered images (its 320 x 180 preview and its texture map) are made
// as the image work of the player adding it, then the picture is stored, the images beside it, and the item added, so
// that viewing an item never causes image work.
import { GALLERY_TYPES } from '../../../src/lib/gallery-rules.ts';
import type { Refused } from '../../../src/lib/refusals.ts';
import { isCapeStrip } from '../../../src/lib/texture-layout.ts';
import type { ImageJobs } from '../image-work/image-jobs.ts';
import { storeAndAssign } from '../library/assign.ts';
import type { TextureLibrary } from '../library/texture-library.ts';
import type { EncodedTexture } from '../pipeline/process.ts';

/** What an item is made of: its picture's hash, the strip's hash for an animation, and its gallery type. */
export interface ItemPicture {
  hash: string;
  stripHash: string | null;
  type: number;
}

/** Adds the gallery item of a picture (the gallery's own step); whether it is new. */
export type AddItem = (picture: ItemPicture) => Promise<boolean>;

/** What adding an item needs: the stored textures and the image jobs that render its images. */
export interface ItemContext {
  library: TextureLibrary;
  imageJobs: ImageJobs;
}

/**
 * Renders an item's preview and texture map as `owner`'s image work; answers the image queue's refusal when they do
 * not fit, otherwise the step that stores them once the picture is stored.
 */
async function renderItemImages(
  imageJobs: ImageJobs,
  picture: EncodedTexture,
  ears: boolean,
  owner: string,
): Promise<{ store: (library: TextureLibrary) => Promise<void> } | Refused> {
  const preview = await imageJobs.attempt(ears ? 'earsPreview' : 'capePreview', picture.bytes, owner);
  if ('refusal' in preview) return preview;
  const map = await imageJobs.attempt('textureMap', picture.bytes, owner);
  if ('refusal' in map) return map;
  return {
    store: async (library) => {
      await library.putDerived(picture.hash, 'preview', preview.value);
      await library.putDerived(picture.hash, 'map', map.value);
    },
  };
}

/**
 * Makes a picture a gallery item (ears, a still cape, or an animation keyed by its strip): its images rendered, then
 * the picture and the images stored and the item added by `addItem`. Answers whether the item is new, or a refusal
 * (the image queue's of the renders, or one `addItem` throws as a RefusedError), and then nothing is stored.
 */
export async function addGalleryItem(
  context: ItemContext,
  picture: EncodedTexture,
  ears: boolean,
  owner: string,
  addItem: AddItem,
): Promise<{ created: boolean } | Refused> {
  const images = await renderItemImages(context.imageJobs, picture, ears, owner);
  if ('refusal' in images) return images;
  const animated = !ears && isCapeStrip(picture);
  const item: ItemPicture = {
    hash: picture.hash,
    stripHash: animated ? picture.hash : null,
    type: ears ? GALLERY_TYPES.ears : animated ? GALLERY_TYPES.animated : GALLERY_TYPES.cape,
  };
  const created = await storeAndAssign(context.library, [{ texture: picture, kind: 'gallery' }], async () => {
    await images.store(context.library);
    return addItem(item);
  });
  return typeof created === 'boolean' ? { created } : created;
}
