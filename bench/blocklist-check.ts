// The blocklist check of an upload (server/textures/library/blocklist.ts) against a blocklist of 10,000 removed
// pictures, on SQLite and PostgreSQL: the check of a picture that is not on it (the common case: every check reads as
// far as it can), with one perceptual probe (a picture inside the canvas) and with 25 (a picture touching every edge,
// as a full-painted cape does), and what a check costs right after a moderator added a row.
//
//   npx tsx bench/blocklist-check.ts
//   env ROWS (10000), SAMPLES (200), BACKENDS ("sqlite,postgres")
import { randomBytes } from 'node:crypto';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { Blocklist, type UploadToCheck } from '../server/textures/library/blocklist.ts';
import { postgresBackend, sqliteBackend, type Backend } from '../support/backends.ts';

const ROWS = Number(process.env.ROWS ?? 10_000);
const SAMPLES = Number(process.env.SAMPLES ?? 200);
const BACKENDS = (process.env.BACKENDS ?? 'sqlite,postgres').split(',').filter(Boolean);

/**
 * A perceptual hash as the image work makes one (16 hex digits, the DC bit 0): a blocked picture's has its top 24
 * informative bits 0, an upload's probes have them 1, so that no probe is near a blocked picture (random hashes come
 * within the match distance once in about 60 million pairs, and a check compares up to 250,000).
 */
const phash = (blocked: boolean) => {
  const bits = randomBytes(8).readBigUInt64BE() & ((1n << 39n) - 1n);
  return (blocked ? bits : bits | (((1n << 24n) - 1n) << 39n)).toString(16).padStart(16, '0');
};
/** A content hash. */
const sha = () => randomBytes(32).toString('hex');

/** An upload that is not on the blocklist, with `probes` perceptual probes. */
const upload = (probes: number): UploadToCheck => ({
  still: { hash: sha() },
  strip: null,
  probes: Array.from({ length: probes }, () => phash(false)),
});

/** Adds `count` removed pictures to the blocklist. */
async function addRows(db: Db, count: number): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, () => ({
      hash: sha(),
      phash: phash(true),
      reason: 'bench',
      admin_uuid: 'a'.repeat(32),
      created_at: Date.now(),
    }));
    await db.insertInto('texture_blocklist').values(rows).execute();
  }
}

/** The check as the intake runs it; throws when the picture is refused (none of the bench's is). */
async function check(blocklist: Blocklist, picture: UploadToCheck): Promise<void> {
  if (await blocklist.refusal(picture)) throw new Error('The bench picture was refused');
}

/** The milliseconds of `samples` runs of `work`, sorted, and this process's CPU milliseconds a run. */
async function time(samples: number, work: () => Promise<void>): Promise<{ times: number[]; cpu: number }> {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  return { times: times.sort((a, b) => a - b), cpu: (used.user + used.system) / 1000 / samples };
}

/** The p50 / p95 of sorted times, and the CPU a run. */
const cell = ({ times, cpu }: { times: number[]; cpu: number }) =>
  `${times[Math.floor(times.length * 0.5)]!.toFixed(2)} / ${times[Math.floor(times.length * 0.95)]!.toFixed(2)} ms (CPU ${cpu.toFixed(2)} ms)`;

const available: Record<string, Backend> = { sqlite: sqliteBackend, postgres: postgresBackend };
console.log(
  `| backend | 1 probe: p50 / p95 (CPU) | 25 probes: p50 / p95 (CPU) | the first check after a row was added (CPU) |`,
);
for (const name of BACKENDS) {
  const database = await available[name]!.createDatabase();
  const db = openDatabase(database.url);
  try {
    await migrateToLatest(db);
    await addRows(db, ROWS);
    const blocklist = new Blocklist(db);
    const one = await time(SAMPLES, () => check(blocklist, upload(1)));
    const many = await time(SAMPLES, () => check(blocklist, upload(25)));
    const firsts: number[] = [];
    let firstsCpu = 0;
    for (let i = 0; i < 5; i++) {
      await addRows(db, 1);
      const first = await time(1, () => check(blocklist, upload(25)));
      firsts.push(...first.times);
      firstsCpu += first.cpu / 5;
    }
    console.log(
      `| ${name} | ${cell(one)} | ${cell(many)} | ${cell({ times: firsts.sort((a, b) => a - b), cpu: firstsCpu })} |`,
    );
  } finally {
    await db.destroy();
    await database.drop();
  }
}
