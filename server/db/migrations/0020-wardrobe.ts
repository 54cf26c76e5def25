// Migration 0020_wardrobe (the name the migrator records): every cape and ears a player has had, to wear again.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * `wardrobe_items` keeps each picture a player uploaded, made and used, or wore from the gallery, once per picture
 * (`hash`: an animation's strip, else the still; `still_hash`: an animation's first frame), with where it came from, its
 * title and when it came in. `wardrobe_drops` remembers the last item a full wardrobe let go, so the page can say so.
 */
export const wardrobe: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('wardrobe_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('still_hash', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('source_ref', 'text')
      .addColumn('title', 'text')
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('wardrobe_items_picture', ['user_uuid', 'kind', 'hash'])
      .execute();
    await db.schema
      .createIndex('wardrobe_items_added')
      .on('wardrobe_items')
      .columns(['user_uuid', 'added_at'])
      .execute();
    await db.schema.createIndex('wardrobe_items_hash').on('wardrobe_items').column('hash').execute();
    await db.schema.createIndex('wardrobe_items_still').on('wardrobe_items').column('still_hash').execute();
    await db.schema
      .createTable('wardrobe_drops')
      .addColumn('user_uuid', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addColumn('dropped_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('wardrobe_drops').execute();
    await db.schema.dropTable('wardrobe_items').execute();
  },
};
