// Tests of the operator CLI: `cloakroom code <name> [--admin]` (offline mode, a stand-in Mojang API, and logging in
// with the printed code) and `cloakroom answers rebuild` (the mod API's answer directory from the database).
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { runCli, type CliResult } from '../../helpers/cli.ts';
import { SYSTEMD_PATH } from '../../helpers/systemd-unit.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** UUID v3 of "OfflinePlayer:SomeName", as an offline-mode game server derives it. */
const SOME_NAME_OFFLINE_UUID = '60a09dfc422233efb75433d1e81c2cb4';
/** The well-known offline uuid of "Notch" (b50ad385-829d-3141-a216-7e7d7539ba7f). */
const NOTCH_OFFLINE_UUID = 'b50ad385829d3141a2167e7d7539ba7f';
/** The profile the stand-in Mojang API knows, under any casing of its name. */
const MOJANG_PROFILE = { id: '853c80ef3c3749fdaa49938b674adae6', name: 'MojangPlayer' };

/** The 6-digit code the CLI printed; fails the test when there is none. */
function printedCode(result: CliResult): string {
  const match = /:\s*(\d{6})\s*$/m.exec(result.stdout);
  if (!match) throw new Error(`No code in CLI output (exit ${result.code}): ${result.stdout} ${result.stderr}`);
  return match[1]!;
}

