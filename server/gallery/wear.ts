// "Wear this": a player puts a listed gallery item on as an upload of the same picture would: a cape (an animated
// item's strip, with its first frame as the still, which plays with the animated feature as an upload does) or ears,
// checked against the blocklist by content and look, and counted as one of the item's wears.
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import { GALLERY_TYPES } from '../../src/lib/gallery-rules.ts';
import type { Refusal } from '../../src/lib/refusals.ts';
import { TextureRejected } from '../textures/pipeline/process.ts';
import { assignPlayerTextures, type PlayerAssignmentContext, type PlayerSlot } from '../textures/library/assign.ts';
import { refuseBlocklistedTexture } from '../textures/library/blocklist.ts';
import { listedItem } from './visibility.ts';

/**
 * What wearing an item needs: the database, the stored textures, the change bus and the image jobs (charged to the
 * player).
 */
export interface WearContext extends PlayerAssignmentContext {
  imageJobs: ImageJobs;
}

/** What a wear put on: the slot, the still's hash and the item's wears since. */
export interface Worn {
  slot: PlayerSlot;
  stillHash: string;
  wears: number;
}

/**
 * Puts a listed gallery item on the player (the slot its kind fills) and counts the wear; null when the item is not in
 * the gallery (missing, hidden, or its picture withheld), the blocklist's refusal for a blocklisted picture. The image
 * queue's refusals are thrown as they are.
 */
export async function wearGalleryItem(
  context: WearContext,
  hash: string,
  playerUuid: string,
): Promise<Worn | { refusal: Refusal } | null> {
  const { db, library, imageJobs } = context;
  const item = await db
    .selectFrom('gallery_items')
    .select(['strip_hash', 'type', 'title'])
    .where('hash', '=', hash)
    .where(listedItem('gallery_items'))
    .executeTakeFirst();
  const row =
    item &&
    (await db
      .selectFrom('textures')
      .select(['width', 'height', 'frames'])
      .where('hash', '=', hash)
      .where('withheld_at', 'is', null)
      .executeTakeFirst());
  const bytes = row ? await library.read(hash) : null;
  if (!item || !row || !bytes) return null;
  const texture = { hash, bytes, width: row.width, height: row.height, frames: row.frames };
  try {
    await refuseBlocklistedTexture(db, imageJobs, texture, playerUuid);
  } catch (error) {
    if (error instanceof TextureRejected) return { refusal: { reason: error.reason, message: error.message } };
    throw error;
  }
  const slot: PlayerSlot = item.type === GALLERY_TYPES.ears ? 'ears' : 'cape';
  const still = item.strip_hash ? await imageJobs.run('stripStill', bytes, playerUuid) : texture;
  const origin = { source: 'gallery' as const, ref: hash, title: item.title };
  await assignPlayerTextures(context, playerUuid, slot, { still, strip: item.strip_hash ? texture : null }, origin);
  const counted = await db
    .updateTable('gallery_items')
    .set((eb) => ({ wears: eb('wears', '+', 1) }))
    .where('hash', '=', hash)
    .returning('wears')
    .executeTakeFirst();
  return { slot, stillHash: still.hash, wears: counted?.wears ?? 0 };
}
