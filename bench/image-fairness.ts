// Image work shared fairly: while one kind of flood runs, another player uploads a 64 x 32 cape again and again; prints
// the small upload's latency (p50, p95) and every answer the flood got. The floods (`FLOOD_KIND`):
// - `creator`: one account sends the animated cape creator big GIFs (64 frames at 2048 x 2048, a new colour each time
//   so the creation cache never answers), `FLOOD` requests in flight, as fast as the server lets it;
// - `patched`: four accounts send the same GIF with its header patched to say 64 x 32 (its frames still decode at
//   2048 x 2048), elytra on, two requests in flight each: work that claims to be small;
// - `gif-reads`: `READERS` players wear a 2048 x 1024 cape of 2,097,152 colours (a 19 KB file), and anonymous readers
//   ask for each one's /capes/{uuid}.gif at once, as a game with Cape Provider's GIF resolver does.
// The server runs in a process of its own (server/main.ts, as `npm start` runs it) on a fresh SQLite database.
//
//   npx tsx bench/image-fairness.ts
//   env FLOOD_KIND (creator), DURATION (60 s of measuring), FLOOD (12 requests in flight), READERS (44), BENCH_PORT
//   (4396), and the server's own variables
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrations/migrate.ts';
import { upsertUser } from '../server/db/users.ts';
import { animatedGif } from './gif-fixture.ts';
import { logIn, postFile, type Session } from './heavy-load.ts';
import { pause, startProcess, stopProcess } from './processes.ts';
import { loadAverage } from './wrk.ts';

const FLOOD_KIND = process.env.FLOOD_KIND ?? 'creator';
if (!['creator', 'patched', 'gif-reads'].includes(FLOOD_KIND))
  throw new Error(`FLOOD_KIND is creator, patched or gif-reads, not ${FLOOD_KIND}`);
const DURATION_S = Number(process.env.DURATION ?? 60);
const FLOOD = Number(process.env.FLOOD ?? 12);
const READERS = Number(process.env.READERS ?? 44);
/** The patched flood's accounts and the requests each keeps in flight. */
const PATCHED_ACCOUNTS = 4;
const PATCHED_IN_FLIGHT = 2;
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

/**
 * A 2048 x 1024 cape whose every pixel is a colour of its own (about 20 KB as a file), a different one for each `seed`.
 */
