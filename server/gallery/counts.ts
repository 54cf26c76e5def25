// Maintained gallery counters, so the listing's total needs no count over a million rows: per type, and per tag and type.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const ALL_TYPES = [0, 1, 2];

/** The counter keys whose sum is the number of items of the given types (all when none), optionally with one tag. */
export function typeCounterKeys(types: number[] | undefined, tag?: string): string[] {
  const chosen = types && types.length > 0 ? types : ALL_TYPES;
  return chosen.map((type) => (tag ? `tag:${tag}:type:${type}` : `type:${type}`));
}

/** Adds the sum of the given counters. */
export async function sumCounters(db: Db, keys: string[]): Promise<number> {
  const row = await db
    .selectFrom('gallery_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('total'))
    .where('key', 'in', keys)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Moves the counters of an item of `type` with `tags` by `delta` (+1 when added, -1 when removed). */
export async function adjustCounters(db: Db, type: number, tags: string[], delta: number): Promise<void> {
  const keys = [`type:${type}`, ...tags.map((tag) => `tag:${tag}:type:${type}`)];
  for (const key of keys) {
    await db
      .insertInto('gallery_counts')
      .values({ key, n: delta })
      .onConflict((oc) => oc.column('key').doUpdateSet({ n: sql`gallery_counts.n + ${delta}` }))
      .execute();
  }
}
