// Migration 0006_gallery_title_counts (the name the migrator records): PostgreSQL counts of items per lowercased title,
// kept by triggers.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { isPostgres } from '../dialect.ts';
import type { MigrationDb } from './helpers.ts';

/**
 * PostgreSQL: how many items have each lowercased title, kept by triggers on gallery_items. A title search counts its
 * matches (up to the cap) from this table's trigram index and its small heap, which stays in shared_buffers, instead of
 * reading up to 1,001 rows of gallery_items. SQLite needs none of it: it counts from its FTS index.
 */
export const galleryTitleCounts: Migration = {
  async up(db: MigrationDb) {
    if (!isPostgres(db)) return;
    await sql`CREATE TABLE gallery_title_counts (title_lower text PRIMARY KEY, items integer NOT NULL)`.execute(db);
    // Each statement applies its net change per title in title order, so concurrent writers lock the rows in one order.
    await sql`CREATE FUNCTION gallery_title_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, count(*) FROM new_items GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, -count(*) FROM old_items GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower IN (SELECT title_lower FROM old_items);
        ELSE
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, change FROM (VALUES (OLD.title_lower, -1), (NEW.title_lower, 1)) AS t (title_lower, change)
            ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower = OLD.title_lower;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    // Created before the table is filled: the trigger's lock holds off writers until this migration commits.
    await sql`CREATE TRIGGER gallery_items_title_counts_insert AFTER INSERT ON gallery_items
      REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION gallery_title_counts_sync()`.execute(db);
    await sql`CREATE TRIGGER gallery_items_title_counts_delete AFTER DELETE ON gallery_items
      REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION gallery_title_counts_sync()`.execute(db);
    // Row-level, and only when the title changes: updates of likes and downloads do not run it.
    await sql`CREATE TRIGGER gallery_items_title_counts_update AFTER UPDATE OF title_lower ON gallery_items
      FOR EACH ROW WHEN (OLD.title_lower IS DISTINCT FROM NEW.title_lower) EXECUTE FUNCTION gallery_title_counts_sync()`.execute(
      db,
    );
    await sql`INSERT INTO gallery_title_counts (title_lower, items) SELECT title_lower, count(*) FROM gallery_items GROUP BY title_lower`.execute(
      db,
    );
    await sql`CREATE INDEX gallery_title_counts_trgm ON gallery_title_counts USING gin (title_lower gin_trgm_ops)`.execute(
      db,
    );
  },
  async down(db: MigrationDb) {
    if (!isPostgres(db)) return;
    for (const event of ['insert', 'delete', 'update']) {
      await sql`DROP TRIGGER ${sql.ref(`gallery_items_title_counts_${event}`)} ON gallery_items`.execute(db);
    }
    await sql`DROP FUNCTION gallery_title_counts_sync()`.execute(db);
    await sql`DROP TABLE gallery_title_counts`.execute(db);
  },
};
