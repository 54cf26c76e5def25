// Gallery query latency: seeds 1,000,000 items over 100,000 users (tags, likes) on SQLite and PostgreSQL, then times
// GET /api/gallery/get over HTTP (first page of each sort, title search, tag and type filters, page 500, combined)
// against the 25 ms p95 goal. Prints the query plans of any case that misses it.
//
//   npx tsx bench/gallery.ts
//   env ITEMS (1000000), USERS (100000), BACKENDS ("sqlite,postgres"), SAMPLES (40), BANNED_EVERY (100: every 100th player
//       is banned and their items hidden, as a ban leaves them; 0 for none),
//       PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/test), EXPLAIN ("fail" | "all" | "none"; default "fail"),
//       KEEP=1 (keep the seeded databases for manual EXPLAIN; the script prints where they are)
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery, type LogEvent } from 'kysely';
import pg from 'pg';
import { GALLERY_COUNT_CAP, GALLERY_PER_PAGE, GALLERY_SORTS, GALLERY_TYPES, type GallerySort, type GalleryTypeName } from '../src/lib/gallery-rules.ts';
import { migrateToLatest, openDatabase } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';
import { DEFAULT_TAGS } from '../server/db/migrations/seed-rows.ts';
import { listGallery, type GalleryQuery } from '../server/gallery/queries.ts';
import { freePort } from '../support/app-process.ts';

