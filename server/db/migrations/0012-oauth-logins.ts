// Migration 0012_oauth_logins (the name the migrator records): Microsoft logins under way.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/** Microsoft logins under way (state, PKCE verifier and ref), each tied to the browser that started it by a cookie. */
export const oauthLogins: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('oauth_logins')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('ref', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_logins_expires').on('oauth_logins').column('expires_at').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('oauth_logins').execute();
  },
};
