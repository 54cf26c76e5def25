// The gallery bench's diagnosis: the SQL listGallery runs for a case, each query's time and plan.
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database } from '../../server/db/schema.ts';
import { listGallery } from '../../server/gallery/queries.ts';
import { EXPLAIN, GOAL_P95_MS, SAMPLES } from './settings.ts';
import { toFilter, type Case } from './cases.ts';
import type { Result } from './measure.ts';

/**
 * A second connection to a seeded database that records the SQL listGallery runs, and times and explains each query.
 */
export type Explainer = {
  db: Kysely<Database>;
  captured: CompiledQuery[];
  plan: (query: CompiledQuery) => Promise<string>;
  time: (query: CompiledQuery) => Promise<number>;
  close: () => Promise<void>;
};

/** The explainer of a SQLite file: EXPLAIN QUERY PLAN as a tree. */
export function sqliteExplainer(file: string): Explainer {
  const raw = new SQLite(file);
  const captured: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new SQLite(file) }),
    log: (event: LogEvent) => void captured.push(event.query),
  });
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

/** The explainer of a PostgreSQL database: EXPLAIN (ANALYZE, BUFFERS). */
export function postgresExplainer(url: string): Explainer {
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

/** Prints the queries of each case over the goal (each case with EXPLAIN=all), with their median time and plan. */
export async function diagnose(explainer: Explainer, cases: Case[], results: Result[], viewer: string): Promise<void> {
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