const ITEMS = Number(process.env.ITEMS ?? 1_000_000);
const USERS = Number(process.env.USERS ?? 100_000);
const BACKENDS = (process.env.BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
const SAMPLES = Number(process.env.SAMPLES ?? 40);
const WARMUP = 3;
const GOAL_P95_MS = 25;
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const EXPLAIN = (process.env.EXPLAIN ?? 'fail') as 'fail' | 'all' | 'none';
/** KEEP=1 leaves the seeded databases in place for manual EXPLAIN (the script prints where they are). */
const KEEP = process.env.KEEP === '1';
const TWO_YEARS_MS = 2 * 365 * 24 * 3600 * 1000;
/** Every n-th player is banned (0: none): their items are in the tables but hidden (migration 0009), as a ban leaves them. */
const BANNED_EVERY = Number(process.env.BANNED_EVERY ?? 100);
const GALLERY_TABLES = ['gallery_items', 'gallery_tags', 'gallery_likes', 'gallery_title_counts'];

// ---------------------------------------------------------------------------------------------------------------
// Deterministic data

/** mulberry32: a small, fast, seedable PRNG returning [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sampler of indices 0..n-1 with Zipf weights 1/(rank+1)^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / Math.pow(i + 1, s);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Title words, most popular first (Zipf-distributed in titles). */
const WORDS = (
  'cool red blue dark fire dragon shadow gold night star black green pixel ice storm king wolf neon purple galaxy ' +
  'moon sun ocean forest rainbow ender creeper diamond emerald crystal sky light void frost thunder lava phoenix tiger ' +
  'cat fox panda bee axolotl slime ghost demon angel knight wizard ninja samurai pirate royal crown heart flower cherry ' +
  'sakura autumn winter summer spring snow rain cloud sunset sunrise aurora comet nebula cosmic solar lunar astral ' +
  'mystic magic rune ancient golden silver bronze copper iron steel obsidian quartz amethyst ruby sapphire topaz jade ' +
  'pearl coral wave tide river mountain desert jungle swamp cave nether end portal beacon torch lantern candle ember ' +
  'flame blaze spark bolt volt static glitch retro vapor synth cyber techno robot mech circuit binary matrix code ' +
  'hacker gamer legend hero villain rogue hunter archer mage sorcerer witch warlock druid paladin monk bard ranger ' +
  'viking spartan titan giant dwarf elf orc goblin troll kraken hydra griffin unicorn pegasus basilisk chimera ' +
  'wyvern serpent viper cobra raven crow owl hawk eagle falcon sparrow swan flamingo peacock parrot penguin dolphin ' +
  'whale shark octopus jellyfish turtle frog lizard gecko hamster bunny kitten puppy otter koala sloth llama alpaca ' +
  'mushroom cactus bamboo clover lotus orchid tulip daisy poppy lavender marigold zinnia quokka narwhal'
).split(' ');

/** Tag keys by popularity, most used first. */
const TAG_POPULARITY = [
  'colourful',
  'minimal',
  'anime',
  'games',
  'pixel-art',
  'dark',
  'abstract',
  'animals',
  'cute',
  'memes',
  'nature',
  'space',
  'logos',
  'flags',
  'text',
  'vanilla-style',
  'pride',
  'food',
  'sports',
  'holidays',
];

interface Dataset {
  userUuids: string[];
  hashes: string[];
  stripHashes: Array<string | null>;
  titles: string[];
  titlesLower: string[];
  authors: Int32Array;
  types: Uint8Array;
  whitelisted: Uint8Array;
  likes: Int32Array;
  downloads: Int32Array;
  createdAt: Float64Array;
  /** Bit i set when the item has TAG_POPULARITY[i]. */
  tagMasks: Uint32Array;
  /** gallery_likes rows as (item index, user index) pairs. */
  likeItems: Int32Array;
  likeUsers: Int32Array;
  tagRows: number;
  start: number;
  /** 1 for the items of banned players (hidden). */
  hidden: Uint8Array;
}

/** Whether the bench bans player `u` (never the viewer). */
function isBanned(u: number): boolean {
  return BANNED_EVERY > 0 && u !== VIEWER && u % BANNED_EVERY === BANNED_EVERY - 1;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Builds the whole data set in memory (same for every backend). */
function generate(): Dataset {
  const random = mulberry32(0xc10a4);
  const word = zipf(WORDS.length, 1, random);
  const tag = zipf(TAG_POPULARITY.length, 1, random);
  const userUuids = Array.from({ length: USERS }, (_, i) => sha256(`user-${i}`).slice(0, 32));
  const hashes = new Array<string>(ITEMS);
  const stripHashes = new Array<string | null>(ITEMS);
  const titles = new Array<string>(ITEMS);
  const titlesLower = new Array<string>(ITEMS);
  const authors = new Int32Array(ITEMS);
  const types = new Uint8Array(ITEMS);
  const whitelisted = new Uint8Array(ITEMS);
  const likes = new Int32Array(ITEMS);
  const downloads = new Int32Array(ITEMS);
  const createdAt = new Float64Array(ITEMS);
  const tagMasks = new Uint32Array(ITEMS);
  const start = Date.UTC(2024, 10, 1);
  let tagRows = 0;
  let totalLikes = 0;
  for (let i = 0; i < ITEMS; i++) {
    hashes[i] = sha256(`gallery-item-${i}`);
    const r = random();
    const type = r < 0.7 ? 0 : r < 0.9 ? 1 : 2;
    types[i] = type;
    stripHashes[i] = type === 2 ? sha256(`gallery-strip-${i}`) : null;
    // Title: 1-3 words, an optional number, at most 20 characters, in one of three casings.
    const wordCount = 1 + (random() < 0.35 ? 0 : random() < 0.7 ? 1 : 2);
    const separator = random() < 0.85 ? ' ' : '_';
    const casing = random();
    let title = '';
    for (let w = 0; w < wordCount; w++) {
      let next = WORDS[word()];
      next = casing < 0.6 ? next[0].toUpperCase() + next.slice(1) : casing < 0.9 ? next : next.toUpperCase();
      const candidate = title ? `${title}${separator}${next}` : next;
      if (candidate.length > 20) break;
      title = candidate;
    }
    if (random() < 0.25) {
      const number = String(1 + Math.floor(random() * 2025));
      const candidate = random() < 0.5 ? `${title} ${number}` : `${title}${number}`;
      if (candidate.length <= 20) title = candidate;
    }
    titles[i] = title;
    titlesLower[i] = title.toLowerCase();
    authors[i] = Math.floor(random() * USERS);
    whitelisted[i] = random() < 0.01 ? 1 : 0;
    // Likes: Lomax (Pareto II, alpha 1.5): about 72 % zero, 96 % at most 5, a few dozen in the thousands.
    likes[i] = Math.min(USERS, Math.floor(0.75 * (Math.pow(1 - random(), -1 / 1.5) - 1)));
    totalLikes += likes[i];
    downloads[i] = likes[i] * (1 + Math.floor(random() * 8)) + Math.floor(2 * (Math.pow(1 - random(), -1 / 1.3) - 1));
    // Uploads spread over two years, in insertion order, with some jitter.
    createdAt[i] = Math.floor(start + (i / ITEMS) * TWO_YEARS_MS + random() * 3_600_000);
    const tagCount = random() < 0.4 ? 1 : random() < 0.67 ? 2 : 3;
    let mask = 0;
    while (countBits(mask) < tagCount) mask |= 1 << tag();
    tagMasks[i] = mask;
    tagRows += tagCount;
  }
  const hidden = Uint8Array.from(authors, (author) => (isBanned(author) ? 1 : 0));
  // gallery_likes: for each item, `likes` distinct random users, so gallery_items.likes matches the rows.
  const likeItems = new Int32Array(totalLikes);
  const likeUsers = new Int32Array(totalLikes);
  let n = 0;
  for (let i = 0; i < ITEMS; i++) {
    const k = likes[i];
    if (k === 0) continue;
    const chosen = new Set<number>();
    while (chosen.size < k) chosen.add(Math.floor(random() * USERS));
    for (const user of chosen) {
      likeItems[n] = i;
      likeUsers[n] = user;
      n++;
    }
  }
  return {
    userUuids,
    hashes,
    stripHashes,
    titles,
    titlesLower,
    authors,
    types,
    whitelisted,
    likes,
    downloads,
    createdAt,
    tagMasks,
    likeItems,
    likeUsers,
    tagRows,
    start,
    hidden,
  };
}

function countBits(mask: number): number {
  let count = 0;
  for (let m = mask; m; m &= m - 1) count++;
  return count;
}

function tagsOf(mask: number): string[] {
  const tags: string[] = [];
  for (let t = 0; t < TAG_POPULARITY.length; t++) if (mask & (1 << t)) tags.push(TAG_POPULARITY[t]);
  return tags;
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

const SESSION_TOKEN = 'gallery-bench-session-token';
const VIEWER = 1;

/** SQLite: better-sqlite3 with prepared statements in big transactions; gallery indexes built after the load. */
async function seedSqlite(file: string, data: Dataset): Promise<void> {
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
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${GALLERY_TABLES.map(() => '?').join(',')})`)
      .all(...GALLERY_TABLES) as Array<{ name: string; sql: string }>;
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);

    const insertUser = db.prepare('INSERT INTO users (uuid, username, username_lower, group_id, banned, created_at) VALUES (?, ?, ?, 1, ?, ?)');
    db.transaction(() => {
      for (let u = 0; u < USERS; u++) insertUser.run(data.userUuids[u], `Player${u}`, `player${u}`, isBanned(u) ? 1 : 0, data.start - 86_400_000 + u);
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
      for (let n = 0; n < data.likeItems.length; n++) insertLike.run(data.hashes[data.likeItems[n]], data.userUuids[data.likeUsers[n]]);
    })();
    for (const index of indexes) db.exec(index.sql);
    db.exec(`INSERT INTO gallery_counts (key, n) SELECT 'type:' || type, count(*) FROM gallery_items WHERE hidden = 0 GROUP BY type`);
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
async function seedPostgres(url: string, data: Dataset): Promise<void> {
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
        [ids.map((u) => data.userUuids[u]), ids.map((u) => `Player${u}`), ids.map((u) => data.start - 86_400_000 + u), ids.map((u) => (isBanned(u) ? 1 : 0))],
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
      await client.query('INSERT INTO gallery_tags (hash, tag_key) SELECT * FROM unnest($1::text[], $2::text[])', [tagHashes, tagKeys]);
    }
    for (let from = 0; from < data.likeItems.length; from += BATCH) {
      const ids = range(from, Math.min(data.likeItems.length, from + BATCH));
      await client.query('INSERT INTO gallery_likes (hash, user_uuid) SELECT * FROM unnest($1::text[], $2::text[])', [
        ids.map((n) => data.hashes[data.likeItems[n]]),
        ids.map((n) => data.userUuids[data.likeUsers[n]]),
      ]);
    }
    // What gallery_items' triggers (migrations 0006 and 0009: listed items only) would have written, had replication_role not skipped them.
    await client.query(
      'INSERT INTO gallery_title_counts (title_lower, items) SELECT title_lower, count(*) FROM gallery_items WHERE hidden = 0 GROUP BY title_lower',
    );
    for (const index of indexes) await client.query(index.indexdef);
    await client.query('SET session_replication_role = DEFAULT');
    await client.query(`INSERT INTO gallery_counts (key, n) SELECT 'type:' || type, count(*) FROM gallery_items WHERE hidden = 0 GROUP BY type`);
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

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

// ---------------------------------------------------------------------------------------------------------------
// Cases

interface Case {
  name: string;
  /** Part of the issue's goal (p95 ≤ 25 ms); other cases are shown for information. */
  goal: boolean;
  /** The query parameters of sample k. */
  params: (k: number) => Record<string, string>;
  /** Another path than /api/gallery/get (the baseline); its answer is not checked. */
  path?: string;
  /** Fewer samples than SAMPLES (for the slow extra cases). */
  samples?: number;
}

/** Picks the search terms from the generated titles: mid-frequency fragments, rare whole words, 3-letter fragments. */
function searchTerms(data: Dataset) {
  const byFrequency = new Map<string, number>();
  for (const title of data.titlesLower) for (const w of title.split(/[ _0-9]+/)) if (w) byFrequency.set(w, (byFrequency.get(w) ?? 0) + 1);
  const ranked = [...byFrequency.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  const mid = ranked
    .slice(25, 60)
    .filter((w) => w.length >= 6)
    .slice(0, 4)
    .map((w) => w.slice(1, 1 + Math.min(5, w.length - 1)));
  const rare = ranked
    .slice(-30)
    .filter((w) => w.length >= 5)
    .slice(0, 4);
  const three = ['ing', 'ark', 'ter', 'sta'];
  return { mid, rare, three, two: ['ra', 'ne', 'ko', 'sh'] };
}

function buildCases(data: Dataset, terms: ReturnType<typeof searchTerms>): Case[] {
  const cases: Case[] = [];
  cases.push({ name: '(baseline) GET /api/gallery/tags', goal: false, path: '/api/gallery/tags', params: () => ({}) });
  for (const sort of GALLERY_SORTS) cases.push({ name: `first page, ${sort}`, goal: true, params: () => ({ page: '1', sortBy: sort }) });
  const title = (list: string[]) => (k: number) => ({ page: '1', sortBy: 'likes_desc', title: list[k % list.length] });
  cases.push({ name: `title, 4-6 letters of a mid word (${terms.mid.join('/')})`, goal: true, params: title(terms.mid) });
  cases.push({ name: `title, rare whole word (${terms.rare.join('/')})`, goal: true, params: title(terms.rare) });
  cases.push({ name: `title, 3 letters (${terms.three.join('/')})`, goal: true, params: title(terms.three) });
  const popular = TAG_POPULARITY[0];
  const rare = TAG_POPULARITY[TAG_POPULARITY.length - 1];
  const mid = TAG_POPULARITY[6];
  cases.push({ name: `tag ${popular} (most used)`, goal: true, params: () => ({ page: '1', sortBy: 'likes_desc', tags: JSON.stringify([popular]) }) });
  cases.push({ name: `tag ${rare} (least used)`, goal: true, params: () => ({ page: '1', sortBy: 'likes_desc', tags: JSON.stringify([rare]) }) });
  cases.push({ name: 'type ears', goal: true, params: () => ({ page: '1', sortBy: 'likes_desc', type: JSON.stringify(['ears']) }) });
  cases.push({ name: 'type animated', goal: true, params: () => ({ page: '1', sortBy: 'likes_desc', type: JSON.stringify(['animated']) }) });
  cases.push({ name: 'type cape+animated', goal: true, params: () => ({ page: '1', sortBy: 'likes_desc', type: JSON.stringify(['cape', 'animated']) }) });
  cases.push({ name: 'page 500, likes_desc', goal: true, params: () => ({ page: '500', sortBy: 'likes_desc' }) });
  cases.push({ name: 'page 500, uploaded_desc', goal: true, params: () => ({ page: '500', sortBy: 'uploaded_desc' }) });
  cases.push({
    name: `tag ${mid} + animated, downloads_desc`,
    goal: true,
    params: () => ({ page: '1', sortBy: 'downloads_desc', tags: JSON.stringify([mid]), type: JSON.stringify(['animated']) }),
  });
  cases.push({
    name: `tag ${rare} + ears, uploaded_desc`,
    goal: true,
    params: () => ({ page: '1', sortBy: 'uploaded_desc', tags: JSON.stringify([rare]), type: JSON.stringify(['ears']) }),
  });
  // Beyond the issue's list, for information.
  cases.push({ name: `(extra) title, 2 letters (${terms.two.join('/')})`, goal: false, samples: 20, params: title(terms.two) });
  cases.push({
    name: `(extra) two tags ${popular}+${mid}, 5 samples`,
    goal: false,
    samples: 5,
    params: () => ({ page: '1', sortBy: 'likes_desc', tags: JSON.stringify([popular, mid]) }),
  });
  cases.push({
    name: `(extra) author's items (user=…)`,
    goal: false,
    params: () => ({ page: '1', sortBy: 'uploaded_desc', user: data.userUuids[data.authors[data.hidden.indexOf(0)]] }),
  });
  return cases;
}

