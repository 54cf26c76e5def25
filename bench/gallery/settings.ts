// The gallery bench's settings (from the environment) and fixed figures.

/** How many gallery items and players the bench seeds. */
export const ITEMS = Number(process.env.ITEMS ?? 1_000_000);
export const USERS = Number(process.env.USERS ?? 100_000);
/** The databases the bench runs on, in order. */
export const BACKENDS = (process.env.BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
/** Timed requests per case, after WARMUP untimed ones. */
export const SAMPLES = Number(process.env.SAMPLES ?? 40);
export const WARMUP = 3;
/** The goal: every goal case answers within this at p95. */
export const GOAL_P95_MS = 25;
/** Where the PostgreSQL run creates (and drops) its database. */
export const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Which cases get their query plans printed: those over the goal, all, or none. */
export const EXPLAIN = (process.env.EXPLAIN ?? 'fail') as 'fail' | 'all' | 'none';
/** KEEP=1 leaves the seeded databases in place for manual EXPLAIN (the script prints where they are). */
export const KEEP = process.env.KEEP === '1';
/** The items' creation times spread over two years. */
export const TWO_YEARS_MS = 2 * 365 * 24 * 3600 * 1000;
/**
 * Every n-th player is banned (0: none): their items are in the tables but hidden (migration 0009), as a ban leaves
 * them.
 */
export const BANNED_EVERY = Number(process.env.BANNED_EVERY ?? 100);
/** The gallery's tables, whose indexes are built after the load. */
export const GALLERY_TABLES = ['gallery_items', 'gallery_tags', 'gallery_likes', 'gallery_title_counts'];
/** The session the timed requests are made with, and the index of its player (never banned). */
export const SESSION_TOKEN = 'gallery-bench-session-token';
export const VIEWER = 1;
