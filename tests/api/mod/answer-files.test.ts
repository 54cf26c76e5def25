// The answer directory a process keeps for nginx (ANSWER_FILES_DIR): complete and authoritative. Every player who has
// something to show has every layout's file under every id before the change's answer leaves; a player with nothing to
// show has none; a texture's files come with it and go when it is released; a player's files change time with every
// change (nginx's ETag is time and size); a change made without a notice is caught up from the change log; a rebuild
// from the database puts back what is missing and removes what is not the database's; and the files are the same bytes
// with the same times whichever way a host wrote them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerDirectory } from '../../../server/mod/answer-directory.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';
import { rebuildAnswerDirectory } from '../../../server/mod/answer-directory-rebuild.ts';
import { AnswerSync } from '../../../server/mod/answer-sync.ts';
import { ProfileCache } from '../../../server/mod/profiles.ts';
import { ShowingPlayers } from '../../../server/mod/showing-players.ts';
import { ImageJobs } from '../../../server/textures/image-work/image-jobs.ts';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { waitFor } from '../../../support/wait.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { emptyWardrobe } from '../../helpers/wardrobe.ts';
import { runCli } from '../../helpers/cli.ts';
import { loginNewUser, randomUsername, serverForSuite } from '../../helpers/server.ts';
import { offlineUuid } from '../../../server/auth/player-ids.ts';