/** The filter the route builds from the query parameters (mirrors server/routes/gallery.ts). */
function toFilter(params: Record<string, string>): GalleryQuery {
  const types = params.type ? (JSON.parse(params.type) as GalleryTypeName[]).map((name) => GALLERY_TYPES[name]) : undefined;
  return {
    page: Number(params.page ?? 1),
    sort: (params.sortBy ?? 'likes_desc') as GallerySort,
    title: params.title?.trim().toLowerCase() || undefined,
    types,
    tags: params.tags ? (JSON.parse(params.tags) as string[]) : undefined,
    author: params.user || undefined,
  };
}

/** The expected total of a filter, counted from the in-memory data set. */
function expectedTotal(data: Dataset, filter: GalleryQuery, cache: Map<string, number>): number {
  const key = JSON.stringify({ ...filter, page: 0, sort: '' });
  const known = cache.get(key);
  if (known !== undefined) return known;
  const typeSet = filter.types && filter.types.length > 0 ? new Set(filter.types) : null;
  let tagMask = 0;
  for (const tag of filter.tags ?? []) tagMask |= 1 << TAG_POPULARITY.indexOf(tag);
  const author = filter.author ? data.userUuids.indexOf(filter.author) : -1;
  let total = 0;
  for (let i = 0; i < ITEMS; i++) {
    if (data.hidden[i]) continue;
    if (typeSet && !typeSet.has(data.types[i])) continue;
    if ((data.tagMasks[i] & tagMask) !== tagMask) continue;
    if (filter.author && data.authors[i] !== author) continue;
    if (filter.title && !data.titlesLower[i].includes(filter.title)) continue;
    total++;
  }
  cache.set(key, total);
  return total;
}

