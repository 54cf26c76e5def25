// Migration 0008_site_counts (the name the migrator records): the dashboard's totals as counters kept by triggers, and
// two indexes.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { isPostgres } from '../dialect.ts';
import type { MigrationDb } from './helpers.ts';

/** The counters of `site_counts`, each with how a users or premium row counts towards it (an SQL truth value). */
const SITE_COUNTERS = {
  users: null,
  capes: 'cape_hash IS NOT NULL',
  ears: 'ears_hash IS NOT NULL',
} as const;
/** Whether a premium row owns a paid feature (the dashboard's premium players). */
const OWNS_PREMIUM = '(animated = 1 OR glint = 1 OR dinnerbone = 1)';

/** `condition` about the OLD or NEW row, for a trigger body. */
function rowCondition(condition: string, row: 'OLD' | 'NEW'): string {
  return condition.replace(/\b(cape_hash|ears_hash|animated|glint|dinnerbone)\b/g, `${row}.$1`);
}

/**
 * The dashboard's totals as counters kept by triggers (players, players wearing a cape, wearing ears, owning premium),
 * so GET /api/admin/info and the home page's player count read five rows instead of counting 100,000 players; and an
 * index of whitelisted gallery items for the admin whitelist list, and one of the AI log's textures (a reference
 * count).
 */
export const siteCounts: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('site_counts')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .execute();
    const postgres = isPostgres(db);
    // A change that moves nothing (a cape replaced by another) leaves the counter rows alone: no lock on a hot row.
    const moves = Object.entries(SITE_COUNTERS).filter(([, condition]) => condition !== null) as Array<
      [string, string]
    >;
    if (postgres) {
      const bit = (condition: string, row: 'OLD' | 'NEW') => `(${rowCondition(condition, row)})::int`;
      await sql
        .raw(
          `CREATE FUNCTION site_counts_users() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE change integer;
          BEGIN
            IF TG_OP = 'INSERT' THEN UPDATE site_counts SET n = n + 1 WHERE key = 'users';
            ELSIF TG_OP = 'DELETE' THEN UPDATE site_counts SET n = n - 1 WHERE key = 'users';
            END IF;
            ${moves
              .map(
                ([key, condition]) => `
            change := (CASE WHEN TG_OP = 'DELETE' THEN 0 ELSE ${bit(condition, 'NEW')} END)
              - (CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE ${bit(condition, 'OLD')} END);
            IF change <> 0 THEN UPDATE site_counts SET n = n + change WHERE key = '${key}'; END IF;`,
              )
              .join('')}
            RETURN NULL;
          END $$`,
        )
        .execute(db);
      await sql`CREATE TRIGGER users_site_counts AFTER INSERT OR DELETE OR UPDATE OF cape_hash, ears_hash ON users
        FOR EACH ROW EXECUTE FUNCTION site_counts_users()`.execute(db);
      await sql
        .raw(
          `CREATE FUNCTION site_counts_premium() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE change integer;
          BEGIN
            change := (CASE WHEN TG_OP = 'DELETE' THEN 0 ELSE ${bit(OWNS_PREMIUM, 'NEW')} END)
              - (CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE ${bit(OWNS_PREMIUM, 'OLD')} END);
            IF change <> 0 THEN UPDATE site_counts SET n = n + change WHERE key = 'premium'; END IF;
            RETURN NULL;
          END $$`,
        )
        .execute(db);
      await sql`CREATE TRIGGER premium_site_counts AFTER INSERT OR DELETE OR UPDATE OF animated, glint, dinnerbone ON premium
        FOR EACH ROW EXECUTE FUNCTION site_counts_premium()`.execute(db);
    } else {
      const add = (key: string, amount: string) => `UPDATE site_counts SET n = n + ${amount} WHERE key = '${key}';`;
      const bit = (condition: string, row: 'OLD' | 'NEW') => `(${rowCondition(condition, row)})`;
      await sql
        .raw(
          `CREATE TRIGGER users_site_counts_insert AFTER INSERT ON users BEGIN ${add('users', '1')} ${moves
            .map(([key, condition]) => add(key, bit(condition, 'NEW')))
            .join(' ')} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER users_site_counts_delete AFTER DELETE ON users BEGIN ${add('users', '-1')} ${moves
            .map(([key, condition]) => add(key, `-${bit(condition, 'OLD')}`))
            .join(' ')} END`,
        )
        .execute(db);
      for (const [key, condition] of moves) {
        const column = condition.split(' ')[0];
        await sql
          .raw(
            `CREATE TRIGGER users_site_counts_${key} AFTER UPDATE OF ${column} ON users
            WHEN ${bit(condition, 'NEW')} <> ${bit(condition, 'OLD')}
            BEGIN ${add(key, `${bit(condition, 'NEW')} - ${bit(condition, 'OLD')}`)} END`,
          )
          .execute(db);
      }
      await sql
        .raw(
          `CREATE TRIGGER premium_site_counts_insert AFTER INSERT ON premium BEGIN ${add('premium', bit(OWNS_PREMIUM, 'NEW'))} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER premium_site_counts_delete AFTER DELETE ON premium BEGIN ${add('premium', `-${bit(OWNS_PREMIUM, 'OLD')}`)} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER premium_site_counts_update AFTER UPDATE OF animated, glint, dinnerbone ON premium
          WHEN ${bit(OWNS_PREMIUM, 'NEW')} <> ${bit(OWNS_PREMIUM, 'OLD')}
          BEGIN ${add('premium', `${bit(OWNS_PREMIUM, 'NEW')} - ${bit(OWNS_PREMIUM, 'OLD')}`)} END`,
        )
        .execute(db);
    }
    // Filled after the triggers exist, in the same transaction (PostgreSQL) or under SQLite's single writer.
    for (const [key, condition] of Object.entries(SITE_COUNTERS)) {
      await sql
        .raw(
          `INSERT INTO site_counts (key, n) SELECT '${key}', count(*) FROM users${condition ? ` WHERE ${condition}` : ''}`,
        )
        .execute(db);
    }
    await sql
      .raw(`INSERT INTO site_counts (key, n) SELECT 'premium', count(*) FROM premium WHERE ${OWNS_PREMIUM}`)
      .execute(db);
    await db.schema
      .createIndex('gallery_items_whitelisted')
      .on('gallery_items')
      .columns(['created_at', 'hash'])
      .where(sql.ref('whitelisted'), '=', 1)
      .execute();
    await db.schema.createIndex('ai_cape_logs_texture').on('ai_cape_logs').column('texture_hash').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('ai_cape_logs_texture').execute();
    await db.schema.dropIndex('gallery_items_whitelisted').execute();
    if (isPostgres(db)) {
      await sql`DROP TRIGGER users_site_counts ON users`.execute(db);
      await sql`DROP TRIGGER premium_site_counts ON premium`.execute(db);
      await sql`DROP FUNCTION site_counts_users()`.execute(db);
      await sql`DROP FUNCTION site_counts_premium()`.execute(db);
    } else {
      for (const name of ['insert', 'delete', 'capes', 'ears'])
        await sql.raw(`DROP TRIGGER users_site_counts_${name}`).execute(db);
      for (const name of ['insert', 'delete', 'update'])
        await sql.raw(`DROP TRIGGER premium_site_counts_${name}`).execute(db);
    }
    await db.schema.dropTable('site_counts').execute();
  },
};
