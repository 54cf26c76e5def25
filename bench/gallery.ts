// Gallery query latency: seeds 1,000,000 items over 100,000 users (tags, likes) on SQLite and PostgreSQL, then times
// GET /api/gallery/get over HTTP (first page of each sort, title search, tag and type filters, page 500, combined)
// against the 25 ms p95 goal. Prints the query plans of any case that misses it.
//
//   npx tsx bench/gallery.ts
//   env ITEMS (1000000), USERS (100000), BACKENDS ("sqlite,postgres"), SAMPLES (40), BANNED_EVERY (100: every 100th
// player       is banned and their items hidden, as a ban leaves them; 0 for none),
//       PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/test), EXPLAIN ("fail" | "all" | "none"; default "fail"),
//       KEEP=1 (keep the seeded databases for manual EXPLAIN; the script prints where they are)
// The parts: bench/gallery/settings.ts (the environment), dataset.ts (the generated gallery), seed.ts (loading it),
// cases.ts (what is timed and checked), measure.ts (the server and the timings) and explain.ts (query plans).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_TAGS } from '../server/db/migrations/seed-rows.ts';
import { freePort } from '../support/app-process.ts';
import {
  BACKENDS,
  BANNED_EVERY,
  EXPLAIN,
  GOAL_P95_MS,
  ITEMS,
  KEEP,
  PG_ADMIN_URL,
  SAMPLES,
  USERS,
  VIEWER,
  WARMUP,
} from './gallery/settings.ts';
import { generate, TAG_POPULARITY, type Dataset } from './gallery/dataset.ts';
import { pgSize, seedPostgres, seedSqlite } from './gallery/seed.ts';
import { buildCases, expectedTotal, searchTerms, type Case } from './gallery/cases.ts';
import {
  formatRow,
  loadAverage,
  measure,
  measureDirect,
  sleep,
  startServer,
  stopServer,
  type Result,
} from './gallery/measure.ts';
import { diagnose, postgresExplainer, sqliteExplainer, type Explainer } from './gallery/explain.ts';

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
  const size =
    backend === 'sqlite'
      ? `${(fs.statSync(path.join(dir, 'gallery.db')).size / 1e9).toFixed(2)} GB file`
      : await pgSize(databaseUrl);
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
    failed.length === 0
      ? '\nPASS: every goal case within 25 ms at p95'
      : `\nFAIL: ${failed.length} goal case(s) over 25 ms at p95 or with wrong answers`,
  );
  process.exitCode = failed.length === 0 ? 0 : 1;
} catch (error) {
  console.error(error);
  process.exitCode = 2;
} finally {
  await runCleanups();
}