interface ApiItem {
  hash: string;
  title: string;
  total_user_likes: number;
  downloads: number;
  createdAt: string;
}

/** Checks one answer: status, page size, total (a search's total capped at GALLERY_COUNT_CAP) and order; returns a problem or null. */
function checkAnswer(status: number, body: unknown, filter: GalleryQuery, expected: number): string | null {
  if (status !== 200) return `status ${status}: ${JSON.stringify(body).slice(0, 200)}`;
  const page = body as { data: ApiItem[]; total: number; total_capped: boolean; per_page: number; current_page: number };
  const search = Boolean(filter.title) || (filter.tags?.length ?? 0) >= 2;
  const capped = search && expected > GALLERY_COUNT_CAP;
  const total = capped ? GALLERY_COUNT_CAP : expected;
  if (page.total !== total || page.total_capped !== capped) return `total ${page.total} (capped ${page.total_capped}), expected ${total} (capped ${capped})`;
  const size = Math.max(0, Math.min(GALLERY_PER_PAGE, expected - (filter.page - 1) * GALLERY_PER_PAGE));
  if (page.data.length !== size) return `${page.data.length} items, expected ${size}`;
  const [field, direction] = filter.sort.split('_');
  const value = (item: ApiItem) =>
    field === 'likes'
      ? item.total_user_likes
      : field === 'downloads'
        ? item.downloads
        : field === 'name'
          ? item.title.toLowerCase()
          : Date.parse(item.createdAt);
  for (let k = 1; k < page.data.length; k++) {
    const a = value(page.data[k - 1]);
    const b = value(page.data[k]);
    if (direction === 'asc' ? a > b : a < b) return `items out of ${filter.sort} order at ${k}`;
  }
  if (filter.title && page.data.some((item) => !item.title.toLowerCase().includes(filter.title!))) return 'an item does not match the title';
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Server and measurement

async function startServer(port: number, dataDir: string, databaseUrl: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SKIP_SITE_BUILD: 'true',
    LOG_LEVEL: 'warn',
  };
  for (const name of Object.keys(env)) if (name === 'REDIS_URL' || name.startsWith('S3_')) delete env[name];
  const child = spawn('npx', ['tsx', 'server/main.ts'], { env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/home`)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await stopServer(child);
  throw new Error(exited ? 'the server exited before answering' : 'the server did not answer within 60 s');
}

async function stopServer(child: ChildProcess): Promise<void> {
  // npx, tsx and the server share the process group; wait until all of them are gone (the server closes its pool).
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  const waitGone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (groupAlive() && Date.now() < deadline) await sleep(100);
    return !groupAlive();
  };
  if (!groupAlive()) return;
  process.kill(-child.pid!, 'SIGTERM');
  if (await waitGone(12_000)) return;
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  await waitGone(3_000);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Result {
  name: string;
  goal: boolean;
  p50: number;
  p95: number;
  max: number;
  /** The same call made in-process (listGallery on the bench's own connection), no HTTP: p50 and p95. */
  dbP50?: number;
  dbP95?: number;
  problems: string[];
  pass: boolean;
}

function summarize(c: Case, times: number[], problems: string[]): Result {
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  return {
    name: c.name,
    goal: c.goal,
    p50: percentile(times, 50),
    p95,
    max: times[times.length - 1],
    problems,
    pass: p95 <= GOAL_P95_MS && problems.length === 0,
  };
}

/**
 * Times every case over HTTP, one request at a time. The cases take turns (round k asks each case once), so a burst of
 * load from elsewhere on the machine spreads over all cases instead of sinking one.
 */
async function measure(port: number, cases: Case[], data: Dataset): Promise<Result[]> {
  const totals = new Map<string, number>();
  const times = cases.map(() => [] as number[]);
  const problems = cases.map(() => new Set<string>());
  for (let k = 0; k < WARMUP + SAMPLES; k++) {
    for (const [index, c] of cases.entries()) {
      if (k >= WARMUP + Math.min(SAMPLES, c.samples ?? SAMPLES)) continue;
      const params = c.params(k);
      const url = `http://127.0.0.1:${port}${c.path ?? '/api/gallery/get'}?${new URLSearchParams(params)}`;
      const began = performance.now();
      const response = await fetch(url, { headers: { cookie: `session=${SESSION_TOKEN}`, accept: 'application/json' } });
      const body = await response.json();
      const elapsed = performance.now() - began;
      if (k >= WARMUP) times[index].push(elapsed);
      if (c.path) {
        if (response.status !== 200) problems[index].add(`status ${response.status}`);
        continue;
      }
      const filter = toFilter(params);
      const problem = checkAnswer(response.status, body, filter, expectedTotal(data, filter, totals));
      if (problem) problems[index].add(`${JSON.stringify(params)}: ${problem}`);
    }
  }
  return cases.map((c, index) => summarize(c, times[index], [...problems[index]]));
}

