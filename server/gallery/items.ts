// Gallery writes: new items, edits, deletion, likes, downloads and reports; counters move in the same transaction.
import type { Expression, ExpressionBuilder, SqlBool, Transaction } from 'kysely';
import type { ReportGrounds } from '../../src/lib/report-rules.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { isPostgres } from '../db/dialect.ts';
import type { ReferenceCounter } from '../textures/library/texture-library.ts';
import { refuseRemovedPictures } from '../textures/library/picture-locks.ts';
import { adjustCounters } from './counts.ts';
import { listedItem } from './visibility.ts';

/** A new item's fields (texture already stored). */
export interface NewGalleryItem {
  hash: string;
  stripHash: string | null;
  title: string;
  authorUuid: string;
  type: number;
  tags: string[];
}

/** Counts references to a hash from gallery items (still or strip), for the texture library. */
export const countGalleryReferences: ReferenceCounter = (db, hash) => countItemsOf(db, hash, false);

/** Counts the gallery items that show a hash publicly: those not hidden (a banned author's items are). */
export const countVisibleGalleryReferences: ReferenceCounter = (db, hash) => countItemsOf(db, hash, true);

async function countItemsOf(db: Db, hash: string, visibleOnly: boolean): Promise<number> {
  const row = await db
    .selectFrom('gallery_items')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => eb.or([eb('hash', '=', hash), eb('strip_hash', '=', hash)]))
    .$if(visibleOnly, (query) => query.where('hidden', '=', 0))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The tag keys among `keys` that exist. */
export async function existingTags(db: Db, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('tags').select('tag_key').where('tag_key', 'in', keys).execute();
  return rows.map((row) => row.tag_key);
}

/**
 * The stored fields of a listed item needed for permission checks, or undefined; `includeHidden` also finds a banned
 * author's item (for moderators).
 */
export async function galleryItemOwner(db: Db, hash: string, includeHidden = false) {
  return db
    .selectFrom('gallery_items')
    .select(['hash', 'strip_hash', 'author_uuid', 'type', 'whitelisted', 'title'])
    .where('hash', '=', hash)
    .$if(!includeHidden, (query) => query.where(listedItem('gallery_items')))
    .executeTakeFirst();
}

/**
 * Adds an item unless one with that hash exists (hidden if its author is banned); returns whether it was added. A
 * picture a moderator removed meanwhile is refused inside the transaction (refuseRemovedPictures), as giving a player a
 * picture at it is.
 */
export async function createGalleryItem(db: Db, item: NewGalleryItem, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await refuseRemovedPictures(
      trx,
      [item.hash, item.stripHash].filter((hash): hash is string => Boolean(hash)),
    );
    // The share lock waits for a ban of the author under way, so the item is hidden by it or created hidden.
    const author = await trx
      .selectFrom('users')
      .select('banned')
      .where('uuid', '=', item.authorUuid)
      .$if(isPostgres(db), (query) => query.forShare())
      .executeTakeFirst();
    const hidden = author?.banned === 1;
    const inserted = await trx
      .insertInto('gallery_items')
      .values({
        hash: item.hash,
        strip_hash: item.stripHash,
        title: item.title,
        title_lower: item.title.toLowerCase(),
        author_uuid: item.authorUuid,
        type: item.type,
        created_at: now,
        hidden: hidden ? 1 : 0,
      })
      .onConflict((oc) => oc.column('hash').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    await trx
      .insertInto('gallery_tags')
      .values(item.tags.map((tag_key) => ({ hash: item.hash, tag_key })))
      .execute();
    if (!hidden) await adjustCounters(trx, item.type, item.tags, 1);
    return true;
  });
}

/** Changes an item's title and tags (the counters move only for a listed item). */
export async function editGalleryItem(db: Db, hash: string, title: string, tags: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The row lock makes concurrent edits of one item take turns (SQLite transactions already do).
    const item = await trx
      .selectFrom('gallery_items')
      .select(['type', 'hidden'])
      .where('hash', '=', hash)
      .$if(isPostgres(db), (query) => query.forUpdate())
      .executeTakeFirstOrThrow();
    const counted = item.hidden === 0;
    const before = await trx.selectFrom('gallery_tags').select('tag_key').where('hash', '=', hash).execute();
    if (counted) {
      await adjustCounters(
        trx,
        item.type,
        before.map((row) => row.tag_key),
        -1,
      );
    }
    await trx
      .updateTable('gallery_items')
      .set({ title, title_lower: title.toLowerCase() })
      .where('hash', '=', hash)
      .execute();
    await trx.deleteFrom('gallery_tags').where('hash', '=', hash).execute();
    await trx
      .insertInto('gallery_tags')
      .values(tags.map((tag_key) => ({ hash, tag_key })))
      .execute();
    if (counted) await adjustCounters(trx, item.type, tags, 1);
    // The per-type counter was moved by -1 and +1 above; it is unchanged overall.
  });
}

/**
 * Removes items (with their tags, likes and reports) and moves the counters of the listed ones, running
 * `alsoInTransaction` in the same transaction (an admin removal's audit row); returns the texture hashes of the items
 * it removed.
 */
export async function deleteGalleryItems(
  db: Db,
  hashes: string[],
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>,
): Promise<string[]> {
  if (hashes.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await alsoInTransaction?.(trx);
    return deleteItemsWhere(trx, (eb) => eb('hash', 'in', hashes));
  });
}

