// API tests for the rest of the admin area, on both databases: registration codes, the gallery whitelist,
// the AI cape log, the edit user cape flags and the dashboard's counters; who may call them, what each changes, and
// the audit row of each action.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNED_MESSAGE } from '../../../server/routes/account.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { adminAndPlayerForSuite, loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, PNG_SIGNATURE, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

const MOJANG_PLAYER = { id: '853c80ef3c3749fdaa49938b674adae6', name: 'MojangPlayer' };
const BANNED_PLAYER = { id: '0f4c6d1e2b3a4c5d8e9f0a1b2c3d4e5f', name: 'BannedOne' };

/** Every admin call of this file, with a body an admin may send. */
const CALLS: Array<{ method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> }> = [
  { method: 'POST', path: '/api/admin/registration/generate', body: { username: 'MojangPlayer' } },
  { method: 'GET', path: '/api/admin/gallery/whitelist?page=1' },
  { method: 'POST', path: '/api/admin/gallery/whitelist/delete', body: { hash: 'a'.repeat(64) } },
  { method: 'GET', path: '/api/admin/ai-cape-logs?page=1' },
  { method: 'GET', path: '/api/admin/ai-cape-logs/1' },
  { method: 'POST', path: '/api/admin/user/profile', body: { uuid: '0'.repeat(32), capeGlint: true } },
];

