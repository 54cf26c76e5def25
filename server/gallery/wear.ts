// "Wear this": a player puts a listed gallery item on as an upload of the same picture would: a cape (an animated
// item's strip, with its first frame as the still, which plays with the animated feature as an upload does) or ears,
// taken in by the texture intake (checked against the blocklist by content and look), and its wearer counted once
// among the item's wears.
import { GALLERY_TYPES } from '../../src/lib/gallery-rules.ts';
import type { Refused } from '../../src/lib/refusals.ts';
import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';
import type { TextureIntake } from '../textures/intake/intake.ts';
import type { PlayerSlot } from '../textures/library/player-columns.ts';
import { lockPictures } from '../textures/library/picture-locks.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { listedItem } from './visibility.ts';

/** What wearing an item needs: the database, the stored textures and the intake. */
export interface WearContext {
  db: Db;
  library: TextureLibrary;
  intake: TextureIntake;
}

/** What a wear put on: the slot, the still's hash and the item's wears (players who wore it) since. */
export interface WornItem {
  slot: PlayerSlot;
  stillHash: string;
  wears: number;
}

/**
 * Counts a player among an item's wearers, once however often they wear it, and returns the item's wears (players)
 * since; 0 when the item was deleted meanwhile. Its picture is held first, as setting a player's textures holds it, so
 * a moderator's removal (which holds its pictures before its wearers' rows and items) waits for the count or comes
 * wholly before it.
 */
async function countWearer(db: Db, hash: string, playerUuid: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockPictures(trx, [hash], 'shared');
    const item = await trx
      .selectFrom('gallery_items')
      .select('wears')
      .where('hash', '=', hash)
      .$if(isPostgres(trx), (query) => query.forUpdate())
      .executeTakeFirst();
    if (!item) return 0;
    const added = await trx
      .insertInto('gallery_wearers')
      .values({ hash, user_uuid: playerUuid })
      .onConflict((conflict) => conflict.columns(['hash', 'user_uuid']).doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return item.wears;
    await trx
      .updateTable('gallery_items')
      .set((eb) => ({ wears: eb('wears', '+', 1) }))
      .where('hash', '=', hash)
      .execute();
    return item.wears + 1;
  });
}

/**
 * Puts a listed gallery item on the player (the slot its kind fills) and counts the wear; null when the item is not in
 * the gallery (missing, hidden, or its picture withheld), the intake's refusal (a blocklisted picture, the image
 * queue's limits).
 */
export async function wearGalleryItem(
  context: WearContext,
  hash: string,
  playerUuid: string,
): Promise<WornItem | Refused | null> {
  const { db, library, intake } = context;
  const item = await db
    .selectFrom('gallery_items')
    .select(['type', 'title'])
    .where('hash', '=', hash)
    .where(listedItem('gallery_items'))
    .executeTakeFirst();
  const texture = item ? await library.readTexture(hash, { withheld: false }) : null;
  if (!item || !texture) return null;
  const slot: PlayerSlot = item.type === GALLERY_TYPES.ears ? 'ears' : 'cape';
  const origin = { source: 'gallery' as const, ref: hash, title: item.title };
  const worn = await intake.wear({ picture: texture, origin }, slot, playerUuid);
  if ('refusal' in worn) return worn;
  const wears = await countWearer(db, hash, playerUuid);
  return { slot, stillHash: worn.stillHash, wears };
}
