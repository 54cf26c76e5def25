// Migration 0005_gallery_sqlite_covering_indexes (the name the migrator records): SQLite sort indexes that end with the
// type and the title.
import type { Migration } from 'kysely/migration';
import { isPostgres } from '../dialect.ts';
import { GALLERY_SORT_COLUMNS, type MigrationDb } from './helpers.ts';

/**
 * SQLite: the sort indexes end with the type and the title, so a listing that walks one (a type filter with a tag,
 * a broad title search) tests each row from the index alone instead of reading its table row. The order is unchanged
 * (the hash is unique), so every query keeps its plan; PostgreSQL already has this from 0004 (INCLUDE).
 */
export const gallerySqliteCoveringIndexes: Migration = {
  async up(db: MigrationDb) {
    if (isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      const carried = column === 'title_lower' ? ['type'] : ['type', 'title_lower'];
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await db.schema
        .createIndex(`gallery_items_${column}`)
        .on('gallery_items')
        .columns([column, 'hash', ...carried])
        .execute();
    }
  },
  async down(db: MigrationDb) {
    if (isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await db.schema.createIndex(`gallery_items_${column}`).on('gallery_items').columns([column, 'hash']).execute();
    }
  },
};