describe.each(backends)('CLI on $name', (backend) => {
  const suite = serverForSuite(backend);
  let mojang: http.Server;
  let mojangUrl: string;
  const mojangRequests: string[] = [];

  beforeAll(async () => {
    mojang = http.createServer((request, response) => {
      mojangRequests.push(request.url ?? '');
      const match = /^\/users\/profiles\/minecraft\/([^/?]+)$/.exec(request.url ?? '');
      const name = match ? decodeURIComponent(match[1]!) : '';
      if (request.method === 'GET' && name.toLowerCase() === MOJANG_PROFILE.name.toLowerCase()) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MOJANG_PROFILE));
      } else if (name === 'Nobody204') {
        response.writeHead(204).end();
      } else {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ errorMessage: `Couldn't find any profile with name ${name}` }));
      }
    });
    await new Promise<void>((resolve) => mojang.listen(0, '127.0.0.1', resolve));
    mojangUrl = `http://127.0.0.1:${(mojang.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => mojang?.close(resolve));
  });

  /** Logs in with a code through the site's login call; returns GET /api/user's body. */
  async function logInWith(code: string): Promise<{ uuid: string; username: string; group: { admin: boolean } }> {
    const jar = await newBrowser(suite.server);
    const login = await jar.post('/api/account/checkauth', { code });
    expect(await login.json()).toMatchObject({ success: true });
    const me = await jar.get('/api/user');
    expect(me.status).toBe(200);
    return (await me.json()) as { uuid: string; username: string; group: { admin: boolean } };
  }

  it('in offline mode prints a code for the offline uuid that logs the player in', async () => {
    const result = await runCli(['code', 'SomeName'], {
      OFFLINE_MODE: 'true',
      DATABASE_URL: suite.database.url,
      MOJANG_API_URL: mojangUrl,
    });
    expect(result.code, result.stderr).toBe(0);
    const user = await logInWith(printedCode(result));
    expect(user).toMatchObject({ uuid: SOME_NAME_OFFLINE_UUID, username: 'SomeName', group: { admin: false } });
    expect(mojangRequests, 'offline mode never asks Mojang').toEqual([]);
  });

  it('says which database it used', async () => {
    const result = await runCli(['code', 'SomeName'], { OFFLINE_MODE: 'true', DATABASE_URL: suite.database.url });
    expect(result.code, result.stderr).toBe(0);
    const named =
      backend.name === 'sqlite'
        ? `the SQLite database ${suite.database.url.replace(/^sqlite:/, '')}`
        : 'the PostgreSQL database';
    expect(result.stdout.split('\n')[0]).toContain(`Using ${named}`);
    expect(result.stdout, 'no password is printed').not.toMatch(/:\/\/[^/@]*:[^/@]*@/);
  });

  it('with --admin puts the player in the admin group', async () => {
    const result = await runCli(['code', 'Notch', '--admin'], {
      OFFLINE_MODE: 'true',
      DATABASE_URL: suite.database.url,
    });
    expect(result.code, result.stderr).toBe(0);
    const user = await logInWith(printedCode(result));
    expect(user).toMatchObject({ uuid: NOTCH_OFFLINE_UUID, username: 'Notch', group: { admin: true } });
  });

  it('online, stores the uuid and name the Mojang API returns', async () => {
    const result = await runCli(['code', 'mojangplayer'], {
      OFFLINE_MODE: 'false',
      DATABASE_URL: suite.database.url,
      MOJANG_API_URL: mojangUrl,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(mojangRequests).toContain('/users/profiles/minecraft/mojangplayer');
    const user = await logInWith(printedCode(result));
    expect(user).toMatchObject({ uuid: MOJANG_PROFILE.id, username: MOJANG_PROFILE.name, group: { admin: false } });
    const rows = await suite.server.db
      .selectFrom('users')
      .select(['uuid', 'username'])
      .where('uuid', '=', MOJANG_PROFILE.id)
      .execute();
    expect(rows).toEqual([{ uuid: MOJANG_PROFILE.id, username: MOJANG_PROFILE.name }]);
  });

  it('online, exits non-zero for a name Mojang does not know (404 or 204) and creates no account', async () => {
    const before = await suite.server.db.selectFrom('users').select('uuid').execute();
    const env = { OFFLINE_MODE: 'false', DATABASE_URL: suite.database.url, MOJANG_API_URL: mojangUrl };
    const [notFound, noContent] = await Promise.all([
      runCli(['code', 'Nobody404'], env),
      runCli(['code', 'Nobody204'], env),
    ]);
    for (const result of [notFound, noContent]) {
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      // No code line (the first line names the database, whose name may hold digits).
      expect(result.stdout).not.toMatch(/Login code|:\s*\d{6}\s*$/m);
      expect(result.stderr).toMatch(/No player is called/);
    }
    expect(await suite.server.db.selectFrom('users').select('uuid').execute()).toHaveLength(before.length);
  });

  it('answers rebuild writes every showing player’s and texture’s files with a progress report, and needs ANSWER_FILES_DIR', async () => {
    const player = await loginNewUser(suite.server);
    const upload = await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(77)));
    expect(upload.status).toBe(200);
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const answersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-cli-answers-'));
    try {
      const env = {
        DATABASE_URL: suite.database.url,
        DATA_DIR: suite.server.config.dataDir,
        ANSWER_FILES_DIR: answersDir,
      };
      const result = await runCli(['answers', 'rebuild'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr, 'the progress, a line a tenth of the way off a terminal').toMatch(
        /^100% \(\d+ of \d+ players and textures\)$/m,
      );
      expect(result.stdout).toMatch(/Wrote the answers of \d+ players and \d+ textures/);
      for (const file of [
        `profile/${player.uuid}`,
        `capes/${player.username}.png`,
        `capes/${player.username.toLowerCase()}.gif`,
        `textures/${hash}`,
      ]) {
        expect(fs.existsSync(path.join(answersDir, file)), file).toBe(true);
      }
      expect(fs.readFileSync(path.join(answersDir, 'profile', player.uuid), 'utf8')).toBe(
        await (await fetch(`${suite.server.url}/profile/${player.uuid}`)).text(),
      );

      const without = await runCli(['answers', 'rebuild'], { ...env, ANSWER_FILES_DIR: '' });
      expect(without.code).toBe(2);
      expect(without.stderr).toContain('ANSWER_FILES_DIR is not set');
    } finally {
      fs.rmSync(answersDir, { recursive: true, force: true });
    }
  });

  it('online, with the Mojang API out of reach, says how to try the site offline or fix the address', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const unreachableUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(['code', 'SomeName'], {
      OFFLINE_MODE: 'false',
      DATABASE_URL: suite.database.url,
      MOJANG_API_URL: unreachableUrl,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The Mojang API.*could not be reached/);
    expect(result.stderr).toContain(
      'To try the site without internet access, set OFFLINE_MODE=true; otherwise check MOJANG_API_URL.',
    );
    expect(result.stdout).not.toMatch(/Login code/);
  });
});

describe('CLI argument checks', () => {
  it('exits non-zero with a message for an invalid username, before touching any database', async () => {
    const result = await runCli(['code', 'not valid!'], {
      OFFLINE_MODE: 'true',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/not a valid username/);
    expect(result.stdout).toBe('');
  });
});

describe("CLI without the server's settings", () => {
  it.each([['code', 'SomeName'], ['sweep'], ['answers', 'rebuild']])(
    '`%s` refuses to create a database of its own',
    async (...args) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-cli-nodb-'));
      const answers = path.join(dataDir, 'answers');
      const result = await runCli(args, {
        OFFLINE_MODE: 'true',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        ANSWER_FILES_DIR: answers,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`There is no database file ${path.join(dataDir, 'cloakroom.db')}.`);
      expect(result.stderr).toContain("Run it with the server's settings (DATA_DIR or DATABASE_URL");
      expect(fs.readdirSync(dataDir), 'nothing was created').toEqual([]);
    },
  );
});

describe('npm and npx on the machine’s node', () => {
  /** The machine's npm or npx, as an operator types it in the checkout. */
  const machine = (command: string, args: string[]) =>
    spawnSync(command, args, {
      cwd: ROOT,
      env: { PATH: SYSTEMD_PATH, HOME: process.env.HOME ?? os.tmpdir() },
      encoding: 'utf8',
    });

  it('an install prints no warnings about the machine’s node (the project runs on its own)', () => {
    const install = machine('npm', ['install', '--dry-run']);
    expect(install.status, install.stderr).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/npm (warn|notice)|EBADENGINE/i);
  });

  it('`npx cloakroom` prints what the command says and nothing of npm’s own', () => {
    const result = machine('npx', ['cloakroom']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')[0]).toBe('Usage: cloakroom code <username> [--admin]');
    expect(result.stderr).not.toMatch(/npm (warn|notice)/i);
  });
});
