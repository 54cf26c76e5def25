// Migration 0003_gallery (the name the migrator records): the gallery: items, tags and likes, their sort indexes and
// the title search.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { isPostgres } from '../dialect.ts';
import { GALLERY_SORT_COLUMNS, type MigrationDb } from './helpers.ts';
import { DEFAULT_TAGS } from './seed-rows.ts';

/** The migration 0003_gallery: the gallery: items, tags and likes, the sort indexes and the title search. */
export const gallery: Migration = {
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
    await db.schema
      .createIndex('gallery_items_author')
      .on('gallery_items')
      .columns(['author_uuid', 'created_at'])
      .execute();
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
      .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
        postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
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
      await sql`CREATE INDEX gallery_items_title_trgm ON gallery_items USING gin (title_lower gin_trgm_ops)`.execute(
        db,
      );
    } else {
      await sql`CREATE VIRTUAL TABLE gallery_title_fts USING fts5(title_lower, content='gallery_items', content_rowid='rowid', tokenize='trigram')`.execute(
        db,
      );
      await sql`CREATE TRIGGER gallery_items_fts_insert AFTER INSERT ON gallery_items BEGIN
        INSERT INTO gallery_title_fts(rowid, title_lower) VALUES (new.rowid, new.title_lower); END`.execute(db);
      await sql`CREATE TRIGGER gallery_items_fts_delete AFTER DELETE ON gallery_items BEGIN
        INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) VALUES ('delete', old.rowid, old.title_lower); END`.execute(
        db,
      );
      await sql`CREATE TRIGGER gallery_items_fts_update AFTER UPDATE OF title_lower ON gallery_items BEGIN
        INSERT INTO gallery_title_fts(gallery_title_fts, rowid, title_lower) VALUES ('delete', old.rowid, old.title_lower);
        INSERT INTO gallery_title_fts(rowid, title_lower) VALUES (new.rowid, new.title_lower); END`.execute(db);
    }
  },
  async down(db: MigrationDb) {
    if (!isPostgres(db)) await sql`DROP TABLE gallery_title_fts`.execute(db);
    for (const table of [
      'gallery_counts',
      'gallery_reports',
      'gallery_likes',
      'gallery_tags',
      'gallery_items',
      'tags',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