describe.each(backends)('admin tools on $name', (backend) => {
  // The Mojang API the registration call resolves names through, started before the server (which reads its URL).
  const env: Record<string, string> = { LOGIN_ATTEMPTS_PER_MINUTE: '1000', GALLERY_UPLOADS_PER_10_MINUTES: '1000' };
  let mojang: http.Server;
  let mojangUp = true;
  beforeAll(async () => {
    mojang = http.createServer((request, response) => {
      const name = decodeURIComponent(
        /^\/users\/profiles\/minecraft\/([^/?]+)$/.exec(request.url ?? '')?.[1] ?? '',
      ).toLowerCase();
      const profile = [MOJANG_PLAYER, BANNED_PLAYER].find((candidate) => candidate.name.toLowerCase() === name);
      if (!mojangUp) response.writeHead(500).end();
      else if (profile) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(profile));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => mojang.listen(0, '127.0.0.1', resolve));
    env.MOJANG_API_URL = `http://127.0.0.1:${(mojang.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => mojang.close(resolve));
  });
  const suite = serverForSuite(backend, env);

  const accounts = adminAndPlayerForSuite(suite);
  let colour = 40;

  const send = (jar: CookieJar, call: (typeof CALLS)[number]) =>
    call.method === 'GET' ? jar.get(call.path) : jar.post(call.path, call.body);
  const lastAudit = () =>
    suite.server.db.selectFrom('admin_audit').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow() as Promise<{
      action: string;
      admin_name: string;
      target_uuid: string | null;
      target_hash: string | null;
      detail: string | null;
    }>;
  const info = async () => (await accounts.admin.jar.get('/api/admin/info')).json() as Promise<Record<string, number>>;
  const profile = (uuid: string) => modProfile(suite.server.url, uuid);
  const wearCape = async (jar: CookieJar) =>
    expect((await jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour++)))).status).toBe(200);

  it('answers visitors 401 and players 403 on every call', async () => {
    const visitor = await newBrowser(suite.server);
    for (const call of CALLS) {
      expect((await send(visitor, call)).status, `${call.method} ${call.path}`).toBe(401);
      expect((await send(accounts.player.jar, call)).status, `${call.method} ${call.path}`).toBe(403);
    }
  });

  describe('registration codes', () => {
    it('gives a code that logs the player in once, creating the account, and audits it without the code', async () => {
      const response = await accounts.admin.jar.post('/api/admin/registration/generate', { username: 'mojangplayer' });
      expect(response.status, await response.clone().text()).toBe(200);
      const body = (await response.json()) as {
        success: boolean;
        code: string;
        username: string;
        uuid: string;
        expiresInMinutes: number;
      };
      expect(body).toMatchObject({
        success: true,
        username: 'MojangPlayer',
        uuid: MOJANG_PLAYER.id,
        expiresInMinutes: 10,
      });
      expect(body.code).toMatch(/^\d{6}$/);
      const audit = await lastAudit();
      expect(audit).toMatchObject({
        action: 'REGISTRATION_CODE',
        admin_name: accounts.admin.username,
        target_uuid: MOJANG_PLAYER.id,
      });
      expect(JSON.stringify(audit)).not.toContain(body.code);

      const browser = await newBrowser(suite.server);
      const login = await browser.post('/api/account/checkauth', { code: body.code, ref: '/' });
      expect(await login.json()).toMatchObject({
        success: true,
        user: { uuid: MOJANG_PLAYER.id, username: 'MojangPlayer' },
      });
      const again = await (
        await newBrowser(suite.server)
      ).post('/api/account/checkauth', { code: body.code, ref: '/' });
      expect(await again.json()).toMatchObject({ success: false });
    });

    it('refuses a banned player with the banned-account message, an unknown name, a bad name and a Mojang outage', async () => {
      const first = await accounts.admin.jar.post('/api/admin/registration/generate', { username: BANNED_PLAYER.name });
      expect(first.status).toBe(200);
      expect(
        (
          await accounts.admin.jar.post('/api/admin/user/ban', {
            uuid: BANNED_PLAYER.id,
            confirm: true,
            reason: 'nsfw',
          })
        ).status,
      ).toBe(200);
      const banned = await accounts.admin.jar.post('/api/admin/registration/generate', {
        username: BANNED_PLAYER.name,
      });
      expect(banned.status).toBe(403);
      expect((await banned.json()).error).toBe(BANNED_MESSAGE);
      const codes = await suite.server.db
        .selectFrom('login_codes')
        .select('code')
        .where('user_uuid', '=', BANNED_PLAYER.id)
        .execute();
      expect(codes).toEqual([]);

      const unknown = await accounts.admin.jar.post('/api/admin/registration/generate', { username: 'NoSuchPlayer' });
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).message).toBe('No player is called "NoSuchPlayer".');
      expect((await accounts.admin.jar.post('/api/admin/registration/generate', { username: 'bad-name' })).status).toBe(
        422,
      );
      expect((await accounts.admin.jar.post('/api/admin/registration/generate', { username: '' })).status).toBe(422);

      mojangUp = false;
      try {
        const down = await accounts.admin.jar.post('/api/admin/registration/generate', { username: 'MojangPlayer' });
        expect(down.status).toBe(502);
        const { error } = await down.json();
        expect(error).toContain('could not be reached');
        expect(error, 'the admin is told what to do').toContain(
          'set OFFLINE_MODE=true; otherwise check MOJANG_API_URL',
        );
      } finally {
        mojangUp = true;
      }
    });
  });

  describe('gallery whitelist', () => {
    /** A new author's gallery texture; returns its hash, title and author. */
    async function galleryItem(title: string) {
      const author = await loginNewUser(suite.server);
      const form = new FormData();
      form.append('title', title);
      form.append('tags', JSON.stringify(['cute']));
      form.append(
        'file',
        new Blob([new Uint8Array(await solidPng(64, 32, frameColour(colour++)))], { type: 'image/png' }),
        'texture.png',
      );
      const created = await author.jar.sendForm('POST', '/api/gallery/new', form);
      expect(created.status).toBe(201);
      return { hash: ((await created.json()) as { hash: string }).hash, author };
    }
    /** Whitelists an item through the report queue, as a moderator does. */
    async function whitelist(hash: string) {
      expect((await accounts.player.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(
        200,
      );
      const report = await suite.server.db
        .selectFrom('gallery_reports')
        .select('id')
        .where('hash', '=', hash)
        .executeTakeFirstOrThrow();
      expect(
        (await accounts.admin.jar.post('/api/admin/reports/gallery', { id: report.id, action: 'WHITELIST' })).status,
      ).toBe(200);
    }

    it('lists whitelisted textures newest first with their author, in pages of fifteen', async () => {
      const empty = await (await accounts.admin.jar.get('/api/admin/gallery/whitelist')).json();
      expect(empty).toMatchObject({ data: [], currentPage: 1 });
      const items = [];
      for (let index = 0; index < 16; index++) items.push(await galleryItem(`Safe ${index}`));
      await galleryItem('Not whitelisted');
      for (const item of items) await whitelist(item.hash);

      const first = await (await accounts.admin.jar.get('/api/admin/gallery/whitelist?page=1')).json();
      expect(first.data).toHaveLength(15);
      expect(first.data[0]).toEqual({
        hash: items[15]!.hash,
        title: 'Safe 15',
        author_name: items[15]!.author.username,
        author_uuid: items[15]!.author.uuid,
      });
      expect(first.links.map((link: { label: string }) => link.label)).toEqual(['Previous', '1', '2', 'Next']);
      const second = await (await accounts.admin.jar.get('/api/admin/gallery/whitelist?page=2')).json();
      expect(second.data.map((row: { hash: string }) => row.hash)).toEqual([items[0]!.hash]);
    });

    it('takes a texture off the whitelist: it can be reported again; audited; unknown or not whitelisted is 404', async () => {
      const { hash, author } = await galleryItem('Unmarked');
      await whitelist(hash);
      expect((await accounts.player.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(
        422,
      );

      const removed = await accounts.admin.jar.post('/api/admin/gallery/whitelist/delete', { hash });
      expect(removed.status).toBe(200);
      expect(await lastAudit()).toMatchObject({ action: 'UNWHITELIST', target_uuid: author.uuid, target_hash: hash });
      const list = await (await accounts.admin.jar.get('/api/admin/gallery/whitelist')).json();
      expect(list.data.map((row: { hash: string }) => row.hash)).not.toContain(hash);
      expect((await (await accounts.admin.jar.get(`/api/gallery/${hash}`)).json()).whitelisted).toBe(false);
      expect((await accounts.player.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(
        200,
      );

      expect((await accounts.admin.jar.post('/api/admin/gallery/whitelist/delete', { hash })).status).toBe(404);
      expect(
        (await accounts.admin.jar.post('/api/admin/gallery/whitelist/delete', { hash: 'b'.repeat(64) })).status,
      ).toBe(404);
      expect(
        (await accounts.admin.jar.post('/api/admin/gallery/whitelist/delete', { hash: 'not-a-hash' })).status,
      ).toBe(422);
    });
  });

  describe('AI cape log', () => {
    it('lists requests newest first, ten a page with the counts, and serves each image', async () => {
      const empty = await (await accounts.admin.jar.get('/api/admin/ai-cape-logs')).json();
      expect(empty).toEqual({ logs: [], pages: { total_count: 0, per_page: 10, current_page: 1 } });

      const asker = await loginNewUser(suite.server);
      await wearCape(asker.jar);
      const { cape_hash } = await suite.server.db
        .selectFrom('users')
        .select('cape_hash')
        .where('uuid', '=', asker.uuid)
        .executeTakeFirstOrThrow();
      for (let index = 0; index < 11; index++) {
        await suite.server.db
          .insertInto('ai_cape_logs')
          .values({
            created_at: 1_700_000_000_000 + index,
            user_uuid: asker.uuid,
            prompt: `a purple dragon number ${index}`,
            texture_hash: index === 0 ? null : cape_hash,
          })
          .execute();
      }
      const first = await (await accounts.admin.jar.get('/api/admin/ai-cape-logs?page=1')).json();
      expect(first.pages).toEqual({ total_count: 11, per_page: 10, current_page: 1 });
      expect(first.logs).toHaveLength(10);
      expect(first.logs[0]).toMatchObject({
        request_head: 'a purple dragon number 10',
        username: asker.username,
        hasImage: true,
        created_at: 1_700_000_000_010,
      });
      const second = await (await accounts.admin.jar.get('/api/admin/ai-cape-logs?page=2')).json();
      expect(second.logs).toHaveLength(1);
      expect(second.logs[0]).toMatchObject({ request_head: 'a purple dragon number 0', hasImage: false });

      const image = await accounts.admin.jar.get(`/api/admin/ai-cape-logs/${first.logs[0].id}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect((await accounts.admin.jar.get(`/api/admin/ai-cape-logs/${second.logs[0].id}`)).status).toBe(404);
      expect((await accounts.admin.jar.get('/api/admin/ai-cape-logs/999999')).status).toBe(404);
      expect((await accounts.admin.jar.get('/api/admin/ai-cape-logs/abc')).status).toBe(422);

      // The log keeps its image stored after the player takes the cape off.
      expect((await asker.jar.request('DELETE', '/api/upload-cape')).status).toBe(200);
      expect((await accounts.admin.jar.get(`/api/admin/ai-cape-logs/${first.logs[0].id}`)).status).toBe(200);
    });
  });

  describe('edit user cape flags', () => {
    it('sets glint, upside down and the animation on a player with a cape; the mod API shows it at once; audited', async () => {
      const target = await loginNewUser(suite.server);
      const refused = await accounts.admin.jar.post('/api/admin/user/profile', { uuid: target.uuid, capeGlint: true });
      expect(refused.status).toBe(422);
      expect((await refused.json()).error).toBe('That player has no cape, so the cape flags cannot be set.');

      await wearCape(target.jar);
      expect(await profile(target.uuid)).toMatchObject({ capeGlint: false, upsideDown: false });
      expect(
        (
          await accounts.admin.jar.post('/api/admin/user/profile', {
            uuid: target.uuid,
            capeGlint: true,
            upsideDown: true,
          })
        ).status,
      ).toBe(200);
      expect(await profile(target.uuid)).toMatchObject({ capeGlint: true, upsideDown: true });
      expect(await lastAudit()).toMatchObject({
        action: 'CAPE_FLAGS',
        target_uuid: target.uuid,
        detail: 'capeGlint on, upsideDown on',
      });
      const record = await (await accounts.admin.jar.get(`/api/admin/user/${target.username}`)).json();
      expect(record.profile).toEqual({ animatedCape: false, capeGlint: true, upsideDown: true });

      expect(
        (await accounts.admin.jar.post('/api/admin/user/profile', { uuid: target.uuid, upsideDown: false })).status,
      ).toBe(200);
      expect(await profile(target.uuid)).toMatchObject({ capeGlint: true, upsideDown: false });
      expect(
        (await accounts.admin.jar.post('/api/admin/user/profile', { uuid: '0'.repeat(32), capeGlint: true })).status,
      ).toBe(404);
      expect(
        (await accounts.admin.jar.post('/api/admin/user/profile', { uuid: target.uuid, capeGlint: 'yes' })).status,
      ).toBe(422);
    });
  });

  describe('dashboard counters', () => {
    it('move with every account, cape, ears and premium change', async () => {
      const before = await info();
      const home = async () =>
        ((await (await fetch(`${suite.server.url}/api/home`)).json()) as { users: number }).users;
      expect(await home()).toBe(before.totalUsers);

      const newcomer = await loginNewUser(suite.server);
      await wearCape(newcomer.jar);
      expect((await newcomer.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(colour++)))).status).toBe(
        200,
      );
      await wearCape(newcomer.jar); // a new cape for the old one: still one cape worn
      expect(await info()).toMatchObject({
        totalUsers: before.totalUsers! + 1,
        totalCapes: before.totalCapes! + 1,
        totalEars: before.totalEars! + 1,
      });
      expect(await home()).toBe(before.totalUsers! + 1);

      expect(
        (await accounts.admin.jar.post('/api/admin/user/profile', { uuid: newcomer.uuid, capeGlint: true })).status,
      ).toBe(200);
      expect((await info()).totalPremium).toBe(before.totalPremium! + 1);

      expect((await newcomer.jar.request('DELETE', '/api/upload-cape')).status).toBe(200);
      expect((await info()).totalCapes).toBe(before.totalCapes);
      expect(
        (await accounts.admin.jar.post('/api/admin/user/delete', { uuid: newcomer.uuid, confirm: true })).status,
      ).toBe(200);
      expect(await info()).toMatchObject({
        totalUsers: before.totalUsers,
        totalEars: before.totalEars,
        totalPremium: before.totalPremium,
      });
    });
  });
});
