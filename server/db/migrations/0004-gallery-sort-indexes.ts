// Migration 0004_gallery_sort_indexes (the name the migrator records): PostgreSQL sort indexes that also carry the
// title and type.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { isPostgres } from '../dialect.ts';
import { GALLERY_SORT_COLUMNS, type MigrationDb } from './helpers.ts';

/**
 * PostgreSQL: the sort indexes also carry the title and type, so a listing that walks one (a broad title search,
 * a type filter) checks each row from the index alone instead of reading the table. SQLite has no INCLUDE and
 * needs none: its title search checks rowids against the FTS matches, and every index holds the rowid.
 */
export const gallerySortIndexes: Migration = {
  async up(db: MigrationDb) {
    if (!isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      const carried = column === 'title_lower' ? sql`type` : sql`title_lower, type`;
      await sql`DROP INDEX ${sql.ref(`gallery_items_${column}`)}`.execute(db);
      await sql`CREATE INDEX ${sql.ref(`gallery_items_${column}`)} ON gallery_items (${sql.ref(column)}, hash) INCLUDE (${carried})`.execute(
        db,
      );
    }
  },
  async down(db: MigrationDb) {
    if (!isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      await sql`DROP INDEX ${sql.ref(`gallery_items_${column}`)}`.execute(db);
      await db.schema.createIndex(`gallery_items_${column}`).on('gallery_items').columns([column, 'hash']).execute();
    }
  },
};
