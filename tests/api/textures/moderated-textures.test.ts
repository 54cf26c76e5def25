// A moderator's removal reaches every public copy at once, on both databases: a picture removed on a player report, the
// textures of a banned player and those of a deleted account stop being served by every texture URL and answer file,
// while the moderator keeps the evidence (the report's copy, the audit row's picture, the edit user page).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

/** Every public URL path a stored texture is served at. */
const textureUrls = (hash: string) => [
  `/textures/${hash}`,
  `/textures/${hash}.png`,
  `/csl/textures/${hash}`,
  `/csl/textures/${hash}.png`,
];

describe.each(backends)('moderated textures on $name', (backend) => {
  const answersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-moderated-'));
  const suite = serverForSuite(backend, { ANSWER_FILES_DIR: answersDir, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  afterAll(() => fs.rmSync(answersDir, { recursive: true, force: true }));
  let admin: { jar: CookieJar; uuid: string; username: string };
  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
  });

  let colour = 0;
  /** A new player wearing a new cape (or the given picture); returns the player and the cape's hash. */
  async function playerWithCape(picture?: Buffer) {
    const player = await loginNewUser(suite.server);
    const response = await player.jar.upload(
      '/api/upload-cape',
      picture ?? (await solidPng(64, 32, frameColour(400 + colour++))),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    return { ...player, hash: ((await response.json()) as { cape: string }).cape.split('/').pop()! };
  }

  /** Whether every public URL of a texture answers it (200) and has its answer files, or none does (404, no file). */
  async function served(hash: string): Promise<boolean | 'partly'> {
    const answers = await Promise.all(
      textureUrls(hash).map(async (url) => (await fetch(`${suite.server.url}${url}`)).status),
    );
    const files = textureUrls(hash).map((url) => fs.existsSync(path.join(answersDir, url)));
    if (answers.every((status) => status === 200) && files.every(Boolean)) return true;
    if (answers.every((status) => status === 404) && !files.some(Boolean)) return false;
    return 'partly';
  }

  it('a cape removed on a player report stops being served by every URL at once, and the moderator still sees it', async () => {
    const target = await playerWithCape();
    const reporter = await loginNewUser(suite.server);
    expect(
      (await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await served(target.hash)).toBe(true);
    const report = (
      (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<{ id: number; uuid: string }>
    ).find((row) => row.uuid === target.uuid)!;
    expect(
      (await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'REMOVE', reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await served(target.hash)).toBe(false);
    // The audit row keeps the picture for moderators.
    const audit = (await (await admin.jar.get('/api/admin/audit')).json()) as {
      data: Array<{ action: string; thumbnail: string | null }>;
    };
    expect(audit.data.find((row) => row.action === 'USER_REPORT_REMOVE')?.thumbnail).toMatch(
      /^data:image\/png;base64,/,
    );
  });

  it("a banned player's cape stops being served unless another player wears it; the unban brings it back", async () => {
    const bannedPicture = await solidPng(64, 32, frameColour(470));
    const banned = await playerWithCape(bannedPicture);
    const sharedPicture = await solidPng(64, 32, frameColour(480));
    const alsoBanned = await playerWithCape(sharedPicture);
    const wearer = await playerWithCape(sharedPicture);
    for (const player of [banned, alsoBanned]) {
      const ban = await admin.jar.post('/api/admin/user/ban', { uuid: player.uuid, confirm: true, reason: 'nsfw' });
      expect(ban.status, await ban.clone().text()).toBe(200);
    }
    expect(await served(banned.hash)).toBe(false);
    expect(await served(wearer.hash), 'another player still wears it').toBe(true);
    // The edit user page still shows the banned player's cape to the moderator.
    const record = (await (await admin.jar.get(`/api/admin/user/${banned.username}`)).json()) as {
      cape: string | null;
    };
    expect(record.cape).toMatch(/^data:image\/png;base64,/);
    expect((await admin.jar.post('/api/admin/bans/user/delete', { uuid: banned.uuid })).status).toBe(200);
    expect(await served(banned.hash)).toBe(true);
  });

  it('a picture withheld by a ban is served again when a player who is not banned uploads it', async () => {
    const picture = await solidPng(64, 32, frameColour(490));
    const banned = await playerWithCape(picture);
    expect(
      (await admin.jar.post('/api/admin/user/ban', { uuid: banned.uuid, confirm: true, reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await served(banned.hash)).toBe(false);
    const later = await playerWithCape(picture);
    expect(later.hash).toBe(banned.hash);
    expect(await served(later.hash)).toBe(true);
  });

  it("a reported player's deleted account takes their cape off every URL at once, not at the next sweep", async () => {
    const target = await playerWithCape();
    const reporter = await loginNewUser(suite.server);
    expect(
      (await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await served(target.hash)).toBe(true);
    expect((await target.jar.post('/api/account/delete', { confirm: true })).status).toBe(200);
    expect(await served(target.hash)).toBe(false);
  });
});
