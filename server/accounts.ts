// Removing an account with everything it owns: gallery items, likes, capes and ears (textures released when unshared).
import type { Db } from './db/database.ts';
import { deleteUser } from './db/users.ts';
import { deleteGalleryItems, itemsByAuthor, removeUserLikes } from './gallery/items.ts';
import type { InvalidationBus } from './mod/invalidation.ts';
import { clearPlayerTextures } from './textures/assign.ts';
import type { TextureLibrary } from './textures/library.ts';

/** Deletes an account, its gallery items and likes, releases its textures and tells the profile caches. */
export async function deleteAccount(db: Db, library: TextureLibrary, bus: InvalidationBus, uuid: string): Promise<void> {
  const galleryTextures = await deleteGalleryItems(db, await itemsByAuthor(db, uuid));
  await removeUserLikes(db, uuid);
  await clearPlayerTextures({ db, library, bus }, uuid);
  await deleteUser(db, uuid);
  await library.release(galleryTextures);
  await bus.publish(uuid);
}
