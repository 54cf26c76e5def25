// Migration 0018_withheld_textures (the name the migrator records): textures kept for moderators but served to nobody.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * `textures.withheld_at` is when a texture stopped being served: a picture a moderator removed, or one that only a
 * banned or deleted player wore. The row and its bytes stay while a report or the audit log refers to them (the
 * moderators' evidence); every public URL answers as if the texture did not exist.
 */
export const withheldTextures: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('textures').addColumn('withheld_at', 'bigint').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('textures').dropColumn('withheld_at').execute();
  },
};
