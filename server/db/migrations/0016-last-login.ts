// Migration 0016_last_login (the name the migrator records): when each player last logged in.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * When each player last logged in, so the first login of an account is told apart from a return. Players with a session
 * today have logged in before.
 */
export const lastLogin: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('users').addColumn('last_login_at', 'bigint').execute();
    await sql`UPDATE users SET last_login_at = created_at WHERE uuid IN (SELECT user_uuid FROM sessions)`.execute(db);
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('users').dropColumn('last_login_at').execute();
  },
};