/**
 * Removes every item that shows one of `pictures` (as its picture or its strip) inside the caller's transaction (a
 * moderator's removal of those pictures), with its tags, likes and reports, moving the counters of the listed ones;
 * returns the texture hashes of the items it removed.
 */
export async function deleteItemsShowing(trx: Transaction<Database>, pictures: string[]): Promise<string[]> {
  if (pictures.length === 0) return [];
  return deleteItemsWhere(trx, (eb) => eb.or([eb('hash', 'in', pictures), eb('strip_hash', 'in', pictures)]));
}

/** Removes the items `which` selects (rows locked on PostgreSQL) and moves the counters; their texture hashes. */
async function deleteItemsWhere(
  trx: Transaction<Database>,
  which: (eb: ExpressionBuilder<Database, 'gallery_items'>) => Expression<SqlBool>,
): Promise<string[]> {
  const items = await trx
    .selectFrom('gallery_items')
    .select(['hash', 'strip_hash', 'type', 'hidden'])
    .where(which)
    .$if(isPostgres(trx), (query) => query.forUpdate())
    .execute();
  if (items.length === 0) return [];
  const tags = await trx
    .selectFrom('gallery_tags')
    .select(['hash', 'tag_key'])
    .where(
      'hash',
      'in',
      items.map((item) => item.hash),
    )
    .execute();
  const removed = await trx
    .deleteFrom('gallery_items')
    .where(
      'hash',
      'in',
      items.map((item) => item.hash),
    )
    .returning('hash')
    .execute();
  const removedHashes = new Set(removed.map((row) => row.hash));
  // A hidden item (banned author) left the counters when it was hidden.
  for (const item of items.filter((candidate) => removedHashes.has(candidate.hash) && candidate.hidden === 0)) {
    await adjustCounters(
      trx,
      item.type,
      tags.filter((tag) => tag.hash === item.hash).map((tag) => tag.tag_key),
      -1,
    );
  }
  return items
    .filter((item) => removedHashes.has(item.hash))
    .flatMap((item) => [item.hash, item.strip_hash])
    .filter((hash): hash is string => Boolean(hash));
}

/** The hashes of every item an author uploaded. */
export async function itemsByAuthor(db: Db, authorUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('gallery_items').select('hash').where('author_uuid', '=', authorUuid).execute();
  return rows.map((row) => row.hash);
}

/**
 * Likes or unlikes an item for a user; returns the new state and like count, or null when the item is gone (deleted
 * meanwhile). A repeated click never counts twice. The item's row is locked first, as a deletion locks it, so a like
 * racing the item's deletion waits for it instead of deadlocking with it.
 */
export async function toggleLike(
  db: Db,
  hash: string,
  userUuid: string,
): Promise<{ liked: boolean; total_user_likes: number } | null> {
  return db.transaction().execute(async (trx) => {
    const item = await trx
      .selectFrom('gallery_items')
      .select('hash')
      .where('hash', '=', hash)
      .$if(isPostgres(db), (query) => query.forUpdate())
      .executeTakeFirst();
    if (!item) return null;
    const removed = await trx
      .deleteFrom('gallery_likes')
      .where('hash', '=', hash)
      .where('user_uuid', '=', userUuid)
      .executeTakeFirst();
    let change = 0;
    if (Number(removed.numDeletedRows) > 0) change = -1;
    else {
      const added = await trx
        .insertInto('gallery_likes')
        .values({ hash, user_uuid: userUuid })
        .onConflict((oc) => oc.columns(['hash', 'user_uuid']).doNothing())
        .executeTakeFirst();
      change = Number(added.numInsertedOrUpdatedRows ?? 0) > 0 ? 1 : 0;
    }
    const row = await trx
      .updateTable('gallery_items')
      .set((eb) => ({ likes: eb('likes', '+', change) }))
      .where('hash', '=', hash)
      .returning('likes')
      .executeTakeFirstOrThrow();
    return { liked: change >= 0, total_user_likes: row.likes };
  });
}

/** Counts one download of an item. */
export async function recordDownload(db: Db, hash: string): Promise<void> {
  await db
    .updateTable('gallery_items')
    .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
    .where('hash', '=', hash)
    .execute();
}

/** Files a user's report of an item with its grounds; false when that user already reported it. */
export async function reportGalleryItem(
  db: Db,
  hash: string,
  reporterUuid: string,
  grounds: ReportGrounds,
  now = Date.now(),
): Promise<boolean> {
  const inserted = await db
    .insertInto('gallery_reports')
    .values({ hash, reporter_uuid: reporterUuid, reason_key: grounds.reasonKey, note: grounds.note, created_at: now })
    .onConflict((oc) => oc.columns(['hash', 'reporter_uuid']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Takes back every like a user gave (before the account goes), keeping the like counts right. */
export async function removeUserLikes(db: Db, userUuid: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('gallery_items')
      .set((eb) => ({ likes: eb('likes', '-', 1) }))
      .where('hash', 'in', (eb) => eb.selectFrom('gallery_likes').select('hash').where('user_uuid', '=', userUuid))
      .execute();
    await trx.deleteFrom('gallery_likes').where('user_uuid', '=', userUuid).execute();
  });
}
