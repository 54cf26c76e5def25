// API tests for the admin dashboard, ban reasons, bans and unbans, on both databases: who may call them,
// what a ban does to sessions, logins and the mod API, the ban list's pages, and the audit row of each action.
import { describe, expect, it } from 'vitest';
import { issueLoginCode } from '../../../server/auth/login-codes.ts';
import { BANNED_MESSAGE } from '../../../server/routes/account.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import {
  adminAndPlayerForSuite,
  createUserWithCode,
  loginNewUser,
  newBrowser,
  serverForSuite,
} from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

const KEY = 'admin-test-auth-key';

/** Every admin call of this file, with a body that an admin may send. */
const CALLS: Array<{ method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> }> = [
  { method: 'GET', path: '/api/admin/info' },
  { method: 'GET', path: '/api/admin/banreasons' },
  { method: 'GET', path: '/api/admin/bans/user?page=1' },
  { method: 'POST', path: '/api/admin/user/ban', body: { uuid: '0'.repeat(32), confirm: true, reason: 'nsfw' } },
  { method: 'POST', path: '/api/admin/bans/user/delete', body: { uuid: '0'.repeat(32) } },
];

describe.each(backends)('admin bans on $name', (backend) => {
  const suite = serverForSuite(backend, { AUTH_API_KEY: KEY });
  const accounts = adminAndPlayerForSuite(suite);

  const send = (jar: CookieJar, call: (typeof CALLS)[number]) =>
    call.method === 'GET' ? jar.get(call.path) : jar.post(call.path, call.body);
  const profile = (uuid: string) => modProfile(suite.server.url, uuid);

  it('answers visitors 401 and players 403 on every admin call', async () => {
    const visitor = await newBrowser(suite.server);
    for (const call of CALLS) {
      expect((await send(visitor, call)).status, `${call.method} ${call.path}`).toBe(401);
      expect((await send(accounts.player.jar, call)).status, `${call.method} ${call.path}`).toBe(403);
    }
  });

  it('gives admins the totals and the ban reasons', async () => {
    const info = await accounts.admin.jar.get('/api/admin/info');
    expect(info.status).toBe(200);
    const totals = await info.json();
    expect(totals.totalUsers).toBeGreaterThanOrEqual(2);
    expect(Object.keys(totals).sort()).toEqual([
      'totalCapes',
      'totalEars',
      'totalGallery',
      'totalPremium',
      'totalUsers',
    ]);
    const reasons = await (await accounts.admin.jar.get('/api/admin/banreasons')).json();
    expect(reasons.nsfw).toBe('NSFW or NSFL image');
  });

  it('bans a player at once: their session ends, logins are refused, the mod API hides their cape; unban brings it back', async () => {
    const target = await loginNewUser(suite.server);
    await target.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(31)));
    expect((await profile(target.uuid)).cape_url).not.toBeNull();

    const ban = await accounts.admin.jar.post('/api/admin/user/ban', {
      uuid: target.uuid,
      confirm: true,
      reason: 'nsfw',
    });
    expect(ban.status, await ban.clone().text()).toBe(200);

    // Every call of the ended session is 401 and says why, with the ban's reason.
    for (const call of [target.jar.get('/api/user'), target.jar.get('/api/premium/boost/discord/linked')]) {
      const answer = await call;
      expect(answer.status).toBe(401);
      expect((await answer.json()).error).toBe(
        'The specified account has been banned for violating our terms of service. Reason: NSFW or NSFL image.',
      );
    }
    expect((await profile(target.uuid)).cape_url).toBeNull();
    const code = await issueLoginCode(suite.server.db, target.uuid);
    const login = await (await newBrowser(suite.server)).post('/api/account/checkauth', { code, ref: '/' });
    expect(JSON.stringify(await login.json())).toContain(BANNED_MESSAGE);
    const internal = await fetch(`${suite.server.url}/api/internal/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uuid: target.uuid, username: target.username }),
    });
    expect(await internal.json()).toMatchObject({ banned: true, code: null });

    const list = await (await accounts.admin.jar.get('/api/admin/bans/user')).json();
    expect(list.data[0]).toMatchObject({
      uuid: target.uuid,
      username: target.username,
      reason_text: 'NSFW or NSFL image',
      banned_by_username: accounts.admin.username,
    });

    const unban = await accounts.admin.jar.post('/api/admin/bans/user/delete', { uuid: target.uuid });
    expect(unban.status).toBe(200);
    // The session the ban ended stays ended, now without a reason.
    const ended = await target.jar.get('/api/user');
    expect(ended.status).toBe(401);
    expect((await ended.json()).error).toBe('Unauthenticated.');
    expect((await profile(target.uuid)).cape_url).not.toBeNull();
    const after = await (await accounts.admin.jar.get('/api/admin/bans/user')).json();
    expect(after.data.map((row: { uuid: string }) => row.uuid)).not.toContain(target.uuid);

    const audit = await suite.server.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('target_uuid', '=', target.uuid)
      .orderBy('id')
      .execute();
    expect(audit.map((row) => [row.action, row.admin_uuid, row.target_name, row.reason])).toEqual([
      ['BAN', accounts.admin.uuid, target.username, 'NSFW or NSFL image'],
      ['UNBAN', accounts.admin.uuid, target.username, null],
    ]);
  });

  it('refuses a ban without the confirm box, with an unknown reason, of an unknown player, of oneself or of a banned player', async () => {
    const target = await loginNewUser(suite.server);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ uuid: target.uuid, confirm: false, reason: 'nsfw' }, 422, 'Tick the confirm box to ban this player.'],
      [{ uuid: target.uuid, confirm: true, reason: 'because' }, 422, 'Choose a reason from the list.'],
      [{ uuid: 'f'.repeat(32), confirm: true, reason: 'nsfw' }, 404, "That user doesn't exist or isn't registered."],
      [{ uuid: accounts.admin.uuid, confirm: true, reason: 'nsfw' }, 422, 'You cannot ban yourself.'],
    ];
    for (const [body, status, message] of cases) {
      const response = await accounts.admin.jar.post('/api/admin/user/ban', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(await response.json())).toContain(message);
    }
    expect(
      (await accounts.admin.jar.post('/api/admin/user/ban', { uuid: target.uuid, confirm: true, reason: 'hate' }))
        .status,
    ).toBe(200);
    const again = await accounts.admin.jar.post('/api/admin/user/ban', {
      uuid: target.uuid,
      confirm: true,
      reason: 'hate',
    });
    expect(again.status).toBe(422);
    expect((await again.json()).error).toBe('That player is already banned.');
    expect(
      (
        await suite.server.db
          .selectFrom('admin_audit')
          .select('action')
          .where('target_uuid', '=', target.uuid)
          .execute()
      ).length,
    ).toBe(1);
  });

  it('pages the ban list fifteen at a time with Previous, page and Next links', async () => {
    for (let i = 0; i < 16; i++) {
      const { uuid } = await createUserWithCode(suite.server.db, `Paged${backend.name.slice(0, 2)}${i}`);
      expect(
        (await accounts.admin.jar.post('/api/admin/user/ban', { uuid, confirm: true, reason: 'other' })).status,
      ).toBe(200);
    }
    const first = await (await accounts.admin.jar.get('/api/admin/bans/user?page=1')).json();
    expect(first.data).toHaveLength(15);
    expect(first.currentPage).toBe(1);
    const total = Number(
      (
        await suite.server.db
          .selectFrom('user_bans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const lastPage = Math.ceil(total / 15);
    const last = await (await accounts.admin.jar.get(`/api/admin/bans/user?page=${lastPage}`)).json();
    expect(last.data).toHaveLength(total - 15 * (lastPage - 1));
    expect(last.links[0]).toEqual({
      label: 'Previous',
      url: `/api/admin/bans/user?page=${lastPage - 1}`,
      active: false,
    });
    expect(last.links.at(-1)).toEqual({ label: 'Next', url: null, active: false });
    expect(last.links.find((link: { active: boolean }) => link.active)).toEqual({
      label: String(lastPage),
      url: `/api/admin/bans/user?page=${lastPage}`,
      active: true,
    });
  });
});
