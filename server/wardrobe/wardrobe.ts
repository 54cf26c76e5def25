// A player's wardrobe: the capes and ears they have had (kept by the texture library's wardrobe rows), listed with
// which is worn, and worn again, taken off, renamed or removed in one call.
import type { Refused } from '../../src/lib/refusals.ts';
import type { Db } from '../db/database.ts';
import type { TextureIntake } from '../textures/intake/intake.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { wornPictures } from '../textures/library/wardrobe-items.ts';
import { removeWardrobeItem as removeFromWardrobe, type AssignmentContext } from '../textures/library/assign.ts';

/** How long the page tells of an item a full wardrobe let go. */
const DROP_SHOWN_MS = 7 * 24 * 60 * 60_000;

/** What the wardrobe calls need: the database, the stored textures and the texture intake. */
export interface WardrobeContext extends AssignmentContext {
  db: Db;
  library: TextureLibrary;
  intake: TextureIntake;
}

/** One wardrobe item as the listing gives it. */
export interface WardrobeEntry {
  id: string;
  kind: 'cape' | 'ears';
  /** The still picture: an animation's first frame. */
  stillHash: string;
  /** An animated cape's strip, or null. */
  stripHash: string | null;
  source: 'upload' | 'creator' | 'gallery';
  galleryHash: string | null;
  title: string | null;
  /** The player's name for it, or the uploaded file's name. */
  name: string | null;
  addedAt: number;
  worn: boolean;
}

/** A player's wardrobe: the items, newest first, and the last item a full wardrobe let go, if recent. */
export interface WardrobeListing {
  items: WardrobeEntry[];
  dropped: { kind: 'cape' | 'ears'; title: string | null; added_at: number; dropped_at: number } | null;
}

/** Lists a player's wardrobe, newest first, with which items they wear now. */
export async function listWardrobe(db: Db, uuid: string, now = Date.now()): Promise<WardrobeListing> {
  const rows = await db
    .selectFrom('wardrobe_items')
    .selectAll()
    .where('user_uuid', '=', uuid)
    .orderBy('added_at', 'desc')
    .orderBy('id')
    .execute();
  const worn = await wornPictures(db, uuid);
  const drop = await db
    .selectFrom('wardrobe_drops')
    .select(['kind', 'title', 'added_at', 'dropped_at'])
    .where('user_uuid', '=', uuid)
    .where('dropped_at', '>', now - DROP_SHOWN_MS)
    .executeTakeFirst();
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      stillHash: row.still_hash ?? row.hash,
      stripHash: row.still_hash ? row.hash : null,
      source: row.source,
      galleryHash: row.source === 'gallery' ? row.source_ref : null,
      title: row.title,
      name: row.name,
      addedAt: Number(row.added_at),
      worn: worn.includes(row.hash),
    })),
    dropped: drop ? { ...drop, added_at: Number(drop.added_at), dropped_at: Number(drop.dropped_at) } : null,
  };
}

/** One of the player's own items, or undefined. */
async function ownItem(db: Db, uuid: string, id: string) {
  return db
    .selectFrom('wardrobe_items')
    .selectAll()
    .where('id', '=', id)
    .where('user_uuid', '=', uuid)
    .executeTakeFirst();
}

/**
 * Puts one of the player's items on (the slot its kind fills) through the texture intake, checked against the
 * blocklist as an upload is: true when worn, false when the item is not theirs (or its picture is gone or withheld), or
 * the intake's refusal.
 */
export async function wearWardrobeItem(context: WardrobeContext, uuid: string, id: string): Promise<boolean | Refused> {
  const { db, library, intake } = context;
  const item = await ownItem(db, uuid, id);
  if (!item) return false;
  const picture = await library.readTexture(item.hash, { withheld: false });
  const still = item.still_hash ? await library.readTexture(item.still_hash, { withheld: false }) : picture;
  if (!picture || !still) return false;
  const worn = await intake.wear({ picture, still, origin: null }, item.kind, uuid);
  return 'refusal' in worn ? worn : true;
}

/** Takes one of the player's items off when they wear it; false when the item is not theirs. */
export async function takeOffWardrobeItem(context: WardrobeContext, uuid: string, id: string): Promise<boolean> {
  const item = await ownItem(context.db, uuid, id);
  if (!item) return false;
  if ((await wornPictures(context.db, uuid)).includes(item.hash)) await context.intake.takeOff(item.kind, uuid);
  return true;
}

/** Names one of the player's items (null takes its name away); false when the item is not theirs. */
export async function renameWardrobeItem(db: Db, uuid: string, id: string, name: string | null): Promise<boolean> {
  const renamed = await db
    .updateTable('wardrobe_items')
    .set({ name })
    .where('id', '=', id)
    .where('user_uuid', '=', uuid)
    .executeTakeFirst();
  return Number(renamed.numUpdatedRows) === 1;
}

/**
 * Removes one of the player's items from their wardrobe, taking it off first when they wear it, in one transaction, and
 * releases its pictures unless something else keeps them; false when the item is not theirs.
 */
export async function removeWardrobeItem(context: WardrobeContext, uuid: string, id: string): Promise<boolean> {
  return removeFromWardrobe(context, uuid, id);
}
