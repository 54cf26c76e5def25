// Backups of a SQLite site (`cloakroom backup DIR`, `cloakroom restore DIR [--force]`): taken while players upload
// capes, put back into a fresh data directory, where every cape acknowledged before the backup began is served with the
// same bytes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKUP_FILES, type BackupManifest } from '../../../server/operations/backup-files.ts';
import { pixelAt, rgbaPixels, sha256Hex, solidPng, type Rgba } from '../../../support/textures.ts';
import { freePort } from '../../../support/app-process.ts';
import { runCli } from '../../helpers/cli.ts';
import { loginNewUser, startServer, type LoggedIn, type TestServer } from '../../helpers/server.ts';

const TEXTURE_URL = /\/textures\/([0-9a-f]{64})$/;
const PLAYERS = 4;

/** A distinct opaque colour for upload number i (distinct for every i below 65,536). */
function uploadColour(i: number): Rgba {
  return [i % 256, Math.floor(i / 256) % 256, 77, 255];
}

/** One cape upload a player made: what was sent, and when it was acknowledged (ms, performance.now). */
interface Upload {
  player: number;
  colour: Rgba;
  hash: string | null;
  startedAt: number;
  ackedAt: number | null;
}

const directories: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close().catch(() => undefined);
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

/** A new temporary directory, removed after the file. */
function temporaryDirectory(name: string): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `cloakroom-${name}-`));
  directories.push(directory);
  return directory;
}

/** Starts a server on a SQLite file in a data directory of its own. */
async function serverIn(dataDir: string): Promise<TestServer> {
  const server = await startServer(`sqlite:${path.join(dataDir, 'cloakroom.db')}`, {
    DATA_DIR: dataDir,
    SITE_DIR: path.join(dataDir, 'no-site'),
    TEXTURE_UPLOADS_PER_10_MINUTES: '100000',
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
  });
  servers.push(server);
  return server;
}

