// Which gallery items are listed: a banned author's items are hidden (gallery_items.hidden = 1, migration 0009) and
// leave every gallery read and counter until the unban shows them again, with their likes, tags and downloads; only
// moderators still see their pictures.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/users.ts';
import { isPostgres } from '../db/dialect.ts';
import { applyCounterDeltas, counterKey } from './counts.ts';

/**
 * Whether a viewer may see the pictures of items hidden from the gallery: moderators may (the report queue shows them).
 */
export function seesHiddenItems(viewer: Pick<UserRow, 'group'>): boolean {
  return viewer.group.admin;
}

/**
 * The condition that an item is listed. The 0 is written into the SQL, not bound: the sort indexes are partial
 * (WHERE hidden = 0) and SQLite only uses a partial index when the query's condition names the same constant.
 */
export function listedItem(table: 'g' | 'gallery_items'): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${table}.hidden`)} = 0`;
}

/**
 * Hides an author's listed items (`hidden` true, at a ban) or shows their hidden ones again (false, at an unban), and
 * moves the counters by what left or joined the gallery. Run it in the ban's transaction; the title indexes (SQLite
 * FTS, PostgreSQL gallery_title_counts) follow by trigger.
 */
export async function setAuthorItemsHidden(trx: Db, authorUuid: string, hidden: boolean): Promise<void> {
  const from = hidden ? 0 : 1;
  // PostgreSQL: lock the rows first, so a concurrent edit or delete of one of them cannot change what is counted below.
  if (isPostgres(trx)) {
    await trx
      .selectFrom('gallery_items')
      .select('hash')
      .where('author_uuid', '=', authorUuid)
      .where('hidden', '=', from)
      .forUpdate()
      .execute();
  }
  const types = await trx
    .selectFrom('gallery_items')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('author_uuid', '=', authorUuid)
    .where('hidden', '=', from)
    .groupBy('type')
    .execute();
  const tags = await trx
    .selectFrom('gallery_tags as t')
    .innerJoin('gallery_items as g', 'g.hash', 't.hash')
    .select(['t.tag_key', 'g.type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('g.author_uuid', '=', authorUuid)
    .where('g.hidden', '=', from)
    .groupBy(['t.tag_key', 'g.type'])
    .execute();
  if (types.length === 0) return;
  // The items change first (their title triggers), then the counters: the order every gallery write takes.
  await trx
    .updateTable('gallery_items')
    .set({ hidden: hidden ? 1 : 0 })
    .where('author_uuid', '=', authorUuid)
    .where('hidden', '=', from)
    .execute();
  const sign = hidden ? -1 : 1;
  const deltas = new Map<string, number>();
  for (const row of types) deltas.set(counterKey(row.type), sign * Number(row.n));
  for (const row of tags) deltas.set(counterKey(row.type, row.tag_key), sign * Number(row.n));
  await applyCounterDeltas(trx, deltas);
}
