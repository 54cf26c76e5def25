// A moderator's removal of a picture: the one operation behind every way a moderator takes a picture down (a gallery
// item's Delete on someone else's item, a gallery report's REMOVE and BAN, a player report's REMOVE, the edit user
// page's delete cape and delete ears).
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deleteItemsShowing } from '../gallery/items.ts';
import { takeOffEveryWearer, type AssignmentContext } from '../textures/library/assign.ts';
import { prepareBlocklisting, type BlocklistContext, type RemovedTexture } from '../textures/library/blocklist.ts';
import { lockPictures } from '../textures/library/picture-locks.ts';
import { recordAdminAction, removalDetail, type AdminAction, type Moderator } from '../audit/record.ts';
import { auditThumbnail } from './audit-thumbnail.ts';

/** What a removal needs: the database, the stored textures, the change bus and the image jobs that hash the pictures. */
export type RemovalContext = AssignmentContext & BlocklistContext;

/** A removal: the pictures, the audit row's action, player and detail, and the reason the blocklist keeps. */
export interface PictureRemoval {
  /** The pictures: a still (or a gallery animation's strip) and, for an animated cape, its strip. */
  pictures: RemovedTexture[];
  /** The audit row's action (`GALLERY_DELETE`, `CAPE_DELETE`, …), player and detail; its thumbnail is the first picture. */
  audit: Pick<AdminAction, 'action' | 'target' | 'detail'>;
  /** Why: the reason's text, kept by the audit row and the blocklist. */
  reason: string;
  /** Runs inside the removal's transaction before its audit row (closing the report it answers); a throw undoes all. */
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>;
}

/** The hashes a removal names: each picture and its strip, once. */
function removalHashes(pictures: RemovedTexture[]): string[] {
  return [...new Set(pictures.flatMap((picture) => [picture.hash, picture.stripHash]))].filter((hash): hash is string =>
    Boolean(hash),
  );
}

/**
 * Removes pictures as a moderator; answers how many players lost them. In one transaction, holding the pictures alone
 * so that no player can be given them meanwhile, it withholds them (no public URL serves them again; the moderators
 * keep their evidence), takes them off every player wearing them and out of every wardrobe, takes every gallery item
 * showing them out of the gallery (with its likes and reports), puts them on the blocklist and writes one audit row:
 * who removed them, why, and how many players lost them. Once that commits, one notice per change reaches the answer
 * files, the caches and every process.
 */
export async function removePictures(
  context: RemovalContext,
  moderator: Moderator,
  removal: PictureRemoval,
  now = Date.now(),
): Promise<{ players: number }> {
  const { db, library, bus } = context;
  const hashes = removalHashes(removal.pictures);
  // Image work first, outside the transaction: work that fails leaves everything in place.
  const block = await prepareBlocklisting(
    context,
    removal.pictures,
    { reason: removal.reason, adminUuid: moderator.uuid },
    now,
  );
  const thumbnail = await auditThumbnail(context, removal.pictures[0]?.hash ?? null);
  const done = await db.transaction().execute(async (trx) => {
    await lockPictures(trx, hashes, 'alone');
    const withheld = await library.withhold(trx, hashes, now);
    const takenOff = await takeOffEveryWearer(trx, hashes);
    const items = await deleteItemsShowing(trx, hashes);
    await block(trx);
    await removal.alsoInTransaction?.(trx);
    await recordAdminAction(
      trx,
      moderator,
      {
        ...removal.audit,
        targetHash: removal.pictures[0]?.hash ?? null,
        thumbnail,
        reason: removal.reason,
        detail: removalDetail(takenOff.players.length, removal.audit.detail ?? undefined),
      },
      now,
    );
    return { withheld, takenOff, items };
  });
  await library.announceWithheld(done.withheld);
  await library.release([...done.takenOff.hashes, ...done.items]);
  for (const uuid of done.takenOff.players) await bus.publish(uuid);
  return { players: done.takenOff.players.length };
}

/**
 * A moderator's Delete of someone else's gallery item: its picture removed as every removal is (off every wearer, out
 * of the gallery, on the blocklist), for the reason picked; answers how many players lost it.
 */
export async function removeGalleryItem(
  context: RemovalContext,
  moderator: Moderator,
  item: { hash: string; strip_hash: string | null; author_uuid: string },
  reason: string,
): Promise<{ players: number }> {
  const author = await context.db
    .selectFrom('users')
    .select(['uuid', 'username'])
    .where('uuid', '=', item.author_uuid)
    .executeTakeFirst();
  return removePictures(context, moderator, {
    pictures: [{ hash: item.hash, stripHash: item.strip_hash }],
    audit: { action: 'GALLERY_DELETE', target: author ?? null },
    reason,
  });
}