function manyColoursCape(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(2048 * 1024 * 4);
  for (let i = 0; i < 2048 * 1024; i++) raw.writeUInt32BE(((((i + seed * 7919) & 0xffffff) << 8) | 0xff) >>> 0, i * 4);
  return sharp(raw, { raw: { width: 2048, height: 1024, channels: 4 } })
    .png({ adaptiveFiltering: true, compressionLevel: 9 })
    .toBuffer();
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-fairness-'));
const databaseFile = path.join(dir, 'cloakroom.db');
const baseUrl = `http://127.0.0.1:${PORT}`;
let server: Awaited<ReturnType<typeof startProcess>> | undefined;
let pass: boolean | undefined;
try {
  console.log(`Making the flood's GIF (64 frames of 2048 x 2048) and the small cape (load average ${loadAverage()})`);
  const gif = await animatedGif(2048, 64, 2048);
  const cape = await sharp({
    create: { width: 64, height: 32, channels: 4, background: { r: 30, g: 120, b: 200, alpha: 1 } },
  })
    .png()
    .toBuffer();

  // The patched flood's GIF: the same frames, a header that says 64 x 32.
  const patched = Buffer.from(gif);
  patched.writeUInt16LE(64, 6);
  patched.writeUInt16LE(32, 8);

  const db = openDatabase(`sqlite:${databaseFile}`);
  await migrateToLatest(db);
  const accounts = FLOOD_KIND === 'creator' ? 1 : FLOOD_KIND === 'patched' ? PATCHED_ACCOUNTS : READERS;
  const flooderUuids = Array.from({ length: accounts }, (_, index) => index.toString(16).padStart(4, '0').repeat(8));
  const playerUuid = 'a2'.repeat(16);
  for (const [index, uuid] of flooderUuids.entries()) await upsertUser(db, uuid, `Flooder${index}`);
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
  const flooders: Session[] = [];
  for (const uuid of flooderUuids) flooders.push(await logIn(baseUrl, databaseFile, uuid));
  const player = await logIn(baseUrl, databaseFile, playerUuid);
  const upload = (session: Session) => postFile(baseUrl, session, '/api/upload-cape', cape);
  // Warm-up: the first upload starts the image workers.
  const warm = await upload(player);
  if (warm.status !== 200) throw new Error(`the warm-up upload failed: ${warm.status} ${warm.body}`);

  let done = false;
  const answers = new Map<string, number>();
  const tally = (status: number, body: string) => {
    const message =
      status === 200
        ? 'made'
        : ((JSON.parse(body || '{}') as { error?: string; msg?: string }).error ?? body.slice(0, 80));
    answers.set(`${status} ${message}`, (answers.get(`${status} ${message}`) ?? 0) + 1);
  };
  let colour = 0;
  let slowestMade = 0;
  /** Keeps one creator request of `session` in flight until the measuring ends. */
  const floodOnce = async (session: Session, file: Buffer, elytra: boolean) => {
    while (!done) {
      colour += 1;
      const fields = {
        scale: '1',
        color: (colour * 2654435761).toString(16).slice(-6).padStart(6, '0'),
        elytra: String(elytra),
      };
      const started = performance.now();
      const answer = await postFile(baseUrl, session, '/api/gallery/animated-cape-creator', file, fields).catch(
        (error: Error) => ({
          status: 0,
          body: JSON.stringify({ error: error.message }),
        }),
      );
      if (answer.status === 200) slowestMade = Math.max(slowestMade, (performance.now() - started) / 1000);
      tally(answer.status, answer.body);
      if (answer.status !== 200) await pause(REFUSED_GAP_MS);
    }
  };
  let flooding: Array<Promise<unknown>> = [];
  if (FLOOD_KIND === 'gif-reads') {
    console.log(
      `Seeding: ${READERS} players each put on a 2048 x 1024 cape of 2,097,152 colours (load average ${loadAverage()})`,
    );
    const seeded = Date.now();
    for (const session of flooders) {
      const answer = await postFile(
        baseUrl,
        session,
        '/api/upload-cape',
        await manyColoursCape(flooders.indexOf(session)),
      );
      if (answer.status !== 200) throw new Error(`a seed upload failed: ${answer.status} ${answer.body}`);
    }
    console.log(`  seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    console.log(
      `Flooding: one anonymous GET /capes/{uuid}.gif for each of the ${READERS}, all at once, then the small uploads for ${DURATION_S} s`,
    );
    flooding = flooderUuids.map(async (uuid) => {
      const response = await fetch(`${baseUrl}/capes/${uuid}.gif`).catch((error: Error) => ({
        status: 0,
        text: async () => error.message,
      }));
      tally(response.status, response.status === 200 ? '' : await response.text());
    });
  } else {
    const [file, elytra, inFlight] =
      FLOOD_KIND === 'creator' ? [gif, false, FLOOD] : [patched, true, PATCHED_IN_FLIGHT];
    console.log(
      `Flooding: ${flooders.length} account(s) x ${inFlight} animated creator requests in flight (a ${Math.round(file.length / 1024)} KB GIF${FLOOD_KIND === 'patched' ? ' whose header says 64 x 32' : ''}), a 64 x 32 cape upload every ${UPLOAD_GAP_MS} ms, for ${DURATION_S} s (load average ${loadAverage()})`,
    );
    flooding = flooders.flatMap((session) => Array.from({ length: inFlight }, () => floodOnce(session, file, elytra)));
  }
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const uploadLoop = async () => {
    const until = Date.now() + DURATION_S * 1000;
    while (Date.now() < until) {
      const started = performance.now();
      const answer = await upload(player);
      latencies.push(performance.now() - started);
      if (answer.status !== 200)
        failures.set(
          `${answer.status} ${answer.body.slice(0, 100)}`,
          (failures.get(`${answer.status} ${answer.body.slice(0, 100)}`) ?? 0) + 1,
        );
      await pause(UPLOAD_GAP_MS);
    }
    done = true;
  };
  await pause(1_000); // let the flood fill the queue first
  await uploadLoop();
  const loadAtEnd = loadAverage();
  // The flood's requests still in flight are not waited for: the server is stopped.
  void Promise.allSettled(flooding);

  const p50 = quantile(latencies, 0.5);
  const p95 = quantile(latencies, 0.95);
  console.log(`\nSmall cape upload (64 x 32), ${latencies.length} uploads while the flood ran:`);
  console.log(
    `  p50 ${(p50 / 1000).toFixed(2)} s, p95 ${(p95 / 1000).toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s`,
  );
  for (const [answer, count] of failures) console.log(`  not 200: ${count} x ${answer}`);
  console.log(`The flood's answers (${FLOOD_KIND === 'gif-reads' ? 'anonymous GIF reads' : 'animated cape creator'}):`);
  for (const [answer, count] of [...answers].sort((a, b) => b[1] - a[1])) console.log(`  ${count} x ${answer}`);
  if (slowestMade > 0) console.log(`  the slowest cape made took ${slowestMade.toFixed(1)} s`);
  pass = p95 <= GOAL_P95_MS && failures.size === 0;
  console.log(
    `\n${pass ? 'PASS' : 'FAIL'}: p95 ${(p95 / 1000).toFixed(2)} s against the goal of ${GOAL_P95_MS / 1000} s (load average ${loadAtEnd})`,
  );
} finally {
  if (server) await stopProcess(server.child);
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(pass ? 0 : 1);
