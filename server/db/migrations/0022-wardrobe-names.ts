// Migration 0022_wardrobe_names (the name the migrator records): a name for each wardrobe item, and which players wore
// each gallery item.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * `wardrobe_items.name` is the item's name as the player gave it, or the uploaded file's name (null: the page names it
 * by its gallery title, or by what it is and when it came in). `gallery_wearers` holds each player who wore a gallery
 * item once, so that `gallery_items.wears` counts players, not wears; the counts made before it stay as they are.
 */
export const wardrobeNames: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('wardrobe_items').addColumn('name', 'text').execute();
    await db.schema
      .createTable('gallery_wearers')
      .addColumn('hash', 'text', (c) => c.notNull().references('gallery_items.hash').onDelete('cascade'))
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addPrimaryKeyConstraint('gallery_wearers_pk', ['hash', 'user_uuid'])
      .execute();
    await db.schema.createIndex('gallery_wearers_user').on('gallery_wearers').column('user_uuid').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('gallery_wearers').execute();
    await db.schema.alterTable('wardrobe_items').dropColumn('name').execute();
  },
};
