// Migration 0021_oauth_device_flow (the name the migrator records): apps that sign players in with the OAuth 2.0 device
// flow, their sign-in requests, the players' grants and the grants' tokens.
import type { Migration } from 'kysely/migration';
import { serialId, type MigrationDb } from './helpers.ts';

/**
 * `oauth_clients`: the apps an operator registered (public clients, no secret). `oauth_device_requests`: a sign-in
 * under way, found by the SHA-256 of its device code or of its user code, until the app takes its tokens or it expires.
 * `oauth_grants`: an app a player connected, with the scopes they approved. `oauth_tokens`: a grant's access and
 * refresh tokens, kept only as SHA-256 hashes; a refresh token stays after its use (`used_at`) until it expires, so
 * that a second use is recognised. Removing a client, a grant or a player removes what hangs on it.
 */
export const oauthDeviceFlow: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('oauth_clients')
      .addColumn('client_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('oauth_device_requests')
      .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('interval_seconds', 'integer', (c) => c.notNull())
      .addColumn('polled_at', 'bigint')
      // Null until the player decides: 'approved' or 'denied', by the player in user_uuid.
      .addColumn('decision', 'text')
      .addColumn('user_uuid', 'text', (c) => c.references('users.uuid').onDelete('cascade'))
      // When the app took its tokens: the code is used up, and kept until it expires to say so.
      .addColumn('taken_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('oauth_device_requests_expires')
      .on('oauth_device_requests')
      .column('expires_at')
      .execute();
    await db.schema.createIndex('oauth_device_requests_user').on('oauth_device_requests').column('user_uuid').execute();
    await db.schema
      .createTable('oauth_grants')
      .addColumn('id', ...serialId(db))
      .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_grants_user').on('oauth_grants').column('user_uuid').execute();
    await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();
    await db.schema
      .createTable('oauth_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
      // 'access' or 'refresh'.
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
    await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['oauth_tokens', 'oauth_grants', 'oauth_device_requests', 'oauth_clients'])
      await db.schema.dropTable(table).execute();
  },
};
