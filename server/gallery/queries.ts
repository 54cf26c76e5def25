// Gallery reads: the filtered, sorted page of items (FTS5 trigram / pg_trgm title search, index-ordered sorts) and its
// total.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { GALLERY_COUNT_CAP, GALLERY_PER_PAGE, type GallerySort } from '../../src/lib/gallery-rules.ts';
import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import type { GalleryItem, GalleryPage } from '../../src/lib/schemas/types.ts';
import { sumCounters, typeCounterKeys } from './counts.ts';
import { listedItem } from './visibility.ts';
import { texturePath } from '../http/texture-url.ts';
import { wornPictures } from '../textures/library/wardrobe-items.ts';

/** What the listing asks for (already validated). */
export interface GalleryQuery {
  page: number;
  sort: GallerySort;
  /** Lowercased title substring; empty or undefined is no title filter. */
  title?: string;
  /** Stored type codes to include; undefined, empty or all three means every type. */
  types?: number[];
  /** Tag keys an item must all have; undefined or empty is no tag filter. */
  tags?: string[];
  /** Only this author's items. */
  author?: string;
}

type ItemsQuery = SelectQueryBuilder<Database & { g: Database['gallery_items'] }, 'g', object>;

const SORT_COLUMNS = {
  likes: 'g.likes',
  downloads: 'g.downloads',
  name: 'g.title_lower',
  uploaded: 'g.created_at',
} as const;

/** Escapes LIKE wildcards (titles may contain underscores). */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The FTS5 phrase that finds a title substring (the trigram tokenizer needs 3+ characters). */
function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Counting a title's matches stops one past the cap: enough to know the total is capped. */
const COUNT_LIMIT = GALLERY_COUNT_CAP + 1;

/**
 * How many titles contain a term, counting at most COUNT_LIMIT: on SQLite from the FTS index alone (3+ characters,
 * otherwise by reading matching rows up to the limit), on PostgreSQL by adding up the items of at most COUNT_LIMIT
 * matching titles in gallery_title_counts (0006; every title there counts at least one item).
 */
async function titleMatchCount(db: Db, term: string): Promise<number> {
  if (isPostgres(db)) {
    const result = await sql<{
      count: string | null;
    }>`select sum(items) as count from (select items from gallery_title_counts where title_lower like ${likePattern(term)} escape '\\' limit ${COUNT_LIMIT}) titles`.execute(
      db,
    );
    return Math.min(Number(result.rows[0]?.count ?? 0), COUNT_LIMIT);
  }
  if (term.length >= 3) {
    const result = await sql<{
      count: number;
    }>`select count(*) as count from (select rowid from gallery_title_fts where gallery_title_fts match ${ftsPhrase(term)} limit ${COUNT_LIMIT})`.execute(
      db,
    );
    return Number(result.rows[0]?.count ?? 0);
  }
  const result = await sql<{
    count: number;
  }>`select count(*) as count from (select 1 from gallery_items where ${listedItem('gallery_items')} and title_lower like ${likePattern(term)} escape '\\' limit ${COUNT_LIMIT}) matches`.execute(
    db,
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * How the title filter finds its rows: `matches` gathers the matching rows and sorts them (few matches),
 * `sortIndex` walks the sort index and keeps the rows that match (many matches), `planner` leaves it to the database.
 */
type TitlePlan = 'matches' | 'sortIndex' | 'planner';

/** Picks the title plan from how many titles match (the trigram indexes need a term of 3+ characters). */
function titlePlan(term: string | undefined, matches: number | null): TitlePlan {
  if (!term || matches === null || term.length < 3) return 'planner';
  return matches > GALLERY_COUNT_CAP ? 'sortIndex' : 'matches';
}

/**
 * Keeps listed items only (the partial sort indexes) and adds the title, type, tag and author filters to a query over
 * `gallery_items as g`.
 */
function applyFilters<Q extends ItemsQuery>(
  query: Q,
  filter: GalleryQuery,
  postgres: boolean,
  plan: TitlePlan = 'planner',
): Q {
  let q = (query as ItemsQuery).where(listedItem('g'));
  if (filter.author) q = q.where('g.author_uuid', '=', filter.author);
  if (filter.types && filter.types.length > 0 && filter.types.length < 3) q = q.where('g.type', 'in', filter.types);
  for (const tag of filter.tags ?? []) {
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('gallery_tags as t')
          .select(sql`1`.as('one'))
          .whereRef('t.hash', '=', 'g.hash')
          .where('t.tag_key', '=', tag),
      ),
    );
  }
  if (filter.title) {
    const term = filter.title;
    if (!postgres && term.length >= 3 && plan !== 'sortIndex') {
      // SQLite gathers the matches from the FTS index (few matches, or a count).
      q = q.where(
        sql<boolean>`g.rowid in (select rowid from gallery_title_fts where gallery_title_fts match ${ftsPhrase(term)})`,
      );
    } else if (postgres && plan === 'sortIndex') {
      // An expression the trigram index cannot serve and whose estimate (a third of the rows) keeps PostgreSQL on a
      // plain walk of the sort index, which carries the title: a LIKE estimate that is too low made it plan a
      // parallel walk, whose workers cost more than the walk itself.
      q = q.where(sql<boolean>`strpos(g.title_lower, ${term}) > 0`);
    } else {
      // On SQLite with many matches: the walk of the sort index (0005: it carries the title) tests each entry.
      q = q.where(sql<boolean>`g.title_lower like ${likePattern(term)} escape '\\'`);
    }
  }
  return q as Q;
}

