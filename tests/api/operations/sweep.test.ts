// The leftover sweep (`cloakroom sweep`, at server start, and on S3): old partial writes, unreferenced textures and
// unowned blobs go; anything in use (a player's cape, a gallery item, its rendered preview) and anything recent stays.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import type { BlobStore } from '../../../server/storage/index.ts';
import { createTextureLibrary } from '../../../server/operations/create-library.ts';
import { derivedKey, type TextureLibrary } from '../../../server/textures/library/texture-library.ts';
import { sweepLeftovers } from '../../../server/operations/sweep.ts';
import { frameColour, sha256Hex, solidPng } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import { startS3rver, type RunningS3rver } from '../../../support/s3rver.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';
import { dataDirServerEnv } from '../../../support/app-process.ts';
import { describeDatabase } from '../../../server/db/database.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const HOUR = 3_600_000;
let colour = 0;

/** Every file under a directory, as sorted '/'-separated paths relative to it. */
function listFiles(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

/** Where the local store keeps a key. */
function blobFile(key: string): string {
  return `${key.slice(0, 2)}/${key}.png`;
}

/** One of each leftover a server killed mid-upload leaves behind. */
interface Leftovers {
  /** A blob with no `textures` row. */
  blob: string;
  /** A `textures` row (with its blob and a rendered preview) that nothing refers to. */
  texture: string;
}

/** Stores an unowned blob and an unreferenced texture with a rendered preview. */
async function makeLeftovers(library: TextureLibrary): Promise<Leftovers> {
  const blobBytes = await solidPng(64, 32, frameColour(colour++));
  const blob = sha256Hex(blobBytes);
  await library.store.put(blob, blobBytes);
  const textureBytes = await solidPng(64, 32, frameColour(colour++));
  const texture = await library.put(
    { bytes: textureBytes, hash: sha256Hex(textureBytes), width: 64, height: 32, frames: 1 },
    'cape',
  );
  await library.store.put(derivedKey(texture, 'preview'), await solidPng(32, 18, frameColour(colour++)));
  return { blob, texture };
}

/** Writes the temporary file of a local-store write that never finished; returns its store-relative name. */
function makePartialWrite(storeRoot: string): string {
  const key = sha256Hex(randomBytes(16));
  const name = `${blobFile(key)}.${randomBytes(6).toString('hex')}.tmp`;
  fs.mkdirSync(path.join(storeRoot, key.slice(0, 2)), { recursive: true });
  fs.writeFileSync(path.join(storeRoot, name), randomBytes(100));
  return name;
}

/** The hashes in the `textures` table, sorted. */
async function textureRows(db: Db): Promise<string[]> {
  return (await db.selectFrom('textures').select('hash').orderBy('hash').execute()).map((row) => row.hash);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Processes started by a test, stopped after the file when a failed test left one running. */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Runs a Node entry point of the project with extra environment variables until it exits (or `until` says stop, then
 * SIGTERM).
 */
function runNode(args: string[], env: Record<string, string>, until?: (stdout: string) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until && !signalled && until(stdout)) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.each(backends)('cloakroom sweep on $name', (backend) => {
  const suite = serverForSuite(backend);

  it('removes only the leftovers older than the grace period, prints them, and leaves capes, gallery items and previews working', async () => {
    const { server } = suite;
    const storeRoot = path.join(server.config.dataDir, 'textures');
    const library = createTextureLibrary(server.config, server.db);

    // In use: a player's cape, and a gallery item whose preview has been rendered once.
    const player = await loginNewUser(server);
    const cape = await solidPng(64, 32, frameColour(colour++));
    expect((await player.jar.upload('/api/upload-cape', cape)).status).toBe(200);
    const capeHash = (
      await server.db.selectFrom('users').select('cape_hash').where('uuid', '=', player.uuid).executeTakeFirstOrThrow()
    ).cape_hash!;
    const capeStored = (await library.read(capeHash))!;
    const form = new FormData();
    form.append('title', 'Kept');
    form.append('tags', JSON.stringify(['food']));
    form.append(
      'file',
      new Blob([new Uint8Array(await solidPng(64, 32, frameColour(colour++)))], { type: 'image/png' }),
      'texture.png',
    );
    const created = await player.jar.sendForm('POST', '/api/gallery/new', form);
    expect(created.status).toBe(201);
    const galleryHash = ((await created.json()) as { hash: string }).hash;
    const preview = Buffer.from(await (await player.jar.get(`/api/gallery/${galleryHash}/preview`)).arrayBuffer());

    const old = await makeLeftovers(library);
    const oldPartial = makePartialWrite(storeRoot);
    // Everything so far was written two hours ago; what follows is an upload still in flight.
    const twoHoursAgo = Date.now() - 2 * HOUR;
    await server.db.updateTable('textures').set({ created_at: twoHoursAgo }).execute();
    for (const file of listFiles(storeRoot))
      fs.utimesSync(path.join(storeRoot, file), twoHoursAgo / 1000, twoHoursAgo / 1000);
    const fresh = await makeLeftovers(library);
    makePartialWrite(storeRoot);

    const before = listFiles(storeRoot);
    const rowsBefore = await textureRows(server.db);
    const result = await runNode(['bin/cloakroom.mjs', 'sweep'], {
      DATA_DIR: server.config.dataDir,
      DATABASE_URL: server.config.databaseUrl,
      LOG_LEVEL: 'silent',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      `Using ${describeDatabase(server.config.databaseUrl)}.`,
      `Removed partial write ${oldPartial}`,
      `Removed unreferenced texture ${old.texture}`,
      `Removed unowned blob ${old.blob}`,
      'Removed 1 partial write(s), 1 unreferenced texture(s) and 1 unowned blob(s) older than 60 minutes.',
    ]);

    const oldFiles = [
      oldPartial,
      blobFile(old.blob),
      blobFile(old.texture),
      blobFile(derivedKey(old.texture, 'preview')),
    ];
    expect(listFiles(storeRoot)).toEqual(before.filter((file) => !oldFiles.includes(file)));
    expect(await textureRows(server.db)).toEqual(rowsBefore.filter((hash) => hash !== old.texture));
    expect(await textureRows(server.db)).toContain(fresh.texture);

    const served = await fetch(`${server.url}/textures/${capeHash}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(capeStored)).toBe(true);
    const profile = (await (await fetch(`${server.url}/profile/${player.uuid}`)).json()) as { cape_url?: string };
    expect(profile.cape_url).toBe(`${server.config.publicBaseUrl}/textures/${capeHash}`);
    expect((await player.jar.get(`/api/gallery/${galleryHash}`)).status).toBe(200);
    expect(fs.existsSync(path.join(storeRoot, blobFile(derivedKey(galleryHash, 'preview'))))).toBe(true);
    const previewAgain = await player.jar.get(`/api/gallery/${galleryHash}/preview`);
    expect(Buffer.from(await previewAgain.arrayBuffer()).equals(preview)).toBe(true);
  });
});

describe('cloakroom sweep with bad input', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-sweep-refused-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses extra arguments and a grace period under a minute with a clear message, and removes nothing', async () => {
    const storeRoot = path.join(dataDir, 'textures');
    const partial = makePartialWrite(storeRoot);
    const twoHoursAgo = (Date.now() - 2 * HOUR) / 1000;
    fs.utimesSync(path.join(storeRoot, partial), twoHoursAgo, twoHoursAgo);
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };

    const extra = await runNode(['bin/cloakroom.mjs', 'sweep', '--all'], env);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('cloakroom sweep');
    const noGrace = await runNode(['bin/cloakroom.mjs', 'sweep'], { ...env, SWEEP_GRACE_MINUTES: '0' });
    expect(noGrace.code).toBe(1);
    expect(noGrace.stderr).toMatch(/^Invalid configuration: SWEEP_GRACE_MINUTES: /);
    expect(listFiles(storeRoot)).toEqual([partial]);
  });
});

describe('the server at start', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-sweep-start-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sweeps leftovers in the background once it listens (an unreferenced texture's answer file with it), and shuts down cleanly", async () => {
    const storeRoot = path.join(dataDir, 'textures');
    // An unreferenced texture whose answer file nginx would serve: the sweep releases it through the server's own
    // library, so the file goes with it, not minutes later.
    const db = openDatabase(`sqlite:${path.join(dataDir, 'cloakroom.db')}`);
    await migrateToLatest(db);
    const textureBytes = await solidPng(64, 32, frameColour(colour++));
    const texture = await createTextureLibrary({ dataDir }, db).put(
      { bytes: textureBytes, hash: sha256Hex(textureBytes), width: 64, height: 32, frames: 1 },
      'cape',
    );
    await db
      .updateTable('textures')
      .set({ created_at: Date.now() - 2 * HOUR })
      .execute();
    await db.destroy();
    const answersDir = path.join(dataDir, 'answers');
    fs.mkdirSync(path.join(answersDir, 'textures'), { recursive: true });
    fs.writeFileSync(path.join(answersDir, 'textures', texture), textureBytes);
    const orphan = sha256Hex(randomBytes(16));
    fs.mkdirSync(path.join(storeRoot, orphan.slice(0, 2)), { recursive: true });
    fs.writeFileSync(path.join(storeRoot, blobFile(orphan)), randomBytes(100));
    const partial = makePartialWrite(storeRoot);
    const twoHoursAgo = (Date.now() - 2 * HOUR) / 1000;
    for (const file of listFiles(storeRoot)) fs.utimesSync(path.join(storeRoot, file), twoHoursAgo, twoHoursAgo);

    const result = await runNode(
      ['--import', 'tsx', 'server/main.ts'],
      { ...dataDirServerEnv(dataDir), ANSWER_FILES_DIR: answersDir },
      (stdout) => stdout.includes('leftover sweep removed'),
    );
    const lines = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; removed?: string[] });
    const listening = lines.findIndex((line) => line.msg.startsWith('Server listening'));
    const swept = lines.findIndex((line) => line.msg.startsWith('leftover sweep removed'));
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(swept).toBeGreaterThan(listening);
    expect(lines[swept]!.removed).toEqual([
      `partial write ${partial}`,
      `unreferenced texture ${texture}`,
      `unowned blob ${orphan}`,
    ]);
    expect(listFiles(storeRoot)).toEqual([]);
    // Only the directory's mark is left: no file of the released texture.
    expect(listFiles(answersDir)).toEqual(['.applied']);
    expect(result.code).toBe(0);
  }, 60_000);
});

describe('sweepLeftovers on an S3 bucket', () => {
  let s3: RunningS3rver;
  let dir: string;
  let db: Db;
  let library: TextureLibrary;

  beforeAll(async () => {
    s3 = await startS3rver();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-sweep-s3-'));
    db = openDatabase(`sqlite:${path.join(dir, 'cloakroom.db')}`);
    await migrateToLatest(db);
    library = createTextureLibrary({ dataDir: dir, s3: s3.config }, db);
  });
  afterAll(async () => {
    await db?.destroy();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The keys in the bucket, sorted. */
  async function keys(store: BlobStore): Promise<string[]> {
    const listed: string[] = [];
    for await (const blob of store.list()) listed.push(blob.key);
    return listed.sort();
  }

  it('removes the objects and rows older than the grace period that nothing uses, and nothing else', async () => {
    const user = 'a'.repeat(32);
    await db
      .insertInto('users')
      .values({ uuid: user, username: 'Kept', username_lower: 'kept', created_at: 0 })
      .execute();
    const capeBytes = await solidPng(64, 32, frameColour(colour++));
    const cape = await library.put(
      { bytes: capeBytes, hash: sha256Hex(capeBytes), width: 64, height: 32, frames: 1 },
      'cape',
    );
    await db.updateTable('users').set({ cape_hash: cape }).where('uuid', '=', user).execute();
    const old = await makeLeftovers(library);
    await db.updateTable('textures').set({ created_at: 0 }).execute();

    // S3 keeps LastModified to the second: the fresh leftovers are written from the next full second on.
    const cutoff = Math.ceil((Date.now() + 1) / 1000) * 1000;
    await new Promise((resolve) => setTimeout(resolve, cutoff - Date.now() + 10));
    const fresh = await makeLeftovers(library);
    const before = await keys(library.store);

    const grace = HOUR;
    const report = await sweepLeftovers(db, library, { graceMs: grace, now: cutoff + grace });
    expect(report).toEqual({
      partialWrites: [],
      textures: [old.texture],
      blobs: [old.blob],
      notifications: 0,
      changes: 0,
      signInCodes: 0,
      lapsedConnections: 0,
    });
    const gone = [old.blob, old.texture, derivedKey(old.texture, 'preview')];
    expect(await keys(library.store)).toEqual(before.filter((key) => !gone.includes(key)));
    expect(await textureRows(db)).toEqual([cape, fresh.texture].sort());
    expect((await library.store.get(cape))!.equals(capeBytes)).toBe(true);

    expect(await sweepLeftovers(db, library, { graceMs: grace, now: cutoff + grace })).toEqual({
      partialWrites: [],
      textures: [],
      blobs: [],
      notifications: 0,
      changes: 0,
      signInCodes: 0,
      lapsedConnections: 0,
    });
  });
});
