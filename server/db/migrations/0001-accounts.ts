// Migration 0001_accounts (the name the migrator records): groups, users, sessions and login codes; the player and
// admin groups seeded.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';
import { ADMIN_GROUP_ID } from '../users.ts';
import { PLAYER_GROUP_ID } from './seed-rows.ts';

/** The migration 0001_accounts: groups, users, sessions and login codes; the player and admin groups seeded. */
export const accounts: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('groups')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('emoji', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db
      .insertInto('groups')
      .values([
        { id: PLAYER_GROUP_ID, name: 'Player', emoji: '', admin: 0 },
        { id: ADMIN_GROUP_ID, name: 'Admin', emoji: '🛡️', admin: 1 },
      ])
      .execute();
    await db.schema
      .createTable('users')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_lower', 'text', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(PLAYER_GROUP_ID).references('groups.id'))
      .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_username_lower').on('users').column('username_lower').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_uuid').execute();
    await db.schema
      .createTable('login_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_codes_user').on('login_codes').column('user_uuid').execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['login_codes', 'sessions', 'users', 'groups']) await db.schema.dropTable(table).execute();
  },
};
