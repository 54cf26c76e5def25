// Migration 0019_gallery_wears (the name the migrator records): how many times each gallery item was worn.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * `gallery_items.wears` counts the players who put an item on with "Wear this", shown beside its likes and downloads.
 */
export const galleryWears: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .alterTable('gallery_items')
      .addColumn('wears', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('gallery_items').dropColumn('wears').execute();
  },
};
