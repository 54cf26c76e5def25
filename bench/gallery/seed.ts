// Seeding the gallery bench's data: SQLite through better-sqlite3, PostgreSQL through batched unnest inserts; the
// gallery's indexes are built after the load.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrations/migrate.ts';
import { GALLERY_TABLES, ITEMS, SESSION_TOKEN, USERS, VIEWER } from './settings.ts';
import { isBanned, sha256, tagsOf, type Dataset } from './dataset.ts';

/** SQLite: better-sqlite3 with prepared statements in big transactions; gallery indexes built after the load. */
export async function seedSqlite(file: string, data: Dataset): Promise<void> {
  const kysely = openDatabase(`sqlite:${file}`);
  await migrateToLatest(kysely);
  await kysely.destroy();
  const db = new SQLite(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1000000');
    db.pragma('temp_store = MEMORY');
    const indexes = db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${GALLERY_TABLES.map(() => '?').join(',')})`,
      )
      .all(...GALLERY_TABLES) as Array<{ name: string; sql: string }>;
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);

    const insertUser = db.prepare(
      'INSERT INTO users (uuid, username, username_lower, group_id, banned, created_at) VALUES (?, ?, ?, 1, ?, ?)',
    );
    db.transaction(() => {
      for (let u = 0; u < USERS; u++)
        insertUser.run(data.userUuids[u], `Player${u}`, `player${u}`, isBanned(u) ? 1 : 0, data.start - 86_400_000 + u);
    })();
    // The FTS trigger of 0009 leaves hidden items out of the title index, as hiding them would.
    const insertItem = db.prepare(
      'INSERT INTO gallery_items (hash, strip_hash, title, title_lower, author_uuid, type, whitelisted, likes, downloads, created_at, hidden) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertTag = db.prepare('INSERT INTO gallery_tags (hash, tag_key) VALUES (?, ?)');
    for (let from = 0; from < ITEMS; from += 100_000) {
      db.transaction(() => {
        for (let i = from; i < Math.min(ITEMS, from + 100_000); i++) {
          insertItem.run(
            data.hashes[i],
            data.stripHashes[i],
            data.titles[i],
            data.titlesLower[i],
            data.userUuids[data.authors[i]],
            data.types[i],
            data.whitelisted[i],
            data.likes[i],
            data.downloads[i],
            data.createdAt[i],
            data.hidden[i],
          );
          for (const tag of tagsOf(data.tagMasks[i])) insertTag.run(data.hashes[i], tag);
        }
      })();
    }
    const insertLike = db.prepare('INSERT INTO gallery_likes (hash, user_uuid) VALUES (?, ?)');
    db.transaction(() => {
      for (let n = 0; n < data.likeItems.length; n++)
        insertLike.run(data.hashes[data.likeItems[n]], data.userUuids[data.likeUsers[n]]);
    })();
    for (const index of indexes) db.exec(index.sql);
    db.exec(
      `INSERT INTO gallery_counts (key, n) SELECT 'type:' || type, count(*) FROM gallery_items WHERE hidden = 0 GROUP BY type`,
    );
    db.exec(`INSERT INTO gallery_counts (key, n)
      SELECT 'tag:' || t.tag_key || ':type:' || g.type, count(*) FROM gallery_tags t JOIN gallery_items g ON g.hash = t.hash WHERE g.hidden = 0 GROUP BY t.tag_key, g.type`);
    const now = Date.now();
    db.prepare('INSERT INTO sessions (id, user_uuid, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
      sha256(SESSION_TOKEN),
      data.userUuids[VIEWER],
      now,
      now + 365 * 86_400_000,
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** PostgreSQL: multi-row INSERT … SELECT FROM unnest(…) in batches of 10,000; gallery indexes built after the load. */
export async function seedPostgres(url: string, data: Dataset): Promise<void> {
  const kysely = openDatabase(url);
  await migrateToLatest(kysely);
  await kysely.destroy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The data is consistent by construction: skip the per-row foreign key triggers while loading.
    await client.query('SET session_replication_role = replica');
    await client.query(`SET maintenance_work_mem = '1GB'`);
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [GALLERY_TABLES],
    );
    for (const index of indexes) await client.query(`DROP INDEX ${index.indexname}`);
    const BATCH = 10_000;
    for (let from = 0; from < USERS; from += BATCH) {
      const ids = range(from, Math.min(USERS, from + BATCH));
      await client.query(
        `INSERT INTO users (uuid, username, username_lower, group_id, banned, created_at)
         SELECT u, n, lower(n), 1, b, c FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) AS t(u, n, c, b)`,
        [
          ids.map((u) => data.userUuids[u]),
          ids.map((u) => `Player${u}`),
          ids.map((u) => data.start - 86_400_000 + u),
          ids.map((u) => (isBanned(u) ? 1 : 0)),
        ],
      );
    }
    for (let from = 0; from < ITEMS; from += BATCH) {
      const ids = range(from, Math.min(ITEMS, from + BATCH));
      await client.query(
        `INSERT INTO gallery_items (hash, strip_hash, title, title_lower, author_uuid, type, whitelisted, likes, downloads, created_at, hidden)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[], $10::bigint[], $11::int[])`,
        [
          ids.map((i) => data.hashes[i]),
          ids.map((i) => data.stripHashes[i]),
          ids.map((i) => data.titles[i]),
          ids.map((i) => data.titlesLower[i]),
          ids.map((i) => data.userUuids[data.authors[i]]),
          ids.map((i) => data.types[i]),
          ids.map((i) => data.whitelisted[i]),
          ids.map((i) => data.likes[i]),
          ids.map((i) => data.downloads[i]),
          ids.map((i) => data.createdAt[i]),
          ids.map((i) => data.hidden[i]),
        ],
      );
      const tagHashes: string[] = [];
      const tagKeys: string[] = [];
      for (const i of ids) {
        for (const tag of tagsOf(data.tagMasks[i])) {
          tagHashes.push(data.hashes[i]);
          tagKeys.push(tag);
        }
      }
      await client.query('INSERT INTO gallery_tags (hash, tag_key) SELECT * FROM unnest($1::text[], $2::text[])', [
        tagHashes,
        tagKeys,
      ]);
    }
    for (let from = 0; from < data.likeItems.length; from += BATCH) {
      const ids = range(from, Math.min(data.likeItems.length, from + BATCH));
      await client.query('INSERT INTO gallery_likes (hash, user_uuid) SELECT * FROM unnest($1::text[], $2::text[])', [
        ids.map((n) => data.hashes[data.likeItems[n]]),
        ids.map((n) => data.userUuids[data.likeUsers[n]]),
      ]);
    }
    // What gallery_items' triggers (migrations 0006 and 0009: listed items only) would have written, had
    // replication_role not skipped them.
    await client.query(
      'INSERT INTO gallery_title_counts (title_lower, items) SELECT title_lower, count(*) FROM gallery_items WHERE hidden = 0 GROUP BY title_lower',
    );
    for (const index of indexes) await client.query(index.indexdef);
    await client.query('SET session_replication_role = DEFAULT');
    await client.query(
      `INSERT INTO gallery_counts (key, n) SELECT 'type:' || type, count(*) FROM gallery_items WHERE hidden = 0 GROUP BY type`,
    );
    await client.query(`INSERT INTO gallery_counts (key, n)
      SELECT 'tag:' || t.tag_key || ':type:' || g.type, count(*) FROM gallery_tags t JOIN gallery_items g ON g.hash = t.hash WHERE g.hidden = 0 GROUP BY t.tag_key, g.type`);
    const now = Date.now();
    await client.query('INSERT INTO sessions (id, user_uuid, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      sha256(SESSION_TOKEN),
      data.userUuids[VIEWER],
      now,
      now + 365 * 86_400_000,
    ]);
    // What autovacuum would have done by the time a real gallery holds a million items.
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

/** The numbers from `from` up to `to` (exclusive). */
function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

/** The size of a PostgreSQL database, as PostgreSQL prints it. */
export async function pgSize(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    return `database ${rows[0].size}`;
  } finally {
    await client.end();
  }
}
