// API tests for POST /api/internal/auth, the game auth server's call that hands a joining player a login code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { newBrowser, randomUuid, serverForSuite, startServer, type TestServer } from '../../helpers/server.ts';

const KEY = 'test-auth-server-key-0123456789';

describe.each(backends)('internal auth on $name', (backend) => {
  const suite = serverForSuite(backend, { AUTH_API_KEY: KEY });
  let keyless: TestServer;

  beforeAll(async () => {
    keyless = await startServer(suite.database.url);
  });

  afterAll(async () => {
    await keyless?.close();
  });

  /** Calls the internal endpoint like the game auth server: bearer key, no cookies, no XSRF header. */
  function callAuth(
    target: TestServer,
    body: unknown,
    authorization: string | null = `Bearer ${KEY}`,
  ): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization !== null) headers.authorization = authorization;
    return fetch(`${target.url}/api/internal/auth`, { method: 'POST', headers, body: JSON.stringify(body) });
  }

  async function userCount(): Promise<number> {
    return ((await (await fetch(`${suite.server.url}/api/home`)).json()) as { users: number }).users;
  }

  it('answers 401 without a bearer key or with a wrong one, and creates no account', async () => {
    const before = await userCount();
    const body = { uuid: randomUuid(), username: 'NoKey' };
    for (const authorization of [null, 'Bearer wrong-key', `Bearer ${KEY}x`, KEY, `Basic ${KEY}`, 'Bearer ']) {
      const response = await callAuth(suite.server, body, authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(await response.json()).toHaveProperty('error');
    }
    expect(await userCount()).toBe(before);
  });

  it('answers 401 to every key when AUTH_API_KEY is not set', async () => {
    for (const authorization of [`Bearer ${KEY}`, 'Bearer ', 'Bearer undefined']) {
      const response = await callAuth(keyless, { uuid: randomUuid(), username: 'Keyless' }, authorization);
      expect(response.status, authorization).toBe(401);
    }
  });

  it('answers 422 with field errors for a bad uuid or username', async () => {
    const before = await userCount();
    const badUuid = await callAuth(suite.server, { uuid: 'not-a-uuid', username: 'Fine_Name' });
    expect(badUuid.status).toBe(422);
    const uuidErrors = ((await badUuid.json()) as { errors: Record<string, string[]> }).errors;
    expect(uuidErrors.uuid?.[0]).toMatch(/uuid/i);
    expect(uuidErrors.username).toBeUndefined();

    const badName = await callAuth(suite.server, { uuid: randomUuid(), username: 'has space' });
    expect(badName.status).toBe(422);
    expect(((await badName.json()) as { errors: Record<string, string[]> }).errors.username?.[0]).toMatch(/username/i);

    const tooLong = await callAuth(suite.server, { uuid: randomUuid(), username: 'A'.repeat(17) });
    expect(tooLong.status).toBe(422);

    const missing = await callAuth(suite.server, {});
    expect(missing.status).toBe(422);
    const missingErrors = ((await missing.json()) as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(missingErrors).sort()).toEqual(['username', 'uuid']);

    expect(await userCount()).toBe(before);
  });

  it('registers the player and returns a six-digit code that logs them in', async () => {
    const uuid = randomUuid();
    const before = await userCount();
    const response = await callAuth(suite.server, { uuid, username: 'JoinedPlayer' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; banned: boolean; code: string };
    expect(body).toEqual({ success: true, banned: false, code: expect.stringMatching(/^\d{6}$/) });
    expect(await userCount()).toBe(before + 1);

    const jar = await newBrowser(suite.server);
    const login = await jar.post('/api/account/checkauth', { code: body.code, ref: '/upload-cape' });
    expect(await login.json()).toMatchObject({
      success: true,
      ref: '/upload-cape',
      user: { uuid, username: 'JoinedPlayer' },
    });
    expect(await (await jar.get('/api/user')).json()).toMatchObject({ uuid, username: 'JoinedPlayer' });
  });

  it('normalises a dashed, upper-case uuid to 32 lower-case hex characters', async () => {
    const response = await callAuth(suite.server, { uuid: '069A79F4-44E9-4726-A5BE-FCA90E38AAF5', username: 'Dashed' });
    const { code } = (await response.json()) as { code: string };
    const jar = await newBrowser(suite.server);
    await jar.post('/api/account/checkauth', { code });
    expect(await (await jar.get('/api/user')).json()).toMatchObject({
      uuid: '069a79f444e94726a5befca90e38aaf5',
      username: 'Dashed',
    });

    const again = await callAuth(suite.server, { uuid: '069a79f444e94726a5befca90e38aaf5', username: 'Dashed' });
    expect(again.status).toBe(200);
    const rows = await suite.server.db.selectFrom('users').select('uuid').where('username', '=', 'Dashed').execute();
    expect(rows, 'the dashed and undashed forms are one account').toEqual([
      { uuid: '069a79f444e94726a5befca90e38aaf5' },
    ]);
  });

  it('updates the username when a known player joins under a new name', async () => {
    const uuid = randomUuid();
    await callAuth(suite.server, { uuid, username: 'OldName' });
    const before = await userCount();
    const { code } = (await (await callAuth(suite.server, { uuid, username: 'NewName' })).json()) as { code: string };
    expect(await userCount()).toBe(before);
    const jar = await newBrowser(suite.server);
    const login = await jar.post('/api/account/checkauth', { code });
    expect(await login.json()).toMatchObject({ success: true, user: { uuid, username: 'NewName' } });
  });

  it('gives a banned player no code, and a code from before the ban does not log them in', async () => {
    const uuid = randomUuid();
    const earlier = (await (await callAuth(suite.server, { uuid, username: 'Banned' })).json()) as { code: string };
    await suite.server.db.updateTable('users').set({ banned: 1 }).where('uuid', '=', uuid).execute();
    const response = await callAuth(suite.server, { uuid, username: 'Banned' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: false, banned: true, code: null });

    const jar = await newBrowser(suite.server);
    const login = await jar.post('/api/account/checkauth', { code: earlier.code });
    expect(login.status).toBe(403);
    expect(jar.cookie('session')).toBeUndefined();
  });
});
