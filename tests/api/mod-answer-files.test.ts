// The answer files a process writes for nginx (ANSWER_FILES_DIR): a profile and a texture are written when they are
// answered, a player's file goes at once on every change to them, a released texture's file goes with it, and a profile
// loaded while a change was being made is never written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProfileCache } from '../../server/mod/profiles.ts';
import { backends } from '../../support/backends.ts';
import { frameColour, solidPng } from '../../support/textures.ts';
import type { CookieJar } from '../helpers/cookie-jar.ts';
import { loginNewUser, randomUuid, serverForSuite } from '../helpers/server.ts';

describe.each(backends)('answer files on $name', (backend) => {
  const answersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-answers-'));
  const suite = serverForSuite(backend, { ANSWER_FILES_DIR: answersDir, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  afterAll(() => fs.rmSync(answersDir, { recursive: true, force: true }));

  const get = (urlPath: string) => fetch(`${suite.server.url}${urlPath}`);
  const profileFile = (uuid: string) => path.join(answersDir, 'profile', `${uuid}.json`);
  const textureFile = (hash: string) => path.join(answersDir, 'textures', hash);
  let colour = 0;
  const uploadCape = async (jar: CookieJar): Promise<string> => {
    const response = await jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(120 + colour++)));
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { cape: string }).cape.split('/').pop()!;
  };

  it("writes a player's profile when it is answered (by any id), as the answer's body and date, and removes it on every change", async () => {
    const player = await loginNewUser(suite.server, `Files_${backend.name}`.slice(0, 16));
    expect(fs.existsSync(profileFile(player.uuid))).toBe(false);
    const first = await get(`/profile/${player.uuid}`);
    const body = await first.text();
    expect(fs.readFileSync(profileFile(player.uuid), 'utf8')).toBe(body);
    expect(fs.statSync(profileFile(player.uuid)).mtimeMs).toBe(Date.parse(first.headers.get('last-modified')!));

    // The change's answer comes after the file is gone: nginx cannot serve the old profile once the player sees "saved".
    const hash = await uploadCape(player.jar);
    expect(fs.existsSync(profileFile(player.uuid))).toBe(false);
    // Asked by name this time: the file is still the uuid's, with the new answer.
    const second = await get(`/profile/${player.username.toUpperCase()}`);
    const changed = await second.text();
    expect(changed).toContain(hash);
    expect(fs.readFileSync(profileFile(player.uuid), 'utf8')).toBe(changed);

    expect((await player.jar.request('DELETE', '/api/upload-cape')).status).toBe(200);
    expect(fs.existsSync(profileFile(player.uuid))).toBe(false);

    // An unknown player has no file: nginx asks a process, which answers 404.
    const unknown = randomUuid();
    expect((await get(`/profile/${unknown}`)).status).toBe(404);
    expect(fs.existsSync(profileFile(unknown))).toBe(false);
  });

  it('writes a texture when it is answered, and removes it when the texture is released', async () => {
    const player = await loginNewUser(suite.server, `Tex_${backend.name}`.slice(0, 16));
    const hash = await uploadCape(player.jar);
    expect(fs.existsSync(textureFile(hash))).toBe(false);
    const answer = await get(`/textures/${hash}.png`);
    expect(answer.status).toBe(200);
    expect(fs.readFileSync(textureFile(hash))).toEqual(Buffer.from(await answer.arrayBuffer()));
    // Another cape takes its place: nothing refers to the first any more, so it is released, and its file with it.
    const next = await uploadCape(player.jar);
    expect(next).not.toBe(hash);
    expect((await get(`/textures/${hash}`)).status).toBe(404);
    expect(fs.existsSync(textureFile(hash))).toBe(false);
  });

  it('a profile loaded while a change to the player was being made is answered but not the current one, so never written', async () => {
    const player = await loginNewUser(suite.server, `Race_${backend.name}`.slice(0, 16));
    const profiles = new ProfileCache(suite.server.db, 'http://localhost/textures', 100);
    const loading = profiles.get(player.uuid);
    profiles.invalidate(player.uuid);
    const loaded = await loading;
    expect(loaded?.uuid).toBe(player.uuid);
    expect(profiles.isCurrent(loaded!)).toBe(false);
    const again = await profiles.get(player.uuid);
    expect(profiles.isCurrent(again!)).toBe(true);
  });
});
