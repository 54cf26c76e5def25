// Removing an account with everything it owns: gallery items, likes, capes, ears and the wardrobe (textures released
// when unshared, and withheld when only a moderator's evidence still refers to them), and the apps it connected
// (audited).
import type { Transaction } from 'kysely';
import type { Moderator } from '../audit/record.ts';
import { disconnectEveryApp } from '../auth/app-grants.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { deleteUser } from '../db/users.ts';
import { deleteGalleryItems, itemsByAuthor, removeUserLikes } from '../gallery/items.ts';
import type { InvalidationBus } from '../events/invalidation.ts';
import { clearPlayerTextures } from '../textures/library/assign.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { wardrobeHashes } from '../textures/library/wardrobe-items.ts';

/**
 * Deletes an account, its gallery items and likes, and tells the profile caches; its textures are removed, or withheld
 * when another reference that nobody sees keeps them (the AI log), once the account's reports are gone with it. The
 * apps it connected are disconnected, audited as done by `by` (the player, or the moderator deleting the account).
 * `alsoInTransaction` runs in the same transaction as the removal of the account's row (an admin deletion's audit row).
 */
export async function deleteAccount(
  db: Db,
  library: TextureLibrary,
  bus: InvalidationBus,
  uuid: string,
  by: Moderator,
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>,
): Promise<void> {
  const galleryTextures = await deleteGalleryItems(db, await itemsByAuthor(db, uuid));
  await removeUserLikes(db, uuid);
  const worn = (await clearPlayerTextures({ db, library, bus }, uuid)) ?? [];
  const kept = await wardrobeHashes(db, uuid);
  await db.transaction().execute(async (trx) => {
    await disconnectEveryApp(trx, uuid, by, 'the account was deleted');
    await deleteUser(trx, uuid);
    await alsoInTransaction?.(trx);
  });
  // The reports of the player went with the account: what they alone kept is released now, not at the next sweep.
  await library.retire([...galleryTextures, ...worn, ...kept]);
  await bus.publish(uuid);
}
