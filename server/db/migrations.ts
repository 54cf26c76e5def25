// Schema migrations, in order; each runs on SQLite and on PostgreSQL alike.
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { isPostgres } from './dialect.ts';

/** A database as migrations see it: untyped, since each migration runs against the schema of its own time (Kysely's guidance). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
type MigrationDb = Kysely<any>;

/** The group every new account joins. */
export const PLAYER_GROUP_ID = 1;
/** The group `cloakroom code --admin` puts an account in. */
export const ADMIN_GROUP_ID = 2;

const accounts: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('groups')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('emoji', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db
      .insertInto('groups')
      .values([
        { id: PLAYER_GROUP_ID, name: 'Player', emoji: '', admin: 0 },
        { id: ADMIN_GROUP_ID, name: 'Admin', emoji: '🛡️', admin: 1 },
      ])
      .execute();
    await db.schema
      .createTable('users')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_lower', 'text', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(PLAYER_GROUP_ID).references('groups.id'))
      .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_username_lower').on('users').column('username_lower').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_uuid').execute();
    await db.schema
      .createTable('login_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_codes_user').on('login_codes').column('user_uuid').execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['login_codes', 'sessions', 'users', 'groups']) await db.schema.dropTable(table).execute();
  },
};

const textures: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('textures')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('frames', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('users').addColumn('cape_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('cape_strip_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('ears_hash', 'text').execute();
    for (const column of ['cape_hash', 'cape_strip_hash', 'ears_hash']) {
      await db.schema.createIndex(`users_${column}`).on('users').column(column).execute();
    }
    await db.schema
      .createTable('premium')
      .addColumn('user_uuid', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('animated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('glint', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dinnerbone', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('boost_only', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('glint_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dinnerbone_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('premium').execute();
    for (const column of ['cape_hash', 'cape_strip_hash', 'ears_hash']) {
      await db.schema.dropIndex(`users_${column}`).execute();
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
    await db.schema.dropTable('textures').execute();
  },
};

/** The gallery's starting tags. */
export const DEFAULT_TAGS: Array<{ tag_key: string; name: string }> = [
  { tag_key: 'abstract', name: 'Abstract' },
  { tag_key: 'animals', name: 'Animals' },
  { tag_key: 'anime', name: 'Anime' },
  { tag_key: 'colourful', name: 'Colourful' },
  { tag_key: 'cute', name: 'Cute' },
  { tag_key: 'dark', name: 'Dark' },
  { tag_key: 'flags', name: 'Flags' },
  { tag_key: 'food', name: 'Food' },
  { tag_key: 'games', name: 'Games' },
  { tag_key: 'holidays', name: 'Holidays' },
  { tag_key: 'logos', name: 'Logos' },
  { tag_key: 'memes', name: 'Memes' },
  { tag_key: 'minimal', name: 'Minimal' },
  { tag_key: 'nature', name: 'Nature' },
  { tag_key: 'pixel-art', name: 'Pixel Art' },
  { tag_key: 'pride', name: 'Pride' },
  { tag_key: 'space', name: 'Space' },
  { tag_key: 'sports', name: 'Sports' },
  { tag_key: 'text', name: 'Text' },
  { tag_key: 'vanilla-style', name: 'Vanilla Style' },
];

/** The gallery's sort columns, each indexed with the hash as a tie-breaker. */
const GALLERY_SORT_COLUMNS = ['likes', 'downloads', 'title_lower', 'created_at'] as const;

const gallery: Migration = {
  async up(db: MigrationDb) {
    const postgres = isPostgres(db);
    await db.schema
      .createTable('tags')
      .addColumn('tag_key', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('tags').values(DEFAULT_TAGS).execute();
    await db.schema
      .createTable('gallery_items')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('strip_hash', 'text')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('title_lower', 'text', (c) => c.notNull())
      .addColumn('author_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('whitelisted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.createIndex(`gallery_items_${column}`).on('gallery_items').columns([column, 'hash']).execute();
    }
    await db.schema.createIndex('gallery_items_author').on('gallery_items').columns(['author_uuid', 'created_at']).execute();
    await db.schema.createIndex('gallery_items_strip').on('gallery_items').column('strip_hash').execute();
    await db.schema
      .createTable('gallery_tags')
      .addColumn('hash', 'text', (c) => c.notNull().references('gallery_items.hash').onDelete('cascade'))
      .addColumn('tag_key', 'text', (c) => c.notNull().references('tags.tag_key').onDelete('cascade'))
      .addPrimaryKeyConstraint('gallery_tags_pk', ['hash', 'tag_key'])
      .execute();
    await db.schema.createIndex('gallery_tags_tag').on('gallery_tags').columns(['tag_key', 'hash']).execute();
    await db.schema
      .createTable('gallery_likes')
      .addColumn('hash', 'text', (c) => c.notNull().references('gallery_items.hash').onDelete('cascade'))
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addPrimaryKeyConstraint('gallery_likes_pk', ['hash', 'user_uuid'])
      .execute();
    await db.schema.createIndex('gallery_likes_user').on('gallery_likes').columns(['user_uuid', 'hash']).execute();
    await db.schema
      .createTable('gallery_reports')
      .addColumn('id', postgres ? 'serial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('hash', 'text', (c) => c.notNull().references('gallery_items.hash').onDelete('cascade'))
      .addColumn('reporter_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('gallery_reports_once', ['hash', 'reporter_uuid'])
      .execute();
    await db.schema
      .createTable('gallery_counts')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    if (postgres) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX gallery_items_title_trgm ON gallery_items USING gin (title_lower gin_trgm_ops)`.execute(db);
    } else {
      await sql`CREATE VIRTUAL TABLE gallery_title_fts USING fts5(title_lower, content='gallery_items', content_rowid='rowid', tokenize='trigram')`.execute(db);
      await sql`CREATE TRIGGER gallery_items_fts_insert AFTER INSERT ON gallery_items BEGIN
        INSERT INTO gallery_title_fts(rowid, title_lower) VALUES (new.rowid, new.title_lower); END`.execute(db);
      await sql`CREATE TRIGGER gallery_items_fts_delete AFTER DELETE ON gallery_items BEGIN
        INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) VALUES ('delete', old.rowid, old.title_lower); END`.execute(db);
      await sql`CREATE TRIGGER gallery_items_fts_update AFTER UPDATE OF title_lower ON gallery_items BEGIN
        INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) VALUES ('delete', old.rowid, old.title_lower);
        INSERT INTO gallery_title_fts(rowid, title_lower) VALUES (new.rowid, new.title_lower); END`.execute(db);
    }
  },
  async down(db: MigrationDb) {
    if (!isPostgres(db)) await sql`DROP TABLE gallery_title_fts`.execute(db);
    for (const table of ['gallery_counts', 'gallery_reports', 'gallery_likes', 'gallery_tags', 'gallery_items', 'tags']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

/**
 * PostgreSQL: the sort indexes also carry the title and type, so a listing that walks one (a broad title search,
 * a type filter) checks each row from the index alone instead of reading the table. SQLite has no INCLUDE and
 * needs none: its title search checks rowids against the FTS matches, and every index holds the rowid.
 */
const gallerySortIndexes: Migration = {
  async up(db: MigrationDb) {
    if (!isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      const carried = column === 'title_lower' ? sql`type` : sql`title_lower, type`;
      await sql`DROP INDEX ${sql.ref(`gallery_items_${column}`)}`.execute(db);
      await sql`CREATE INDEX ${sql.ref(`gallery_items_${column}`)} ON gallery_items (${sql.ref(column)}, hash) INCLUDE (${carried})`.execute(db);
    }
  },
  async down(db: MigrationDb) {
    if (!isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      await sql`DROP INDEX ${sql.ref(`gallery_items_${column}`)}`.execute(db);
      await db.schema.createIndex(`gallery_items_${column}`).on('gallery_items').columns([column, 'hash']).execute();
    }
  },
};

/**
 * SQLite: the sort indexes end with the type and the title, so a listing that walks one (a type filter with a tag,
 * a broad title search) tests each row from the index alone instead of reading its table row. The order is unchanged
 * (the hash is unique), so every query keeps its plan; PostgreSQL already has this from 0004 (INCLUDE).
 */
const gallerySqliteCoveringIndexes: Migration = {
  async up(db: MigrationDb) {
    if (isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      const carried = column === 'title_lower' ? ['type'] : ['type', 'title_lower'];
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await db.schema
        .createIndex(`gallery_items_${column}`)
        .on('gallery_items')
        .columns([column, 'hash', ...carried])
        .execute();
    }
  },
  async down(db: MigrationDb) {
    if (isPostgres(db)) return;
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await db.schema.createIndex(`gallery_items_${column}`).on('gallery_items').columns([column, 'hash']).execute();
    }
  },
};

/**
 * PostgreSQL: how many items have each lowercased title, kept by triggers on gallery_items. A title search counts its
 * matches (up to the cap) from this table's trigram index and its small heap, which stays in shared_buffers, instead of
 * reading up to 1,001 rows of gallery_items. SQLite needs none of it: it counts from its FTS index.
 */
const galleryTitleCounts: Migration = {
  async up(db: MigrationDb) {
    if (!isPostgres(db)) return;
    await sql`CREATE TABLE gallery_title_counts (title_lower text PRIMARY KEY, items integer NOT NULL)`.execute(db);
    // Each statement applies its net change per title in title order, so concurrent writers lock the rows in one order.
    await sql`CREATE FUNCTION gallery_title_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, count(*) FROM new_items GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, -count(*) FROM old_items GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower IN (SELECT title_lower FROM old_items);
        ELSE
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, change FROM (VALUES (OLD.title_lower, -1), (NEW.title_lower, 1)) AS t (title_lower, change)
            ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower = OLD.title_lower;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    // Created before the table is filled: the trigger's lock holds off writers until this migration commits.
    await sql`CREATE TRIGGER gallery_items_title_counts_insert AFTER INSERT ON gallery_items
      REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION gallery_title_counts_sync()`.execute(db);
    await sql`CREATE TRIGGER gallery_items_title_counts_delete AFTER DELETE ON gallery_items
      REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION gallery_title_counts_sync()`.execute(db);
    // Row-level, and only when the title changes: updates of likes and downloads do not run it.
    await sql`CREATE TRIGGER gallery_items_title_counts_update AFTER UPDATE OF title_lower ON gallery_items
      FOR EACH ROW WHEN (OLD.title_lower IS DISTINCT FROM NEW.title_lower) EXECUTE FUNCTION gallery_title_counts_sync()`.execute(db);
    await sql`INSERT INTO gallery_title_counts (title_lower, items) SELECT title_lower, count(*) FROM gallery_items GROUP BY title_lower`.execute(db);
    await sql`CREATE INDEX gallery_title_counts_trgm ON gallery_title_counts USING gin (title_lower gin_trgm_ops)`.execute(db);
  },
  async down(db: MigrationDb) {
    if (!isPostgres(db)) return;
    for (const event of ['insert', 'delete', 'update']) {
      await sql`DROP TRIGGER ${sql.ref(`gallery_items_title_counts_${event}`)} ON gallery_items`.execute(db);
    }
    await sql`DROP FUNCTION gallery_title_counts_sync()`.execute(db);
    await sql`DROP TABLE gallery_title_counts`.execute(db);
  },
};

/** An integer primary key that numbers itself, on either database. */
function serialId(db: MigrationDb) {
  const postgres = isPostgres(db);
  return [postgres ? 'serial' : 'integer', (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement())] as const;
}

/**
 * Moderation: player reports (with a copy of the reported cape and ears), bans with their reason and moderator, the audit
 * log of every admin action, the blocklist of removed pictures (by content hash and perceptual hash) and the AI creator's log.
 */
const moderation: Migration = {
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
    for (const table of ['ai_cape_logs', 'texture_blocklist', 'admin_audit', 'user_bans', 'user_reports']) await db.schema.dropTable(table).execute();
  },
};

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
 * index of whitelisted gallery items for the admin whitelist list, and one of the AI log's textures (a reference count).
 */
const siteCounts: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('site_counts')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .execute();
    const postgres = isPostgres(db);
    // A change that moves nothing (a cape replaced by another) leaves the counter rows alone: no lock on a hot row.
    const moves = Object.entries(SITE_COUNTERS).filter(([, condition]) => condition !== null) as Array<[string, string]>;
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
      await sql.raw(`CREATE TRIGGER premium_site_counts_insert AFTER INSERT ON premium BEGIN ${add('premium', bit(OWNS_PREMIUM, 'NEW'))} END`).execute(db);
      await sql
        .raw(`CREATE TRIGGER premium_site_counts_delete AFTER DELETE ON premium BEGIN ${add('premium', `-${bit(OWNS_PREMIUM, 'OLD')}`)} END`)
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
      await sql.raw(`INSERT INTO site_counts (key, n) SELECT '${key}', count(*) FROM users${condition ? ` WHERE ${condition}` : ''}`).execute(db);
    }
    await sql.raw(`INSERT INTO site_counts (key, n) SELECT 'premium', count(*) FROM premium WHERE ${OWNS_PREMIUM}`).execute(db);
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
      for (const name of ['insert', 'delete', 'capes', 'ears']) await sql.raw(`DROP TRIGGER users_site_counts_${name}`).execute(db);
      for (const name of ['insert', 'delete', 'update']) await sql.raw(`DROP TRIGGER premium_site_counts_${name}`).execute(db);
    }
    await db.schema.dropTable('site_counts').execute();
  },
};

/** The sort index of `column` as 0004 (PostgreSQL, INCLUDE) and 0005 (SQLite, trailing columns) define it; `listedOnly` keeps hidden items out. */
function gallerySortIndexSql(postgres: boolean, column: (typeof GALLERY_SORT_COLUMNS)[number], listedOnly: boolean) {
  const name = sql.ref(`gallery_items_${column}`);
  const where = listedOnly ? sql` WHERE hidden = 0` : sql``;
  if (postgres) {
    const carried = column === 'title_lower' ? sql`type` : sql`title_lower, type`;
    return sql`CREATE INDEX ${name} ON gallery_items (${sql.ref(column)}, hash) INCLUDE (${carried})${where}`;
  }
  const carried = column === 'title_lower' ? sql`type` : sql`type, title_lower`;
  return sql`CREATE INDEX ${name} ON gallery_items (${sql.ref(column)}, hash, ${carried})${where}`;
}

/** SQLite: the FTS triggers of 0003; with `listedOnly` the title index holds listed items only (hiding removes, showing adds). */
async function createGalleryFtsTriggers(db: MigrationDb, listedOnly: boolean) {
  const listed = (row: 'new' | 'old') => (listedOnly ? sql` WHERE ${sql.raw(row)}.hidden = 0` : sql``);
  const columns = listedOnly ? sql`title_lower, hidden` : sql`title_lower`;
  await sql`CREATE TRIGGER gallery_items_fts_insert AFTER INSERT ON gallery_items BEGIN
    INSERT INTO gallery_title_fts(rowid, title_lower) SELECT new.rowid, new.title_lower${listed('new')}; END`.execute(db);
  await sql`CREATE TRIGGER gallery_items_fts_delete AFTER DELETE ON gallery_items BEGIN
    INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) SELECT 'delete', old.rowid, old.title_lower${listed('old')}; END`.execute(db);
  await sql`CREATE TRIGGER gallery_items_fts_update AFTER UPDATE OF ${columns} ON gallery_items BEGIN
    INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) SELECT 'delete', old.rowid, old.title_lower${listed('old')};
    INSERT INTO gallery_title_fts(rowid, title_lower) SELECT new.rowid, new.title_lower${listed('new')}; END`.execute(db);
}

/**
 * PostgreSQL: the body of gallery_title_counts_sync() (0006); with `listedOnly` only listed items count, and hiding or
 * showing an item moves its title's count. Each statement still applies its net change per title in title order.
 */
function galleryTitleCountsSyncSql(listedOnly: boolean) {
  const listed = listedOnly ? sql`WHERE hidden = 0` : sql``;
  const oldChange = listedOnly ? sql`CASE WHEN OLD.hidden = 0 THEN -1 ELSE 0 END` : sql`-1`;
  const newChange = listedOnly ? sql`CASE WHEN NEW.hidden = 0 THEN 1 ELSE 0 END` : sql`1`;
  return sql`CREATE OR REPLACE FUNCTION gallery_title_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, count(*) FROM new_items ${listed} GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, -count(*) FROM old_items ${listed} GROUP BY title_lower ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower IN (SELECT title_lower FROM old_items);
        ELSE
          INSERT INTO gallery_title_counts AS c (title_lower, items)
            SELECT title_lower, sum(change) FROM (VALUES (OLD.title_lower, ${oldChange}), (NEW.title_lower, ${newChange})) AS t (title_lower, change)
            GROUP BY title_lower HAVING sum(change) <> 0 ORDER BY title_lower
            ON CONFLICT (title_lower) DO UPDATE SET items = c.items + excluded.items;
          DELETE FROM gallery_title_counts WHERE items <= 0 AND title_lower IN (OLD.title_lower, NEW.title_lower);
        END IF;
        RETURN NULL;
      END $$`;
}

/** PostgreSQL: the row-level title trigger of 0006; with `listedOnly` it also runs when an item is hidden or shown. */
function galleryTitleCountsUpdateTriggerSql(listedOnly: boolean) {
  const columns = listedOnly ? sql`title_lower, hidden` : sql`title_lower`;
  const changed = listedOnly
    ? sql`OLD.title_lower IS DISTINCT FROM NEW.title_lower OR OLD.hidden IS DISTINCT FROM NEW.hidden`
    : sql`OLD.title_lower IS DISTINCT FROM NEW.title_lower`;
  return sql`CREATE TRIGGER gallery_items_title_counts_update AFTER UPDATE OF ${columns} ON gallery_items
      FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION gallery_title_counts_sync()`;
}

/**
 * A banned author's items leave the gallery (`hidden` = 1) and come back on the unban. The listed set is what the hot
 * queries read: the sort indexes become partial (WHERE hidden = 0) with the same columns, so every listing keeps its
 * index walk; SQLite's FTS title index and PostgreSQL's gallery_title_counts hold listed items only; the counters
 * (gallery_counts) are moved by the ban and unban themselves (server/gallery/visibility.ts).
 */
const galleryHiddenItems: Migration = {
  async up(db: MigrationDb) {
    const postgres = isPostgres(db);
    await db.schema
      .alterTable('gallery_items')
      .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await gallerySortIndexSql(postgres, column, true).execute(db);
    }
    if (postgres) {
      await galleryTitleCountsSyncSql(true).execute(db);
      await sql`DROP TRIGGER gallery_items_title_counts_update ON gallery_items`.execute(db);
      await galleryTitleCountsUpdateTriggerSql(true).execute(db);
    } else {
      for (const event of ['insert', 'delete', 'update']) await sql`DROP TRIGGER ${sql.ref(`gallery_items_fts_${event}`)}`.execute(db);
      await createGalleryFtsTriggers(db, true);
    }
  },
  async down(db: MigrationDb) {
    const postgres = isPostgres(db);
    // Hidden items rejoin the gallery; the counters and title counts are rebuilt from every item.
    if (postgres) {
      await sql`DROP TRIGGER gallery_items_title_counts_update ON gallery_items`.execute(db);
      await galleryTitleCountsUpdateTriggerSql(false).execute(db);
      await galleryTitleCountsSyncSql(false).execute(db);
      await sql`DELETE FROM gallery_title_counts`.execute(db);
      await sql`INSERT INTO gallery_title_counts (title_lower, items) SELECT title_lower, count(*) FROM gallery_items GROUP BY title_lower`.execute(db);
    } else {
      for (const event of ['insert', 'delete', 'update']) await sql`DROP TRIGGER ${sql.ref(`gallery_items_fts_${event}`)}`.execute(db);
      await createGalleryFtsTriggers(db, false);
      await sql`INSERT INTO gallery_title_fts(gallery_title_fts) VALUES ('rebuild')`.execute(db);
    }
    await sql`DELETE FROM gallery_counts`.execute(db);
    await sql`INSERT INTO gallery_counts (key, n) SELECT 'type:' || type, count(*) FROM gallery_items GROUP BY type`.execute(db);
    await sql`INSERT INTO gallery_counts (key, n)
      SELECT 'tag:' || t.tag_key || ':type:' || g.type, count(*) FROM gallery_tags t JOIN gallery_items g ON g.hash = t.hash GROUP BY t.tag_key, g.type`.execute(
      db,
    );
    for (const column of GALLERY_SORT_COLUMNS) {
      await db.schema.dropIndex(`gallery_items_${column}`).execute();
      await gallerySortIndexSql(postgres, column, false).execute(db);
    }
    await db.schema.alterTable('gallery_items').dropColumn('hidden').execute();
  },
};