/** Times listGallery in-process on the bench's own connection (what the database costs without HTTP and Fastify). */
async function measureDirect(db: Kysely<Database>, cases: Case[], results: Result[], viewer: string): Promise<void> {
  const times = cases.map(() => [] as number[]);
  for (let k = 0; k < WARMUP + SAMPLES; k++) {
    for (const [index, c] of cases.entries()) {
      if (c.path || k >= WARMUP + Math.min(SAMPLES, c.samples ?? SAMPLES)) continue;
      const began = performance.now();
      await listGallery(db, toFilter(c.params(k)), viewer);
      if (k >= WARMUP) times[index].push(performance.now() - began);
    }
  }
  for (const [index, list] of times.entries()) {
    if (list.length === 0) continue;
    list.sort((a, b) => a - b);
    results[index].dbP50 = percentile(list, 50);
    results[index].dbP95 = percentile(list, 95);
  }
}

function formatRow(r: Result): string {
  const verdict = r.problems.length > 0 ? 'WRONG' : r.p95 <= GOAL_P95_MS ? 'PASS' : 'FAIL';
  const db = r.dbP50 === undefined ? '' : `  | in-process p50 ${r.dbP50.toFixed(1).padStart(6)} p95 ${r.dbP95!.toFixed(1).padStart(6)}`;
  return `  ${r.name.padEnd(62)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms  ${(r.goal ? verdict : `(${verdict})`).padEnd(6)}${db}`;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Diagnosis: the SQL listGallery runs for a case, each query's time and plan

type Explainer = {
  db: Kysely<Database>;
  captured: CompiledQuery[];
  plan: (query: CompiledQuery) => Promise<string>;
  time: (query: CompiledQuery) => Promise<number>;
  close: () => Promise<void>;
};

function sqliteExplainer(file: string): Explainer {
  const raw = new SQLite(file);
  const captured: CompiledQuery[] = [];
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(file) }), log: (event: LogEvent) => void captured.push(event.query) });
  return {
    db,
    captured,
    plan: async (query) => {
      const rows = raw.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{
        id: number;
        parent: number;
        detail: string;
      }>;
      const depth = new Map<number, number>([[0, 0]]);
      return rows
        .map((row) => {
          const d = (depth.get(row.parent) ?? 0) + 1;
          depth.set(row.id, d);
          return `${'  '.repeat(d)}${row.detail}`;
        })
        .join('\n');
    },
    time: async (query) => {
      const statement = raw.prepare(query.sql);
      const began = performance.now();
      statement.all(...(query.parameters as unknown[]));
      return performance.now() - began;
    },
    close: async () => {
      await db.destroy();
      raw.close();
    },
  };
}