/** Whether the title is the only filter. */
function onlyTitle(filter: GalleryQuery): boolean {
  return (
    !filter.author &&
    (filter.tags?.length ?? 0) === 0 &&
    (!filter.types || filter.types.length === 0 || filter.types.length >= 3)
  );
}

/** Whether the total can come from the maintained counters (no title, author or multi-tag filter). */
function countersCover(filter: GalleryQuery): boolean {
  return !filter.title && !filter.author && (filter.tags?.length ?? 0) <= 1;
}

/** Whether the filter is a search whose count is capped: a title, or several tags. */
function isSearch(filter: GalleryQuery): boolean {
  return Boolean(filter.title) || (filter.tags?.length ?? 0) >= 2;
}

/** A total, and whether more items match than it says. */
export interface GalleryTotal {
  total: number;
  capped: boolean;
}

/** A count of at most COUNT_LIMIT as a total. */
function cappedTotal(count: number): GalleryTotal {
  return count > GALLERY_COUNT_CAP ? { total: GALLERY_COUNT_CAP, capped: true } : { total: count, capped: false };
}

/**
 * The number of items matching a filter: from the counters when they cover it; a search (title or several tags)
 * counts up to GALLERY_COUNT_CAP; anything else (an author's items) is counted exactly.
 */
export async function countGallery(
  db: Db,
  filter: GalleryQuery,
  titleMatches: number | null = null,
): Promise<GalleryTotal> {
  if (countersCover(filter))
    return { total: await sumCounters(db, typeCounterKeys(filter.types, filter.tags?.[0])), capped: false };
  if (filter.title && onlyTitle(filter)) return cappedTotal(titleMatches ?? (await titleMatchCount(db, filter.title)));
  const postgres = isPostgres(db);
  const tags = filter.tags ?? [];
  let matching: ItemsQuery;
  if (tags.length >= 2) {
    // Several tags: start from the rarest tag's index entries instead of testing every item.
    const sizes = await Promise.all(tags.map((tag) => sumCounters(db, typeCounterKeys(filter.types, tag))));
    const rarest = tags[sizes.indexOf(Math.min(...sizes))]!;
    const fromRarest = db
      .selectFrom('gallery_tags as rare')
      .innerJoin('gallery_items as g', 'g.hash', 'rare.hash')
      .where('rare.tag_key', '=', rarest) as unknown as ItemsQuery;
    matching = applyFilters(fromRarest, { ...filter, tags: tags.filter((tag) => tag !== rarest) }, postgres);
  } else {
    matching = applyFilters(db.selectFrom('gallery_items as g') as ItemsQuery, filter, postgres);
  }
  if (isSearch(filter)) {
    const row = await db
      .selectFrom(
        matching
          .select(sql`1`.as('one'))
          .limit(COUNT_LIMIT)
          .as('matches'),
      )
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return cappedTotal(Number(row.count));
  }
  const row = await matching
    .select((eb: ExpressionBuilder<Database & { g: Database['gallery_items'] }, 'g'>) =>
      eb.fn.countAll<number>().as('count'),
    )
    .executeTakeFirstOrThrow();
  return { total: Number((row as { count: number }).count), capped: false };
}

/** Loads the tags of the given items. */
async function tagsOf(db: Db, hashes: string[]): Promise<Map<string, Array<{ tag_key: string; name: string }>>> {
  const byHash = new Map<string, Array<{ tag_key: string; name: string }>>();
  if (hashes.length === 0) return byHash;
  const rows = await db
    .selectFrom('gallery_tags as t')
    .innerJoin('tags', 'tags.tag_key', 't.tag_key')
    .select(['t.hash', 't.tag_key', 'tags.name'])
    .where('t.hash', 'in', hashes)
    .orderBy('tags.name')
    .execute();
  for (const row of rows) {
    const list = byHash.get(row.hash) ?? [];
    list.push({ tag_key: row.tag_key, name: row.name });
    byHash.set(row.hash, list);
  }
  return byHash;
}