describe('cloakroom backup and restore on sqlite', () => {
  it('backs up during uploads; the restored site serves every cape acknowledged before the backup began, and passes the integrity check', async () => {
    const liveDir = temporaryDirectory('backup-live');
    const backupDir = path.join(temporaryDirectory('backup-target'), 'backup');
    const restoredDir = temporaryDirectory('backup-restored');
    const live = await serverIn(liveDir);
    const players: LoggedIn[] = [];
    for (let i = 0; i < PLAYERS; i++) players.push(await loginNewUser(live));

    // Each player uploads one cape after another (each replacing the last, whose texture and blob are released) until
    // told to stop.
    const uploads: Upload[] = [];
    let stop = false;
    let uploadNumber = 0;
    const uploadLoop = async (player: number) => {
      while (!stop) {
        const colour = uploadColour(uploadNumber++);
        const upload: Upload = { player, colour, hash: null, startedAt: performance.now(), ackedAt: null };
        uploads.push(upload);
        const response = await players[player]!.jar.upload('/api/upload-cape', await solidPng(64, 32, colour));
        const body = (await response.json()) as { success?: boolean; cape?: string };
        if (response.status !== 200 || !body.success)
          throw new Error(`Upload failed: ${response.status} ${JSON.stringify(body)}`);
        upload.hash = TEXTURE_URL.exec(body.cape!)![1]!;
        upload.ackedAt = performance.now();
      }
    };
    const loops = players.map((_, i) => uploadLoop(i));
    const acked = () => uploads.filter((upload) => upload.ackedAt !== null).length;
    const everyPlayerHasACape = () =>
      players.every((_, i) => uploads.some((upload) => upload.player === i && upload.ackedAt !== null));
    // Every player has a cape before the backup begins (the check below needs one each), and the uploads are under way.
    while (acked() < 4 * PLAYERS || !everyPlayerHasACape()) await new Promise((resolve) => setTimeout(resolve, 20));

    const backupStartedAt = performance.now();
    const backup = await runCli(['backup', backupDir], {
      DATA_DIR: liveDir,
      DATABASE_URL: `sqlite:${path.join(liveDir, 'cloakroom.db')}`,
    });
    const backupEndedAt = performance.now();
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backed up the database as of .* and \d+ blobs/);

    // A restore while the server has the database open is refused, whatever --force says.
    const whileRunning = await runCli(['restore', backupDir, '--force'], {
      DATA_DIR: liveDir,
      DATABASE_URL: `sqlite:${path.join(liveDir, 'cloakroom.db')}`,
      PORT: String(await freePort()),
    });
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toMatch(/seems to be running/);

    stop = true;
    await Promise.all(loops);
    const during = uploads.filter(
      (upload) => upload.ackedAt! > backupStartedAt && upload.ackedAt! < backupEndedAt,
    ).length;
    expect(during, 'uploads went on while the backup ran').toBeGreaterThan(0);
    await live.close();

    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, BACKUP_FILES.manifest), 'utf8')) as BackupManifest;
    expect(manifest).toMatchObject({ format: 1, missingBlobs: [], blobs: { store: 'local' } });
    expect(manifest.database.players).toBe(PLAYERS);
    expect(manifest.blobs.count).toBeGreaterThanOrEqual(manifest.database.textures);

    const restoreEnv = {
      DATA_DIR: restoredDir,
      DATABASE_URL: `sqlite:${path.join(restoredDir, 'cloakroom.db')}`,
      PORT: String(await freePort()),
    };
    const restore = await runCli(['restore', backupDir], restoreEnv);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(new RegExp(`Restored the backup of ${manifest.createdAt}`));
    // Once it holds data, a second restore needs --force, and says what it replaced.
    const again = await runCli(['restore', backupDir], restoreEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/holds data .*--force/);
    const forced = await runCli(['restore', backupDir, '--force'], restoreEnv);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(
      `Replaced a database with ${PLAYERS} players and ${manifest.database.textures} textures.`,
    );

    const restored = await serverIn(restoredDir);
    for (const [index, player] of players.entries()) {
      const mine = uploads.filter((upload) => upload.player === index);
      const lastBefore = mine.findLastIndex((upload) => upload.ackedAt !== null && upload.ackedAt < backupStartedAt);
      expect(lastBefore).toBeGreaterThanOrEqual(0);
      const profile = (await (await fetch(`${restored.url}/profile/${player.uuid}`)).json()) as {
        cape_url: string | null;
      };
      expect(profile.cape_url, player.username).toMatch(TEXTURE_URL);
      const hash = TEXTURE_URL.exec(profile.cape_url!)![1]!;
      // The cape acknowledged last before the backup began, or one the player uploaded after it.
      const upload = mine.slice(lastBefore).find((candidate) => candidate.hash === hash);
      expect(upload, `${player.username}'s restored cape is no older than the backup`).toBeDefined();
      const response = await fetch(`${restored.url}/textures/${hash}`);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(sha256Hex(bytes), 'the same bytes the live site served under that hash').toBe(hash);
      expect(pixelAt(await rgbaPixels(bytes), 10, 10)).toEqual(upload!.colour);
    }
    await restored.close();

    const database = new SQLite(path.join(restoredDir, 'cloakroom.db'), { readonly: true });
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      const textures = database.prepare('SELECT hash FROM textures').all() as Array<{ hash: string }>;
      for (const { hash } of textures)
        expect(fs.existsSync(path.join(restoredDir, 'textures', hash.slice(0, 2), `${hash}.png`)), hash).toBe(true);
    } finally {
      database.close();
    }
  }, 120_000);

  it('refuses a PostgreSQL database with the pg_dump way, and a directory that holds no backup', async () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: temporaryDirectory('backup-pg') };
    for (const command of ['backup', 'restore']) {
      const result = await runCli([command, path.join(env.DATA_DIR, 'out')], env);
      expect(result.code, command).toBe(1);
      expect(result.stderr).toMatch(/pg_dump/);
      expect(result.stderr).toMatch(/pg_restore/);
    }
    const empty = temporaryDirectory('backup-empty');
    const result = await runCli(['restore', empty], {
      DATA_DIR: temporaryDirectory('backup-none'),
      DATABASE_URL: '',
      PORT: String(await freePort()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no finished backup/);
  }, 60_000);
});
