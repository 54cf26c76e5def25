// Migration 0023_audit_name_keys (the name the migrator records): the audit log's actor and player names in lower case,
// so that its filters find a name in any case whatever its letters (SQLite's lower() folds only A to Z).
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/** Audit rows read at a time when their names are folded. */
const BATCH = 1000;

/** Writes every existing row's names in lower case, folded as JavaScript folds them. */
async function foldNames(db: MigrationDb): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: Array<{ id: number; admin_name: string; target_name: string | null }> = await db
      .selectFrom('admin_audit')
      .select(['id', 'admin_name', 'target_name'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows)
      await db
        .updateTable('admin_audit')
        .set({
          admin_name_lower: row.admin_name.toLowerCase(),
          target_name_lower: row.target_name?.toLowerCase() ?? null,
        })
        .where('id', '=', row.id)
        .execute();
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * `admin_audit.admin_name_lower` and `target_name_lower` are the names at the time in lower case (null only where the
 * name is), each indexed with the id as the log is read: newest first.
 */
export const auditNameKeys: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('admin_audit').addColumn('admin_name_lower', 'text').execute();
    await db.schema.alterTable('admin_audit').addColumn('target_name_lower', 'text').execute();
    await foldNames(db);
    await db.schema
      .createIndex('admin_audit_admin_name')
      .on('admin_audit')
      .columns(['admin_name_lower', 'id'])
      .execute();
    await db.schema
      .createIndex('admin_audit_target_name')
      .on('admin_audit')
      .columns(['target_name_lower', 'id'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('admin_audit_target_name').execute();
    await db.schema.dropIndex('admin_audit_admin_name').execute();
    await db.schema.alterTable('admin_audit').dropColumn('target_name_lower').execute();
    await db.schema.alterTable('admin_audit').dropColumn('admin_name_lower').execute();
  },
};
