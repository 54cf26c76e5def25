// Migration 0007_moderation (the name the migrator records): moderation: reports, bans, the audit log, the blocklist
// and the AI creator's log.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { type MigrationDb, serialId } from './helpers.ts';

/**
 * Moderation: player reports (with a copy of the reported cape and ears), bans with their reason and moderator, the
 * audit log of every admin action, the blocklist of removed pictures (by content hash and perceptual hash) and the AI
 * creator's log.
 */
export const moderation: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('user_reports')
      .addColumn('id', ...serialId(db))
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('reporter_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      // The reported player's textures when reported (texture hashes: evidence that a later change cannot hide).
      .addColumn('cape_hash', 'text')
      .addColumn('cape_strip_hash', 'text')
      .addColumn('ears_hash', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      // Set when a moderator acts on it (IGNORE, REMOVE, BAN); an open report has none.
      .addColumn('resolved_at', 'bigint')
      .addColumn('resolved_by', 'text')
      .addColumn('resolution', 'text')
      .execute();
    // One open report per reporter and player.
    await db.schema
      .createIndex('user_reports_open_once')
      .on('user_reports')
      .columns(['user_uuid', 'reporter_uuid'])
      .unique()
      .where(sql.ref('resolved_at'), 'is', null)
      .execute();
    await db.schema.createIndex('user_reports_open').on('user_reports').columns(['resolved_at', 'id']).execute();
    await db.schema.createIndex('user_reports_reporter').on('user_reports').column('reporter_uuid').execute();

    await db.schema
      .createTable('user_bans')
      .addColumn('id', ...serialId(db))
      .addColumn('user_uuid', 'text', (c) => c.notNull().unique().references('users.uuid').onDelete('cascade'))
      .addColumn('reason_key', 'text', (c) => c.notNull())
      .addColumn('reason_text', 'text', (c) => c.notNull())
      // The player who reported them, when the ban came from a report.
      .addColumn('reported_by_uuid', 'text', (c) => c.references('users.uuid').onDelete('set null'))
      .addColumn('banned_by_uuid', 'text', (c) => c.references('users.uuid').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('admin_audit')
      .addColumn('id', ...serialId(db))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      // Names are kept beside the uuids: the log outlives deleted accounts.
      .addColumn('admin_uuid', 'text', (c) => c.notNull())
      .addColumn('admin_name', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_uuid', 'text')
      .addColumn('target_name', 'text')
      .addColumn('target_hash', 'text')
      .addColumn('reason', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('admin_audit_admin').on('admin_audit').columns(['admin_uuid', 'id']).execute();
    await db.schema.createIndex('admin_audit_target').on('admin_audit').columns(['target_uuid', 'id']).execute();

    await db.schema
      .createTable('texture_blocklist')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      // A 64-bit perceptual hash of the picture, as 16 hex digits: a re-saved or slightly changed copy is near it.
      .addColumn('phash', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('admin_uuid', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('ai_cape_logs')
      .addColumn('id', ...serialId(db))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('user_uuid', 'text', (c) => c.references('users.uuid').onDelete('set null'))
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('texture_hash', 'text')
      .execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['ai_cape_logs', 'texture_blocklist', 'admin_audit', 'user_bans', 'user_reports'])
      await db.schema.dropTable(table).execute();
  },
};
