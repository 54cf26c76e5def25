// Migration 0002_textures (the name the migrator records): the content-addressed textures table and premium features.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/** The migration 0002_textures: the content-addressed textures table and premium features. */
export const textures: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('textures')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('frames', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('users').addColumn('cape_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('cape_strip_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('ears_hash', 'text').execute();
    for (const column of ['cape_hash', 'cape_strip_hash', 'ears_hash']) {
      await db.schema.createIndex(`users_${column}`).on('users').column(column).execute();
    }
    await db.schema
      .createTable('premium')
      .addColumn('user_uuid', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('animated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('glint', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dinnerbone', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('boost_only', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('glint_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dinnerbone_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('premium').execute();
    for (const column of ['cape_hash', 'cape_strip_hash', 'ears_hash']) {
      await db.schema.dropIndex(`users_${column}`).execute();
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
    await db.schema.dropTable('textures').execute();
  },
};
