// Migration 0017_mod_answer_changes (the name the migrator records): the mod API's change log and each player's answer
// version.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { type MigrationDb, serialId } from './helpers.ts';

/**
 * `mod_changes` numbers every change to a player's or a texture's mod API answers, so a process that missed change
 * notices (a Redis outage, a restart) brings its answer files up to date from the database. `users.answers_at` is the
 * second a player's answers last changed, strictly increasing per player: every process and host writes that player's
 * answer files with it as their time, so nginx's ETag (time and size) and Last-Modified change with every change and
 * agree across hosts. Existing players start at their account's creation.
 */
export const modAnswerChanges: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('mod_changes')
      .addColumn('seq', ...serialId(db))
      .addColumn('subject', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('users').addColumn('answers_at', 'bigint').execute();
    await sql`UPDATE users SET answers_at = created_at / 1000`.execute(db);
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('users').dropColumn('answers_at').execute();
    await db.schema.dropTable('mod_changes').execute();
  },
};
