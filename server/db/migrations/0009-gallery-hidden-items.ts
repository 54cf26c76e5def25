// Migration 0009_gallery_hidden_items (the name the migrator records): a banned author's items hidden from the gallery
// (partial sort indexes, title search of listed items).
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { isPostgres } from '../dialect.ts';
import { GALLERY_SORT_COLUMNS, type MigrationDb } from './helpers.ts';

/**
 * The sort index of `column` as 0004 (PostgreSQL, INCLUDE) and 0005 (SQLite, trailing columns) define it; `listedOnly`
 * keeps hidden items out.
 */
function gallerySortIndexSql(postgres: boolean, column: (typeof GALLERY_SORT_COLUMNS)[number], listedOnly: boolean) {
  const name = sql.ref(`gallery_items_${column}`);
  const where = listedOnly ? sql` WHERE hidden = 0` : sql``;
  if (postgres) {
    const carried = column === 'title_lower' ? sql`type` : sql`title_lower, type`;
    return sql`CREATE INDEX ${name} ON gallery_items (${sql.ref(column)}, hash) INCLUDE (${carried})${where}`;
  }
  const carried = column === 'title_lower' ? sql`type` : sql`type, title_lower`;
  return sql`CREATE INDEX ${name} ON gallery_items (${sql.ref(column)}, hash, ${carried})${where}`;
}

/**
 * SQLite: the FTS triggers of 0003; with `listedOnly` the title index holds listed items only (hiding removes, showing
 * adds).
 */
async function createGalleryFtsTriggers(db: MigrationDb, listedOnly: boolean) {
  const listed = (row: 'new' | 'old') => (listedOnly ? sql` WHERE ${sql.raw(row)}.hidden = 0` : sql``);
  const columns = listedOnly ? sql`title_lower, hidden` : sql`title_lower`;
  await sql`CREATE TRIGGER gallery_items_fts_insert AFTER INSERT ON gallery_items BEGIN
    INSERT INTO gallery_title_fts(rowid, title_lower) SELECT new.rowid, new.title_lower${listed('new')}; END`.execute(
    db,
  );
  await sql`CREATE TRIGGER gallery_items_fts_delete AFTER DELETE ON gallery_items BEGIN
    INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) SELECT 'delete', old.rowid, old.title_lower${listed('old')}; END`.execute(
    db,
  );
  await sql`CREATE TRIGGER gallery_items_fts_update AFTER UPDATE OF ${columns} ON gallery_items BEGIN
    INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) SELECT 'delete', old.rowid, old.title_lower${listed('old')};
    INSERT INTO gallery_title_fts(rowid, title_lower) SELECT new.rowid, new.title_lower${listed('new')}; END`.execute(
    db,
  );
}

/**
 * PostgreSQL: the body of gallery_title_counts_sync() (0006); with `listedOnly` only listed items count, and hiding or
 * showing an item moves its title's count. Each statement still applies its net change per title in title order.
 */
function galleryTitleCountsSyncSql(listedOnly: boolean) {
  const listed = listedOnly ? sql`WHERE hidden = 0` : sql``;
  const oldChange = listedOnly ? sql`CASE WHEN OLD.hidden = 0 THEN -1 ELSE 0 END` : sql`-1`;
  const newChange = listedOnly ? sql`CASE WHEN NEW.hidden = 0 THEN 1 ELSE 0 END` : sql`1`;
  return sql`CREATE OR REPLACE FUNCTION gallery_title_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, count(*) FROM new_items ${listed} GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, -count(*) FROM old_items ${listed} GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower IN (SELECT title_lower FROM old_items);
        ELSE
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, sum(change) FROM (VALUES (OLD.title_lower, ${oldChange}), (NEW.title_lower, ${newChange})) AS t (title_lower, change)
            GROUP BY title_lower HAVING sum(change) <> 0 ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower IN (OLD.title_lower, NEW.title_lower);
        END IF;
        RETURN NULL;
      END $$`;
}

/** PostgreSQL: the row-level title trigger of 0006; with `listedOnly` it also runs when an item is hidden or shown. */
function galleryTitleCountsUpdateTriggerSql(listedOnly: boolean) {
  const columns = listedOnly ? sql`title_lower, hidden` : sql`title_lower`;
  const changed = listedOnly
    ? sql`OLD.title_lower IS DISTINCT FROM NEW.title_lower OR OLD.hidden IS DISTINCT FROM NEW.hidden`
    : sql`OLD.title_lower IS DISTINCT FROM NEW.title_lower`;
  return sql`CREATE TRIGGER gallery_items_title_counts_update AFTER UPDATE OF ${columns} ON gallery_items
      FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION gallery_title_counts_sync()`;
}

/**
 * A banned author's items leave the gallery (`hidden` = 1) and come back on the unban. The listed set is what the hot
 * queries read: the sort indexes become partial (WHERE hidden = 0) with the same columns, so every listing keeps its
 * index walk; SQLite's FTS title index and PostgreSQL's gallery_title_counts hold listed items only; the counters
 * (gallery_counts) are moved by the ban and unban themselves (server/gallery/visibility.ts).
 */
export const galleryHiddenItems: Migration = {
  async up(db: MigrationDb) {
    const postgres = isPostgres(db);
    await db.schema
      .alterTable('gallery_items')
      .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await gallerySortIndexSql(postgres, column, true).execute(db);
    }
    if (postgres) {
      await galleryTitleCountsSyncSql(true).execute(db);
      await sql`DROP TRIGGER gallery_items_title_counts_update ON gallery_items`.execute(db);
      await galleryTitleCountsUpdateTriggerSql(true).execute(db);
    } else {
      for (const event of ['insert', 'delete', 'update'])
        await sql`DROP TRIGGER ${sql.ref(`gallery_items_fts_${event}`)}`.execute(db);
      await createGalleryFtsTriggers(db, true);
    }
  },
  async down(db: MigrationDb) {
    const postgres = isPostgres(db);
    // Hidden items rejoin the gallery; the counters and title counts are rebuilt from every item.
    if (postgres) {
      await sql`DROP TRIGGER gallery_items_title_counts_update ON gallery_items`.execute(db);
      await galleryTitleCountsUpdateTriggerSql(false).execute(db);
      await galleryTitleCountsSyncSql(false).execute(db);
      await sql`DELETE FROM gallery_title_counts`.execute(db);
      await sql`INSERT INTO gallery_title_counts (title_lower, items) SELECT title_lower, count(*) FROM gallery_items GROUP BY title_lower`.execute(
        db,
      );
    } else {
      for (const event of ['insert', 'delete', 'update'])
        await sql`DROP TRIGGER ${sql.ref(`gallery_items_fts_${event}`)}`.execute(db);
      await createGalleryFtsTriggers(db, false);
      await sql`INSERT INTO gallery_title_fts(gallery_title_fts) VALUES ('rebuild')`.execute(db);
    }
    await sql`DELETE FROM gallery_counts`.execute(db);
    await sql`INSERT INTO gallery_counts (key, n) SELECT 'type:' || type, count(*) FROM gallery_items GROUP BY type`.execute(
      db,
    );
    await sql`INSERT INTO gallery_counts (key, n)
      SELECT 'tag:' || t.tag_key || ':type:' || g.type, count(*) FROM gallery_tags t JOIN gallery_items g ON g.hash = t.hash GROUP BY t.tag_key, g.type`.execute(
      db,
    );
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await gallerySortIndexSql(postgres, column, false).execute(db);
    }
    await db.schema.alterTable('gallery_items').dropColumn('hidden').execute();
  },
};