/**
 * Premium payments: each provider transaction that granted a feature (its id is unique, so a replayed notification grants
 * nothing twice), and every payment notification as it arrived, with what became of it.
 */
const premiumPayments: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('premium_payments')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('txn_id', 'text', (c) => c.notNull())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('amount', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      // completed, refunded or reversed.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('premium_payments_pk', ['provider', 'txn_id'])
      .execute();
    await db.schema.createIndex('premium_payments_user').on('premium_payments').columns(['user_uuid', 'item']).execute();
    await db.schema
      .createTable('payment_notifications')
      .addColumn('id', ...serialId(db))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('txn_id', 'text')
      // What the notification came to: granted, duplicate, unverified, refused (with why), revoked, ignored.
      .addColumn('outcome', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['payment_notifications', 'premium_payments']) await db.schema.dropTable(table).execute();
  },
};

/**
 * The chat-community link: a player's one-time link code until the bot binds it to a member id, whether that member
 * boosts the community, the cosmetic they chose and the feature their boost granted; and premium role codes.
 */
const discordLinks: Migration = {
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

/** Microsoft logins under way (state, PKCE verifier and ref), each tied to the browser that started it by a cookie. */
const oauthLogins: Migration = {
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

/**
 * Payment safeguards: the features a moderator gave (which refunds and boosts ending leave), and indexes for the
 * sweep of old payment notifications and for finding a notification's earlier deliveries.
 */
const paymentSafeguards: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('premium_grants')
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('granted_by', 'text', (c) => c.notNull())
      .addColumn('granted_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('premium_grants_pk', ['user_uuid', 'item'])
      .execute();
    await db.schema.createIndex('payment_notifications_received').on('payment_notifications').column('received_at').execute();
    await db.schema.createIndex('payment_notifications_txn').on('payment_notifications').columns(['provider', 'txn_id']).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('payment_notifications_txn').execute();
    await db.schema.dropIndex('payment_notifications_received').execute();
    await db.schema.dropTable('premium_grants').execute();
  },
};

/** Who made each creation and when: a creation can be worn or shared only by a player who made it, for a while after. */
const creationMakers: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('creation_makers')
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('made_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('creation_makers_pk', ['hash', 'user_uuid'])
      .execute();
    await db.schema.createIndex('creation_makers_made_at').on('creation_makers').column('made_at').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('creation_makers').execute();
  },
};

