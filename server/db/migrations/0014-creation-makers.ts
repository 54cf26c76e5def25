// Migration 0014_creation_makers (the name the migrator records): who made each creation and when.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * Who made each creation and when: a creation can be worn or shared only by a player who made it, for a while after.
 */
export const creationMakers: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('creation_makers')
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('made_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('creation_makers_pk', ['hash', 'user_uuid'])
      .execute();
    await db.schema.createIndex('creation_makers_made_at').on('creation_makers').column('made_at').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('creation_makers').execute();
  },
};