function postgresExplainer(url: string): Explainer {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const captured: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
    log: (event: LogEvent) => void captured.push(event.query),
  });
  return {
    db,
    captured,
    plan: async (query) => {
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.parameters as unknown[]);
      return rows.map((row: Record<string, string>) => `    ${row['QUERY PLAN']}`).join('\n');
    },
    time: async (query) => {
      const began = performance.now();
      await pool.query(query.sql, query.parameters as unknown[]);
      return performance.now() - began;
    },
    close: async () => {
      await db.destroy();
      await pool.end();
    },
  };
}

async function diagnose(explainer: Explainer, cases: Case[], results: Result[], viewer: string): Promise<void> {
  for (const [index, c] of cases.entries()) {
    const result = results[index];
    if (c.path) continue;
    if (EXPLAIN === 'none' || (EXPLAIN === 'fail' && result.p95 <= GOAL_P95_MS)) continue;
    const seen = new Set<string>();
    for (let k = 0; k < Math.min(SAMPLES, 4); k++) {
      const params = c.params(k);
      if (seen.has(JSON.stringify(params))) continue;
      seen.add(JSON.stringify(params));
      explainer.captured.length = 0;
      await listGallery(explainer.db, toFilter(params), viewer);
      console.log(`\n  -- ${c.name}: ${JSON.stringify(params)}`);
      for (const query of [...explainer.captured]) {
        const times: number[] = [];
        for (let r = 0; r < 5; r++) times.push(await explainer.time(query));
        times.sort((a, b) => a - b);
        console.log(`  [${times[2].toFixed(1)} ms median of 5] ${query.sql}`);
        console.log(`  parameters ${JSON.stringify(query.parameters).slice(0, 300)}`);
        console.log(await explainer.plan(query));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Main

const cleanups: Array<{ name: string; run: () => Promise<void> }> = [];

async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop()!;
    try {
      await Promise.race([step.run(), sleep(30_000).then(() => Promise.reject(new Error('timed out after 30 s')))]);
    } catch (error) {
      console.error(`cleanup "${step.name}" failed: ${String(error)}`);
    }
  }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: cleaning up`);
    void runCleanups().finally(() => process.exit(130));
  });
}

async function runBackend(backend: string, data: Dataset, cases: Case[]): Promise<Result[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-gallery-bench-'));
  if (KEEP) console.log(`KEEP: the ${backend} database stays (folder ${dir}); remove it yourself`);
  else cleanups.push({ name: `remove ${dir}`, run: async () => fs.rmSync(dir, { recursive: true, force: true }) });
  let databaseUrl: string;
  let explainer: () => Explainer;
  const began = performance.now();
  if (backend === 'sqlite') {
    const file = path.join(dir, 'gallery.db');
    databaseUrl = `sqlite:${file}`;
    await seedSqlite(file, data);
    explainer = () => sqliteExplainer(file);
  } else if (backend === 'postgres') {
    const name = `cloakroom_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    if (KEEP) console.log(`KEEP: database ${name} stays; DROP DATABASE ${name} when done`);
    else
      cleanups.push({
        name: `drop database ${name}`,
        run: async () => {
          const client = new pg.Client({ connectionString: PG_ADMIN_URL });
          await client.connect();
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          } finally {
            await client.end();
          }
        },
      });
    const target = new URL(PG_ADMIN_URL);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
    await seedPostgres(databaseUrl, data);
    explainer = () => postgresExplainer(databaseUrl);
  } else {
    throw new Error(`unknown backend ${backend} (sqlite or postgres)`);
  }
  const seedSeconds = (performance.now() - began) / 1000;
  const size = backend === 'sqlite' ? `${(fs.statSync(path.join(dir, 'gallery.db')).size / 1e9).toFixed(2)} GB file` : await pgSize(databaseUrl);
  console.log(`\n== ${backend}: seeded in ${seedSeconds.toFixed(1)} s (${size})`);

  const port = await freePort();
  const server = await startServer(port, path.join(dir, 'data'), databaseUrl);
  cleanups.push({ name: 'stop the server', run: () => stopServer(server) });
  const loadBefore = loadAverage();
  const results = await measure(port, cases, data);
  console.log(`  load average ${loadBefore} before, ${loadAverage()} after the HTTP runs (${os.cpus().length} CPUs)`);
  await stopServer(server);

  const e = explainer();
  try {
    await measureDirect(e.db, cases, results, data.userUuids[VIEWER]);
    for (const result of results) {
      console.log(formatRow(result));
      for (const problem of result.problems) console.log(`      ! ${problem}`);
    }
    if (EXPLAIN !== 'none' && results.some((r) => EXPLAIN === 'all' || r.p95 > GOAL_P95_MS)) {
      console.log(`\n== ${backend}: queries of the cases over ${GOAL_P95_MS} ms at p95`);
      await diagnose(e, cases, results, data.userUuids[VIEWER]);
    }
  } finally {
    await e.close();
  }
  await runCleanups();
  return results;
}

