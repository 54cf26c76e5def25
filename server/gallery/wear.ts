// "Wear this": a player puts a listed gallery item on as an upload of the same picture would: a cape (an animated
// item's strip, with its first frame as the still, which plays with the animated feature as an upload does) or ears,
// taken in by the texture intake (checked against the blocklist by content and look), and counted as one of the item's
// wears.
import { GALLERY_TYPES } from '../../src/lib/gallery-rules.ts';
import type { Refused } from '../../src/lib/refusals.ts';
import type { Db } from '../db/database.ts';
import type { TextureIntake } from '../textures/intake/intake.ts';
import type { PlayerSlot } from '../textures/library/assign.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { listedItem } from './visibility.ts';

/** What wearing an item needs: the database, the stored textures and the intake. */
export interface WearContext {
  db: Db;
  library: TextureLibrary;
  intake: TextureIntake;
}

/** What a wear put on: the slot, the still's hash and the item's wears since. */
export interface WornItem {
  slot: PlayerSlot;
  stillHash: string;
  wears: number;
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
  const counted = await db
    .updateTable('gallery_items')
    .set((eb) => ({ wears: eb('wears', '+', 1) }))
    .where('hash', '=', hash)
    .returning('wears')
    .executeTakeFirst();
  return { slot, stillHash: worn.stillHash, wears: counted?.wears ?? 0 };
}
