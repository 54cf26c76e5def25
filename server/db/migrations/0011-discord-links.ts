// Migration 0011_discord_links (the name the migrator records): the chat-community link, boosts and premium role codes.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * The chat-community link: a player's one-time link code until the bot binds it to a member id, whether that member
 * boosts the community, the cosmetic they chose and the feature their boost granted; and premium role codes.
 */
export const discordLinks: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('discord_links')
      .addColumn('user_uuid', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('discord_id', 'text', (c) => c.unique())
      .addColumn('link_code', 'text', (c) => c.unique())
      .addColumn('link_code_expires_at', 'bigint')
      .addColumn('boosting', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cosmetic', 'text')
      // The feature this boost gave the player (null when the cosmetic was owned already, or no boost).
      .addColumn('granted_item', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('discord_role_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().unique().references('users.uuid').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['discord_role_codes', 'discord_links']) await db.schema.dropTable(table).execute();
  },
};