describe.each(backends)('answer directory on $name', (backend) => {
  const answersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-answers-'));
  /** How often the server reads the change log (MOD_CATCH_UP_S) in this suite. */
  const catchUpMs = 2000;
  const suite = serverForSuite(backend, {
    ANSWER_FILES_DIR: answersDir,
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    MOD_CATCH_UP_S: String(catchUpMs / 1000),
  });
  afterAll(() => fs.rmSync(answersDir, { recursive: true, force: true }));

  const get = (urlPath: string) => fetch(`${suite.server.url}${urlPath}`);
  const file = (urlPath: string) => path.join(answersDir, urlPath);
  /** Every file a player with a cape has, by URL path. */
  const capePaths = (uuid: string, username: string) =>
    [uuid, dashedUuid(uuid), username, username.toLowerCase()].flatMap((id) => [
      `/profile/${id}`,
      `/csl/${id}.json`,
      `/capes/${id}.png`,
      `/capes/${id}.gif`,
      `/capes/strip/${id}.png`,
      `/elytras/${id}.png`,
      `/csl-minecraftcapes/${id}`,
    ]);
  let colour = 0;
  const uploadCape = async (jar: CookieJar): Promise<string> => {
    const response = await jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(120 + colour++)));
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { cape: string }).cape.split('/').pop()!;
  };

  it("writes every layout's file under every id before the change's answer, as the process answers it, and removes them when nothing is left", async () => {
    const player = await loginNewUser(suite.server, `Files_${backend.name}`.slice(0, 16));
    expect(fs.existsSync(file(`/profile/${player.uuid}`)), 'a player with nothing to show has no file').toBe(false);
    const hash = await uploadCape(player.jar);
    for (const urlPath of capePaths(player.uuid, player.username)) {
      expect(fs.existsSync(file(urlPath)), urlPath).toBe(true);
      const answer = await get(urlPath);
      expect(answer.status, urlPath).toBe(200);
      expect(fs.readFileSync(file(urlPath)), urlPath).toEqual(Buffer.from(await answer.arrayBuffer()));
    }
    for (const urlPath of [
      `/textures/${hash}`,
      `/textures/${hash}.png`,
      `/csl/textures/${hash}`,
      `/csl/textures/${hash}.png`,
    ]) {
      expect(fs.readFileSync(file(urlPath)), urlPath).toEqual(Buffer.from(await (await get(urlPath)).arrayBuffer()));
    }
    // The file's time is the profile's Last-Modified, as the processes answer it.
    const lastModified = (await get(`/profile/${player.uuid}`)).headers.get('last-modified')!;
    expect(fs.statSync(file(`/profile/${player.uuid}`)).mtimeMs).toBe(Date.parse(lastModified));

    expect((await player.jar.request('DELETE', '/api/upload-cape')).status).toBe(200);
    for (const urlPath of capePaths(player.uuid, player.username))
      expect(fs.existsSync(file(urlPath)), urlPath).toBe(false);
    expect(fs.existsSync(file(`/textures/${hash}`)), 'kept in the wardrobe').toBe(true);
    await emptyWardrobe(player.jar);
    // Nothing else refers to the cape: released, and its files with it.
    expect(fs.existsSync(file(`/textures/${hash}`))).toBe(false);
    expect(fs.readdirSync(answersDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it("moves a player's file time on with every change, also within one second, so a changed answer never keeps an old ETag", async () => {
    const player = await loginNewUser(suite.server, `Etag_${backend.name}`.slice(0, 16));
    const times: number[] = [];
    const sizes: number[] = [];
    for (let change = 0; change < 3; change++) {
      await uploadCape(player.jar);
      const stat = fs.statSync(file(`/profile/${player.uuid}`));
      times.push(stat.mtimeMs);
      sizes.push(stat.size);
    }
    // Three capes of the same size in a row: the profile's length does not change, its time does, every time.
    expect(new Set(sizes).size).toBe(1);
    expect(times[1]).toBeGreaterThan(times[0]!);
    expect(times[2]).toBeGreaterThan(times[1]!);
    // The name's file is the same file as the uuid's (one write, one time).
    expect(fs.statSync(file(`/capes/${player.username}.png`)).mtimeMs).toBe(times[2]);
  });

  it(`catches up a change made without a notice (an operator's rename) from the change log within a catch-up (${catchUpMs / 1000} s here)`, async () => {
    // An offline-mode account whose name changes: the operator CLI registers the new name under the same offline uuid.
    const newName = randomUsername('New');
    const player = await loginNewUser(suite.server, `Old_${backend.name}`.slice(0, 16), { uuid: offlineUuid(newName) });
    await uploadCape(player.jar);
    expect(fs.existsSync(file(`/capes/${player.username}.png`))).toBe(true);
    // The CLI renames the account in the database and logs the change: it has no change bus of its own.
    const cli = await runCli(['code', newName], { OFFLINE_MODE: 'true', DATABASE_URL: suite.database.url });
    expect(cli.code, cli.stderr).toBe(0);
    await waitFor(() => fs.existsSync(file(`/capes/${newName}.png`)), 'the new name’s files', {
      timeoutMs: catchUpMs + 3000,
    });
    expect(fs.existsSync(file(`/capes/${newName.toLowerCase()}.png`))).toBe(true);
    expect(fs.existsSync(file(`/capes/${player.username}.png`)), 'the old name is no longer the player’s').toBe(false);
    expect(fs.existsSync(file(`/profile/${player.username.toLowerCase()}`))).toBe(false);
    expect(JSON.parse(fs.readFileSync(file(`/csl/${player.uuid}.json`), 'utf8'))).toMatchObject({ username: newName });
  });

  it("rebuilds a directory from the database: what is missing comes back, what is not the database's goes", async () => {
    const player = await loginNewUser(suite.server, `Build_${backend.name}`.slice(0, 16));
    const hash = await uploadCape(player.jar);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-rebuilt-'));
    try {
      const fail = (error: unknown) => {
        throw error;
      };
      const directory = new AnswerDirectory(dir, fail);
      fs.writeFileSync(path.join(dir, 'profile', '0'.repeat(32)), '{"stale":true}');
      fs.writeFileSync(path.join(dir, 'textures', 'f'.repeat(64)), 'stale');
      const progress: Array<[number, number]> = [];
      const imageJobs = new ImageJobs({});
      const result = await rebuildAnswerDirectory(
        {
          db: suite.server.db,
          library: suite.server.app.textureLibrary,
          imageJobs,
          texturesBaseUrl: `${suite.server.config.publicBaseUrl}/textures`,
          onError: fail,
        },
        directory,
        { force: false, onProgress: (done, total) => progress.push([done, total]) },
      ).finally(() => imageJobs.close());
      expect(result.players).toBeGreaterThanOrEqual(1);
      for (const urlPath of [...capePaths(player.uuid, player.username), `/textures/${hash}`]) {
        expect(fs.readFileSync(path.join(dir, urlPath)), urlPath).toEqual(fs.readFileSync(file(urlPath)));
      }
      expect(fs.existsSync(path.join(dir, 'profile', '0'.repeat(32)))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'textures', 'f'.repeat(64)))).toBe(false);
      expect(directory.readMark()).toBe(result.mark);
      expect(progress.at(-1)![0]).toBe(progress.at(-1)![1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives a player's and a texture's files the same bytes and times whether a change notice or a rebuild wrote them", async () => {
    const player = await loginNewUser(suite.server, `Same_${backend.name}`.slice(0, 16));
    const hash = await uploadCape(player.jar);
    // A texture registered an hour before a host writes its files (a host that catches up, or is rebuilt, later on).
    const { db } = suite.server;
    const row = await db.selectFrom('textures').select('created_at').where('hash', '=', hash).executeTakeFirstOrThrow();
    const registeredAt = Number(row.created_at) - 3_600_000;
    await db.updateTable('textures').set({ created_at: registeredAt }).where('hash', '=', hash).execute();
    const noticed = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-noticed-'));
    const rebuilt = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-rebuilt-'));
    const fail = (error: unknown) => {
      throw error;
    };
    const imageJobs = new ImageJobs({});
    try {
      const texturesBaseUrl = `${suite.server.config.publicBaseUrl}/textures`;
      const parts = { db, library: suite.server.app.textureLibrary, imageJobs, texturesBaseUrl, onError: fail };
      // One host writes them on the change notices (what a catch-up also does), the other by a rebuild.
      const sync = new AnswerSync({
        ...parts,
        profiles: new ProfileCache(db, texturesBaseUrl, 100),
        showing: new ShowingPlayers(),
        directory: new AnswerDirectory(noticed, fail),
        catchUpMs: 60_000,
        onInfo: () => {},
      });
      await sync.handle({ seq: 1, subject: hash });
      await sync.handle({ seq: 2, subject: player.uuid });
      await rebuildAnswerDirectory(parts, new AnswerDirectory(rebuilt, fail), { force: false });
      const texturePaths = [`/textures/${hash}`, `/textures/${hash}.png`, `/csl/textures/${hash}`];
      for (const urlPath of [...capePaths(player.uuid, player.username), ...texturePaths, `${texturePaths[2]}.png`]) {
        const [one, other] = [noticed, rebuilt].map((dir) => path.join(dir, urlPath));
        expect(fs.readFileSync(one), urlPath).toEqual(fs.readFileSync(other));
        expect(fs.statSync(one).mtimeMs, urlPath).toBe(fs.statSync(other).mtimeMs);
      }
      // nginx's Last-Modified of a texture is the second it was registered.
      expect(fs.statSync(path.join(noticed, texturePaths[0]!)).mtimeMs).toBe(Math.floor(registeredAt / 1000) * 1000);
    } finally {
      await imageJobs.close();
      for (const dir of [noticed, rebuilt]) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
