// Maintained gallery counters, so the listing's total needs no count over a million rows: per type, and per tag and
// type. They count listed items only (a banned author's hidden items are taken out at the ban,
// server/gallery/visibility.ts).
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const ALL_TYPES = [0, 1, 2];

/** The key of the counter of items of a type, optionally with one tag. */
export function counterKey(type: number, tag?: string): string {
  return tag ? `tag:${tag}:type:${type}` : `type:${type}`;
}

/** The counter keys whose sum is the number of items of the given types (all when none), optionally with one tag. */
export function typeCounterKeys(types: number[] | undefined, tag?: string): string[] {
  const chosen = types && types.length > 0 ? types : ALL_TYPES;
  return chosen.map((type) => counterKey(type, tag));
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

/** The counter keys an item of `type` with `tags` counts in. */
export function itemCounterKeys(type: number, tags: string[]): string[] {
  return [counterKey(type), ...tags.map((tag) => counterKey(type, tag))];
}

/**
 * Moves each counter by its delta, in key order (concurrent writers lock the rows in one order); zero deltas are
 * skipped.
 */
export async function applyCounterDeltas(db: Db, deltas: Map<string, number>): Promise<void> {
  for (const key of [...deltas.keys()].sort()) {
    const delta = deltas.get(key)!;
    if (delta === 0) continue;
    await db
      .insertInto('gallery_counts')
      .values({ key, n: delta })
      .onConflict((oc) => oc.column('key').doUpdateSet({ n: sql`gallery_counts.n + ${delta}` }))
      .execute();
  }
}

/** Moves the counters of an item of `type` with `tags` by `delta` (+1 when added, -1 when removed). */
export async function adjustCounters(db: Db, type: number, tags: string[], delta: number): Promise<void> {
  await applyCounterDeltas(db, new Map(itemCounterKeys(type, tags).map((key) => [key, delta])));
}