/** Which of the given items a user liked. */
async function likedBy(db: Db, viewer: string | null, hashes: string[]): Promise<Set<string>> {
  if (!viewer || hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('gallery_likes')
    .select('hash')
    .where('user_uuid', '=', viewer)
    .where('hash', 'in', hashes)
    .execute();
  return new Set(rows.map((row) => row.hash));
}

const itemColumns = [
  'g.hash',
  'g.title',
  'g.author_uuid',
  'u.username',
  'g.type',
  'g.strip_hash',
  'g.whitelisted',
  'g.likes',
  'g.downloads',
  'g.wears',
  'g.created_at',
] as const;

type ItemRow = {
  hash: string;
  title: string;
  author_uuid: string;
  username: string;
  type: number;
  strip_hash: string | null;
  whitelisted: number;
  likes: number;
  downloads: number;
  wears: number;
  created_at: number;
};

/** Turns rows into API items with their tags, the viewer's likes and whether the viewer wears each. */
async function toItems(db: Db, rows: ItemRow[], viewer: string | null): Promise<GalleryItem[]> {
  const hashes = rows.map((row) => row.hash);
  const [tags, liked, worn] = await Promise.all([
    tagsOf(db, hashes),
    likedBy(db, viewer, hashes),
    viewer && rows.length > 0 ? wornPictures(db, viewer) : ([] as string[]),
  ]);
  return rows.map((row) => ({
    hash: row.hash,
    title: row.title,
    author: row.author_uuid,
    author_name: row.username,
    type: row.type,
    animated: row.type === 2,
    texture: texturePath(row.hash),
    animated_texture: row.strip_hash ? texturePath(row.strip_hash) : null,
    tags: tags.get(row.hash) ?? [],
    whitelisted: row.whitelisted === 1,
    user_liked: liked.has(row.hash),
    user_wears: worn.includes(row.hash),
    total_user_likes: row.likes,
    downloads: row.downloads,
    wears: row.wears,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  }));
}

/** The sort column as an expression no index serves, so the database gathers the matches and sorts them. */
function unindexedSort(column: (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS]) {
  return column === 'g.title_lower' ? sql`${sql.ref(column)} || ''` : sql`${sql.ref(column)} + 0`;
}

/** One page of the gallery for a viewer (null for none), with the total. */
export async function listGallery(db: Db, filter: GalleryQuery, viewer: string | null): Promise<GalleryPage> {
  const [field, direction] = filter.sort.split('_') as [keyof typeof SORT_COLUMNS, 'asc' | 'desc'];
  const column = SORT_COLUMNS[field];
  const postgres = isPostgres(db);
  // The title's match count picks the plan (3+ characters) and is the total when the title is the only filter.
  const titleMatches =
    filter.title && (filter.title.length >= 3 || onlyTitle(filter)) ? await titleMatchCount(db, filter.title) : null;
  const plan = titlePlan(filter.title, titleMatches);
  // PostgreSQL's estimate for a substring is unreliable: with few matches, keep it off the sort index explicitly.
  const sortBy = postgres && plan === 'matches' ? unindexedSort(column) : sql.ref(column);
  // The page is chosen from gallery_items alone (an index walk), and only its rows are joined to their authors.
  const pageHashes = applyFilters(db.selectFrom('gallery_items as g') as ItemsQuery, filter, postgres, plan)
    .select('g.hash')
    .orderBy(sortBy, direction)
    .orderBy('g.hash', direction)
    .limit(GALLERY_PER_PAGE)
    .offset((filter.page - 1) * GALLERY_PER_PAGE);
  const rows = (await db
    .selectFrom('gallery_items as g')
    .innerJoin('users as u', 'u.uuid', 'g.author_uuid')
    .select(itemColumns)
    .where('g.hash', 'in', pageHashes as never)
    .orderBy(column, direction)
    .orderBy('g.hash', direction)
    .execute()) as ItemRow[];
  const [data, counted] = await Promise.all([toItems(db, rows, viewer), countGallery(db, filter, titleMatches)]);
  return {
    data,
    total: counted.total,
    total_capped: counted.capped,
    per_page: GALLERY_PER_PAGE,
    current_page: filter.page,
  };
}

/** One listed item by hash for a viewer, or undefined (also for a banned author's hidden item). */
export async function findGalleryItem(db: Db, hash: string, viewer: string | null): Promise<GalleryItem | undefined> {
  const row = (await db
    .selectFrom('gallery_items as g')
    .innerJoin('users as u', 'u.uuid', 'g.author_uuid')
    .select(itemColumns)
    .where('g.hash', '=', hash)
    .where(listedItem('g'))
    .executeTakeFirst()) as ItemRow | undefined;
  return row ? (await toItems(db, [row], viewer))[0] : undefined;
}
