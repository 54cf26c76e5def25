// API tests for the admin edit user calls, on both databases: the record, dropping the cached profile,
// removing a cape or ears, deleting an account; who may call them; and the audit row each writes.
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { adminAndPlayerForSuite, loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

const NOBODY = 'f'.repeat(32);

describe.each(backends)('admin edit user on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  const accounts = adminAndPlayerForSuite(suite);
  let colour = 40;

  /** A player with a cape and ears of their own (a removed cape is blocklisted, so each player's differ), logged in. */
  async function dressedPlayer(): Promise<{ jar: CookieJar; uuid: string; username: string }> {
    const target = await loginNewUser(suite.server);
    expect((await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)))).status).toBe(
      200,
    );
    expect((await target.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(colour++)))).status).toBe(
      200,
    );
    return target;
  }
  const profile = (uuid: string) => modProfile(suite.server.url, uuid);
  const audit = (uuid: string) =>
    suite.server.db
      .selectFrom('admin_audit')
      .select(['action', 'admin_uuid', 'target_name'])
      .where('target_uuid', '=', uuid)
      .orderBy('id')
      .execute();

  it('answers visitors 401 and players 403 on every edit user call', async () => {
    const visitor = await newBrowser(suite.server);
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/api/admin/user/${accounts.player.username}`],
      ['POST', '/api/admin/user/cache', { uuid: accounts.player.uuid }],
      ['POST', '/api/admin/user/cape/delete', { uuid: accounts.player.uuid }],
      ['POST', '/api/admin/user/ears/delete', { uuid: accounts.player.uuid }],
      ['POST', '/api/admin/user/delete', { uuid: accounts.player.uuid, confirm: true }],
    ];
    for (const [method, path, body] of calls) {
      for (const [jar, status] of [
        [visitor, 401],
        [accounts.player.jar, 403],
      ] as const) {
        const response = method === 'GET' ? await jar.get(path) : await jar.post(path, body);
        expect(response.status, `${method} ${path}`).toBe(status);
      }
    }
    expect(await audit(accounts.player.uuid)).toEqual([]);
  });

  it("reads a player's record by name in any case; an unknown name gets the not-registered message", async () => {
    const target = await dressedPlayer();
    const response = await accounts.admin.jar.get(`/api/admin/user/${target.username.toUpperCase()}`);
    expect(response.status).toBe(200);
    const record = await response.json();
    expect(record).toMatchObject({
      username: target.username,
      uuid: target.uuid,
      banned: false,
      hasCape: true,
      hasEars: true,
    });
    expect(record.profile).toEqual({ animatedCape: false, capeGlint: false, upsideDown: false });
    expect(record.createdAt).toBeGreaterThan(Date.now() - 60_000);
    // The pictures the player wears, the bytes the mod API serves, as data URLs (a moderator sees them even once
    // withheld).
    const worn = await profile(target.uuid);
    for (const [dataUrl, url] of [
      [record.cape, worn.cape_url!],
      [record.ears, worn.ear_url!],
    ]) {
      expect(dataUrl).toMatch(/^data:image\/png;base64,/);
      expect(Buffer.from(dataUrl.split(',')[1], 'base64')).toEqual(
        Buffer.from(await (await fetch(`${suite.server.url}${new URL(url).pathname}`)).arrayBuffer()),
      );
    }
    const bare = await (await accounts.admin.jar.get(`/api/admin/user/${accounts.player.username}`)).json();
    expect(bare).toMatchObject({ hasCape: false, hasEars: false, cape: null, ears: null });
    const unknown = await accounts.admin.jar.get('/api/admin/user/Nobody_At_All');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("That user doesn't exist or isn't registered.");
  });

  it('removes the cape and the ears, each at once in the mod API, and audits both', async () => {
    const target = await dressedPlayer();
    expect((await accounts.admin.jar.post('/api/admin/user/cape/delete', { uuid: target.uuid })).status).toBe(200);
    expect(await profile(target.uuid)).toMatchObject({ cape_url: null });
    expect((await profile(target.uuid)).ear_url).not.toBeNull();
    expect((await accounts.admin.jar.post('/api/admin/user/ears/delete', { uuid: target.uuid })).status).toBe(200);
    expect(await profile(target.uuid)).toMatchObject({ cape_url: null, ear_url: null });
    expect((await accounts.admin.jar.post('/api/admin/user/cache', { uuid: target.uuid })).status).toBe(200);
    expect(await audit(target.uuid)).toEqual([
      { action: 'CAPE_DELETE', admin_uuid: accounts.admin.uuid, target_name: target.username },
      { action: 'EARS_DELETE', admin_uuid: accounts.admin.uuid, target_name: target.username },
      { action: 'CACHE', admin_uuid: accounts.admin.uuid, target_name: target.username },
    ]);
  });

  it('a deleted cape or ears leaves every player wearing the same picture, and the audit row says how many lost it', async () => {
    const target = await dressedPlayer();
    const capeTwin = await loginNewUser(suite.server);
    expect(
      (await capeTwin.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour - 2)))).status,
    ).toBe(200);
    const earsTwin = await loginNewUser(suite.server);
    expect((await earsTwin.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(colour - 1)))).status).toBe(
      200,
    );
    expect((await profile(capeTwin.uuid)).cape_url).not.toBeNull();

    const cape = await accounts.admin.jar.post('/api/admin/user/cape/delete', { uuid: target.uuid });
    expect(cape.status).toBe(200);
    expect(await cape.json()).toEqual({ success: true, players: 2 });
    expect((await profile(capeTwin.uuid)).cape_url).toBeNull();
    expect((await profile(earsTwin.uuid)).ear_url).not.toBeNull();
    expect((await accounts.admin.jar.post('/api/admin/user/ears/delete', { uuid: target.uuid })).status).toBe(200);
    expect((await profile(earsTwin.uuid)).ear_url).toBeNull();
    const rows = await suite.server.db
      .selectFrom('admin_audit')
      .select(['action', 'detail'])
      .where('target_uuid', '=', target.uuid)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'CAPE_DELETE', detail: '2 players lost it' },
      { action: 'EARS_DELETE', detail: '2 players lost it' },
    ]);
  });

  it('deleting a cape or ears the player does not have says so and writes no audit row', async () => {
    const target = await loginNewUser(suite.server);
    for (const [path, message] of [
      ['/api/admin/user/cape/delete', 'That player has no cape to delete.'],
      ['/api/admin/user/ears/delete', 'That player has no ears to delete.'],
    ] as const) {
      const response = await accounts.admin.jar.post(path, { uuid: target.uuid });
      expect(response.status, path).toBe(422);
      expect((await response.json()).error).toBe(message);
    }
    expect(await audit(target.uuid)).toEqual([]);
  });

  it('deletes an account only with the confirm box; the audit row outlives the account', async () => {
    const target = await dressedPlayer();
    const unconfirmed = await accounts.admin.jar.post('/api/admin/user/delete', { uuid: target.uuid, confirm: false });
    expect(unconfirmed.status).toBe(422);
    expect(JSON.stringify(await unconfirmed.json())).toContain('Tick the confirm box to delete this player.');
    expect((await accounts.admin.jar.post('/api/admin/user/delete', { uuid: target.uuid, confirm: true })).status).toBe(
      200,
    );
    expect((await fetch(`${suite.server.url}/api/user/search/${target.uuid}`)).status).toBe(404);
    expect((await target.jar.get('/api/user')).status).toBe(401);
    expect(await audit(target.uuid)).toEqual([
      { action: 'DELETE', admin_uuid: accounts.admin.uuid, target_name: target.username },
    ]);
  });

  it('answers 404 for an unknown player on every action', async () => {
    for (const path of ['/api/admin/user/cache', '/api/admin/user/cape/delete', '/api/admin/user/ears/delete']) {
      expect((await accounts.admin.jar.post(path, { uuid: NOBODY })).status, path).toBe(404);
    }
    expect((await accounts.admin.jar.post('/api/admin/user/delete', { uuid: NOBODY, confirm: true })).status).toBe(404);
  });
});