async function pgSize(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    return `database ${rows[0].size}`;
  } finally {
    await client.end();
  }
}

try {
  const began = performance.now();
  const data = generate();
  const terms = searchTerms(data);
  const cases = buildCases(data, terms);
  const tagCounts = TAG_POPULARITY.map((tag, t) => data.tagMasks.reduce((n, mask) => n + ((mask >> t) & 1), 0));
  const zeroLikes = data.likes.reduce((n, l) => n + (l === 0 ? 1 : 0), 0);
  const maxLikes = data.likes.reduce((m, l) => Math.max(m, l), 0);
  console.log(
    `gallery bench: ${ITEMS.toLocaleString('en')} items, ${USERS.toLocaleString('en')} users, ${data.tagRows.toLocaleString('en')} item tags, ` +
      `${data.likeItems.length.toLocaleString('en')} likes; ${SAMPLES} samples per case after ${WARMUP} warm-up requests; generated in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  console.log(
    `  likes: ${((zeroLikes / ITEMS) * 100).toFixed(0)} % of items have none, max ${maxLikes}; ` +
      `types: ${[0, 1, 2].map((t) => data.types.reduce((n, x) => n + (x === t ? 1 : 0), 0)).join(' / ')} (cape / ears / animated)`,
  );
  const hiddenItems = data.hidden.reduce((n, h) => n + h, 0);
  console.log(`  banned: every ${BANNED_EVERY || 'no'} player, ${hiddenItems.toLocaleString('en')} hidden items`);
  console.log(`  tags: ${TAG_POPULARITY.map((tag, t) => `${tag} ${tagCounts[t]}`).join(', ')}`);
  const counts = new Map<string, number>();
  for (const term of [...terms.mid, ...terms.rare, ...terms.three, ...terms.two])
    counts.set(term, expectedTotal(data, { page: 1, sort: 'likes_desc', title: term }, new Map()));
  console.log(`  title matches: ${[...counts].map(([term, n]) => `"${term}" ${n}`).join(', ')}`);
  if (DEFAULT_TAGS.length !== TAG_POPULARITY.length || DEFAULT_TAGS.some((t) => !TAG_POPULARITY.includes(t.tag_key)))
    throw new Error('TAG_POPULARITY does not match DEFAULT_TAGS');

  const all = new Map<string, Result[]>();
  for (const backend of BACKENDS) all.set(backend, await runBackend(backend, data, cases));

  console.log(`\n== summary: HTTP p50 / p95 in ms (goal p95 ≤ ${GOAL_P95_MS} ms), and in-process p95; Markdown`);
  console.log(`| Case | ${BACKENDS.map((b) => `${b} p50 | ${b} p95 | ${b} in-process p95`).join(' | ')} |`);
  console.log(`| --- | ${BACKENDS.map(() => '---: | ---: | ---:').join(' | ')} |`);
  for (const [index, c] of cases.entries()) {
    const cells = BACKENDS.map((b) => {
      const r = all.get(b)![index];
      const p95 = r.p95.toFixed(1);
      const mark = !c.goal ? p95 : r.problems.length ? `${p95} WRONG` : r.pass ? p95 : `**${p95}** ✗`;
      return `${r.p50.toFixed(1)} | ${mark} | ${r.dbP95 === undefined ? '–' : r.dbP95.toFixed(1)}`;
    });
    console.log(`| ${c.name} | ${cells.join(' | ')} |`);
  }
  const failed = [...all.values()].flat().filter((r) => r.goal && !r.pass);
  console.log(
    failed.length === 0 ? '\nPASS: every goal case within 25 ms at p95' : `\nFAIL: ${failed.length} goal case(s) over 25 ms at p95 or with wrong answers`,
  );
  process.exitCode = failed.length === 0 ? 0 : 1;
} catch (error) {
  console.error(error);
  process.exitCode = 2;
} finally {
  await runCleanups();
}
