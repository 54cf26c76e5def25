// Migration 0015_moderation_details (the name the migrator records): report reasons and notes, and the audit row's
// picture.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * What moderators need to judge and to look back: why a player reported a texture or a player (a reason from the ban
 * reasons list and an optional note), and a small picture of the texture an audited action was about (kept after the
 * texture itself is gone).
 */
export const moderationDetails: Migration = {
  async up(db: MigrationDb) {
    for (const table of ['gallery_reports', 'user_reports']) {
      await db.schema.alterTable(table).addColumn('reason_key', 'text').execute();
      await db.schema.alterTable(table).addColumn('note', 'text').execute();
    }
    await db.schema.alterTable('admin_audit').addColumn('thumbnail', 'text').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('admin_audit').dropColumn('thumbnail').execute();
    for (const table of ['gallery_reports', 'user_reports']) {
      await db.schema.alterTable(table).dropColumn('note').execute();
      await db.schema.alterTable(table).dropColumn('reason_key').execute();
    }
  },
};
