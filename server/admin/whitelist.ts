// The gallery whitelist: textures staff marked safe, which cannot be reported; a moderator can take the
// mark back (audited).
import type { Db } from '../db/database.ts';
import { rowsPage } from '../db/rows-page.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';

/** A whitelisted texture as the whitelist page shows it. */
export interface WhitelistEntry {
  hash: string;
  title: string;
  author_name: string;
  author_uuid: string;
}

/**
 * One page of whitelisted textures, newest first (from the partial index of migration 0008), and how many there are.
 */
export async function whitelistPage(
  db: Db,
  page: number,
  perPage: number,
): Promise<{ rows: WhitelistEntry[]; total: number }> {
  return rowsPage(
    db.selectFrom('gallery_items').where('whitelisted', '=', 1),
    (whitelisted) =>
      whitelisted
        .innerJoin('users', 'users.uuid', 'gallery_items.author_uuid')
        .select([
          'gallery_items.hash',
          'gallery_items.title',
          'users.username as author_name',
          'users.uuid as author_uuid',
        ])
        .orderBy('gallery_items.created_at', 'desc')
        .orderBy('gallery_items.hash', 'desc'),
    page,
    perPage,
  );
}

/** Takes a texture off the whitelist, so it can be reported again (audited); false when it is not whitelisted. */
export async function removeFromWhitelist(db: Db, moderator: Moderator, hash: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const item = await trx
      .selectFrom('gallery_items')
      .innerJoin('users', 'users.uuid', 'gallery_items.author_uuid')
      .select(['users.uuid', 'users.username'])
      .where('gallery_items.hash', '=', hash)
      .where('gallery_items.whitelisted', '=', 1)
      .executeTakeFirst();
    if (!item) return false;
    await trx.updateTable('gallery_items').set({ whitelisted: 0 }).where('hash', '=', hash).execute();
    await recordAdminAction(trx, moderator, { action: 'UNWHITELIST', target: item, targetHash: hash });
    return true;
  });
}
