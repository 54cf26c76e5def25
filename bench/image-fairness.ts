// Image work shared fairly: one account floods the animated cape creator with big GIFs (64 frames at 2048 x 2048, a new
// colour each time so the creation cache never answers) as fast as the server lets it, while another player uploads a
// 64 x 32 cape again and again; prints the small upload's latency (p50, p95) and every answer the flooder got.
// The server runs in a process of its own (server/main.ts, as `npm start` runs it) on a fresh SQLite database.
//
//   npx tsx bench/image-fairness.ts
//   env DURATION (60 s of measuring), FLOOD (12 requests in flight), BENCH_PORT (4396), and the server's own variables
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { migrateToLatest, openDatabase } from '../server/db/database.ts';
import { upsertUser } from '../server/db/users.ts';
import { animatedGif } from './gif-fixture.ts';
import { logIn, postFile, type Session } from './heavy-load.ts';
import { pause, startProcess, stopProcess } from './processes.ts';
import { loadAverage } from './wrk.ts';

const DURATION_S = Number(process.env.DURATION ?? 60);
const FLOOD = Number(process.env.FLOOD ?? 12);
const PORT = Number(process.env.BENCH_PORT ?? 4396);
/** The goal: the small upload's p95 while the flood runs, in ms. */
const GOAL_P95_MS = 2_000;
/** The pause between two small uploads, and after a refused flood request (so the bench does not spin on refusals). */
const UPLOAD_GAP_MS = 250;
const REFUSED_GAP_MS = 50;

/** The value at a quantile of numbers. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-fairness-'));
const databaseFile = path.join(dir, 'cloakroom.db');
const baseUrl = `http://127.0.0.1:${PORT}`;
let server: Awaited<ReturnType<typeof startProcess>> | undefined;
let pass: boolean | undefined;
try {
  console.log(`Making the flood's GIF (64 frames of 2048 x 2048) and the small cape (load average ${loadAverage()})`);
  const gif = await animatedGif(2048, 64, 2048);
  const cape = await sharp({ create: { width: 64, height: 32, channels: 4, background: { r: 30, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();

  const db = openDatabase(`sqlite:${databaseFile}`);
  await migrateToLatest(db);
  const flooderUuid = 'f1'.repeat(16);
  const playerUuid = 'a2'.repeat(16);
  await upsertUser(db, flooderUuid, 'Flooder');
  await upsertUser(db, playerUuid, 'SmallCape');
  await db.destroy();

  server = await startProcess(
    'server',
    PORT,
    process.execPath,
    ['--import', 'tsx', 'server/main.ts'],
    {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${databaseFile}`,
      SITE_DIR: path.join(dir, 'no-site'),
      SKIP_SITE_BUILD: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      SWEEP_INTERVAL_MINUTES: '0',
      // The small uploader's own limit is not what is measured; the flooder keeps the creators' default limits.
      TEXTURE_UPLOADS_PER_10_MINUTES: '1000000',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    },
    path.join(dir, 'server.log'),
    '/api/home',
  );
  const flooder = await logIn(baseUrl, databaseFile, flooderUuid);
  const player = await logIn(baseUrl, databaseFile, playerUuid);
  const upload = (session: Session) => postFile(baseUrl, session, '/api/upload-cape', cape);
  // Warm-up: the first upload starts the image workers.
  const warm = await upload(player);
  if (warm.status !== 200) throw new Error(`the warm-up upload failed: ${warm.status} ${warm.body}`);

  console.log(
    `Flooding: ${FLOOD} animated creator requests in flight (a ${Math.round(gif.length / 1024)} KB GIF), a 64 x 32 cape upload every ${UPLOAD_GAP_MS} ms, for ${DURATION_S} s (load average ${loadAverage()})`,
  );
  let done = false;
  const answers = new Map<string, number>();
  let colour = 0;
  let slowestMade = 0;
  const floodOnce = async () => {
    while (!done) {
      colour += 1;
      const fields = { scale: '1', color: (colour * 2654435761).toString(16).slice(-6).padStart(6, '0'), elytra: 'false' };
      const started = performance.now();
      const answer = await postFile(baseUrl, flooder, '/api/gallery/animated-cape-creator', gif, fields).catch((error: Error) => ({
        status: 0,
        body: error.message,
      }));
      const seconds = (performance.now() - started) / 1000;
      const message = answer.status === 200 ? 'made' : ((JSON.parse(answer.body || '{}') as { error?: string }).error ?? answer.body.slice(0, 80));
      const key = `${answer.status} ${message}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      if (answer.status === 200) slowestMade = Math.max(slowestMade, seconds);
      if (answer.status !== 200) await pause(REFUSED_GAP_MS);
    }
  };
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const uploadLoop = async () => {
    const until = Date.now() + DURATION_S * 1000;
    while (Date.now() < until) {
      const started = performance.now();
      const answer = await upload(player);
      latencies.push(performance.now() - started);
      if (answer.status !== 200)
        failures.set(`${answer.status} ${answer.body.slice(0, 100)}`, (failures.get(`${answer.status} ${answer.body.slice(0, 100)}`) ?? 0) + 1);
      await pause(UPLOAD_GAP_MS);
    }
    done = true;
  };
  const flooding = Array.from({ length: FLOOD }, () => floodOnce());
  await pause(1_000); // let the flood fill the queue first
  await uploadLoop();
  const loadAtEnd = loadAverage();
  // The flood's requests still in flight are not waited for: the server is stopped.
  void Promise.allSettled(flooding);

  const p50 = quantile(latencies, 0.5);
  const p95 = quantile(latencies, 0.95);
  console.log(`\nSmall cape upload (64 x 32), ${latencies.length} uploads while the flood ran:`);
  console.log(`  p50 ${(p50 / 1000).toFixed(2)} s, p95 ${(p95 / 1000).toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s`);
  for (const [answer, count] of failures) console.log(`  not 200: ${count} x ${answer}`);
  console.log(`Flooder's answers (animated cape creator):`);
  for (const [answer, count] of [...answers].sort((a, b) => b[1] - a[1])) console.log(`  ${count} x ${answer}`);
  if (slowestMade > 0) console.log(`  the slowest cape made took ${slowestMade.toFixed(1)} s`);
  pass = p95 <= GOAL_P95_MS && failures.size === 0;
  console.log(`\n${pass ? 'PASS' : 'FAIL'}: p95 ${(p95 / 1000).toFixed(2)} s against the goal of ${GOAL_P95_MS / 1000} s (load average ${loadAtEnd})`);
} finally {
  if (server) await stopProcess(server.child);
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(pass ? 0 : 1);