/**
 * What moderators need to judge and to look back: why a player reported a texture or a player (a reason from the ban
 * reasons list and an optional note), and a small picture of the texture an audited action was about (kept after the
 * texture itself is gone).
 */
const moderationDetails: Migration = {
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

/**
 * When each player last logged in, so the first login of an account is told apart from a return. Players with a session
 * today have logged in before.
 */
const lastLogin: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('users').addColumn('last_login_at', 'bigint').execute();
    await sql`UPDATE users SET last_login_at = created_at WHERE uuid IN (SELECT user_uuid FROM sessions)`.execute(db);
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('users').dropColumn('last_login_at').execute();
  },
};

/** All migrations by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_textures': textures,
  '0003_gallery': gallery,
  '0004_gallery_sort_indexes': gallerySortIndexes,
  '0005_gallery_sqlite_covering_indexes': gallerySqliteCoveringIndexes,
  '0006_gallery_title_counts': galleryTitleCounts,
  '0007_moderation': moderation,
  '0008_site_counts': siteCounts,
  '0009_gallery_hidden_items': galleryHiddenItems,
  '0010_premium_payments': premiumPayments,
  '0011_discord_links': discordLinks,
  '0012_oauth_logins': oauthLogins,
  '0013_payment_safeguards': paymentSafeguards,
  '0014_creation_makers': creationMakers,
  '0015_moderation_details': moderationDetails,
  '0016_last_login': lastLogin,
};
