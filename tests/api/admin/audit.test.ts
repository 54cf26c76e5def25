// API tests for the audit log (GET /api/admin/audit), on both databases: admins only, newest first, and the moderator
// and player filters by name (any case) or uuid, kept in the pager's links.
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';

describe.each(backends)('admin audit log on $name', (backend) => {
  const suite = serverForSuite(backend);
  let first: { jar: CookieJar; uuid: string; username: string };
  let second: { jar: CookieJar; uuid: string; username: string };
  let players: Array<{ uuid: string; username: string }>;

  beforeAll(async () => {
    first = await loginNewUser(suite.server, undefined, { admin: true });
    second = await loginNewUser(suite.server, undefined, { admin: true });
    players = [await loginNewUser(suite.server), await loginNewUser(suite.server)];
    // The first moderator refreshes both players' caches; the second bans the first player.
    for (const player of players)
      expect((await first.jar.post('/api/admin/user/cache', { uuid: player.uuid })).status).toBe(200);
    expect(
      (await second.jar.post('/api/admin/user/ban', { uuid: players[0]!.uuid, confirm: true, reason: 'other' })).status,
    ).toBe(200);
  });

  const audit = async (query: string) => {
    const response = await first.jar.get(`/api/admin/audit${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      data: Array<{ action: string; admin_name: string; actor_kind: string; target_name: string }>;
      links: Array<{ url: string | null }>;
    };
  };

  it('is for admins only', async () => {
    expect((await (await newBrowser(suite.server)).get('/api/admin/audit')).status).toBe(401);
    const player = await loginNewUser(suite.server);
    expect((await player.jar.get('/api/admin/audit')).status).toBe(403);
  });

  it('lists every action newest first, each by a moderator here', async () => {
    const { data } = await audit('');
    expect(data.map((row) => [row.action, row.admin_name, row.actor_kind, row.target_name])).toEqual([
      ['BAN', second.username, 'moderator', players[0]!.username],
      ['CACHE', first.username, 'moderator', players[1]!.username],
      ['CACHE', first.username, 'moderator', players[0]!.username],
    ]);
  });

  it("narrows to one moderator's actions or to one player's, by name in any case or by uuid", async () => {
    expect((await audit(`?admin=${second.username.toUpperCase()}`)).data.map((row) => row.action)).toEqual(['BAN']);
    expect((await audit(`?admin=${first.uuid}`)).data).toHaveLength(2);
    expect((await audit(`?player=${players[0]!.uuid}`)).data.map((row) => row.action)).toEqual(['BAN', 'CACHE']);
    const both = await audit(`?admin=${first.username}&player=${players[1]!.username.toLowerCase()}`);
    expect(both.data.map((row) => row.target_name)).toEqual([players[1]!.username]);
    expect(both.links.filter((link) => link.url).every((link) => link.url!.includes(`admin=${first.username}`))).toBe(
      true,
    );
  });

  it('refuses a player filter that is neither a name nor a uuid, and a By filter that is empty or too long', async () => {
    expect((await first.jar.get('/api/admin/audit?player=not%20a%20name')).status).toBe(422);
    expect((await first.jar.get('/api/admin/audit?admin=%20')).status).toBe(422);
    expect((await first.jar.get(`/api/admin/audit?admin=${'x'.repeat(41)}`)).status).toBe(422);
    // Whoever acted may have spaces in their name (an app, a service): none of them did anything here.
    expect((await audit('?admin=Discord%20bot')).data).toEqual([]);
  });

  it('says what changed: the flags a moderator set, and the texture removed with its picture (kept after the texture is gone)', async () => {
    const dressed = await loginNewUser(suite.server);
    const upload = await dressed.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(77)));
    expect(upload.status).toBe(200);
    expect(
      (await first.jar.post('/api/admin/user/profile', { uuid: dressed.uuid, capeGlint: true, upsideDown: false }))
        .status,
    ).toBe(200);
    const capePath = new URL(((await upload.json()) as { cape: string }).cape).pathname;
    expect((await first.jar.post('/api/admin/user/cape/delete', { uuid: dressed.uuid })).status).toBe(200);
    expect((await fetch(`${suite.server.url}${capePath}`)).status).toBe(404);

    const response = await first.jar.get(`/api/admin/audit?player=${dressed.uuid}`);
    const rows = ((await response.json()) as { data: Array<Record<string, unknown>> }).data;
    expect(rows.map((row) => [row.action, row.detail, row.target_hash])).toEqual([
      ['CAPE_DELETE', '1 player lost it', capePath.replace('/textures/', '')],
      ['CAPE_FLAGS', 'capeGlint on, upsideDown off', null],
    ]);
    expect(rows[0]!.thumbnail).toMatch(/^data:image\/png;base64,/);
    expect(rows[1]!.thumbnail).toBeNull();
  });
});
