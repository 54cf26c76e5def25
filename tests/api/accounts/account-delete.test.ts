// API tests for POST /api/account/delete: the confirmation, and that everything of the account is gone afterwards.
import { describe, expect, it } from 'vitest';
import { issueLoginCode } from '../../../server/auth/login-codes.ts';
import { backends } from '../../../support/backends.ts';
import { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';

describe.each(backends)('account deletion on $name', (backend) => {
  const suite = serverForSuite(backend);

  async function userCount(): Promise<number> {
    const response = await fetch(`${suite.server.url}/api/home`);
    return ((await response.json()) as { users: number }).users;
  }

  it('refuses without the confirmation (422 with errors.confirm) and keeps the account', async () => {
    const { jar } = await loginNewUser(suite.server);
    const before = await userCount();
    for (const body of [{}, { confirm: false }, { confirm: 'no' }]) {
      const response = await jar.post('/api/account/delete', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const errors = ((await response.json()) as { errors: Record<string, string[]> }).errors;
      expect(Array.isArray(errors.confirm), JSON.stringify(body)).toBe(true);
      expect(errors.confirm![0]).toMatch(/confirm/i);
    }
    expect((await jar.get('/api/user')).status).toBe(200);
    expect(await userCount()).toBe(before);
  });

  it('answers 401 without a session', async () => {
    const jar = await newBrowser(suite.server);
    const before = await userCount();
    expect((await jar.post('/api/account/delete', { confirm: true })).status).toBe(401);
    expect(await userCount()).toBe(before);
  });

  it('with confirm true removes the account, its sessions and its login codes', async () => {
    const bystander = await loginNewUser(suite.server);
    const { jar, uuid } = await loginNewUser(suite.server);
    const pendingCode = await issueLoginCode(suite.server.db, uuid);
    const oldSession = jar.cookie('session')!;
    const before = await userCount();

    const response = await jar.post('/api/account/delete', { confirm: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    expect(jar.cookie('session'), 'the session cookie is cleared').toBeUndefined();

    expect(await userCount()).toBe(before - 1);
    const replay = new CookieJar(suite.server.url);
    replay.setCookie('session', oldSession);
    expect((await replay.get('/api/user')).status).toBe(401);

    const codes = await suite.server.db
      .selectFrom('login_codes')
      .select('code')
      .where('user_uuid', '=', uuid)
      .execute();
    expect(codes).toEqual([]);
    const sessions = await suite.server.db.selectFrom('sessions').select('id').where('user_uuid', '=', uuid).execute();
    expect(sessions).toEqual([]);
    const login = await (await newBrowser(suite.server)).post('/api/account/checkauth', { code: pendingCode });
    expect(await login.json()).toMatchObject({ success: false });

    expect((await bystander.jar.get('/api/user')).status, 'other accounts are untouched').toBe(200);
  });
});
