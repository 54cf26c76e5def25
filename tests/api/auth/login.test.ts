// API tests for the game-code login (POST /api/account/checkauth), logout, the XSRF check and the login rate limit.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { issueLoginCode } from '../../../server/auth/login-codes.ts';
import { createSession } from '../../../server/auth/sessions.ts';
import { backends, oneBackend } from '../../../support/backends.ts';
import { CookieJar, findSetCookie } from '../../helpers/cookie-jar.ts';
import {
  createUserWithCode,
  loginNewUser,
  newBrowser,
  randomUsername,
  serverForSuite,
  startServer,
  unusedCode,
} from '../../helpers/server.ts';

const WRONG_CODE = 'That code is incorrect. Please try again.';

describe.each(backends)('login on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });

  describe('checkauth', () => {
    it('logs in with the right code: success, the user, the ref echoed and an HttpOnly session cookie', async () => {
      const { uuid, code } = await createUserWithCode(suite.server.db, 'RightCode');
      const jar = await newBrowser(suite.server);
      const response = await jar.post('/api/account/checkauth', { code, ref: '/gallery/new' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        success: true,
        user: { uuid, username: 'RightCode', group: { name: 'Player', emoji: '', admin: false }, premium: null },
        ref: '/gallery/new',
        firstLogin: true,
      });
      const session = findSetCookie(response, 'session');
      expect(session).toBeDefined();
      expect(session!.value.length).toBeGreaterThanOrEqual(20);
      expect(session!.attributes.has('httponly')).toBe(true);
      expect(session!.attributes.get('samesite')?.toLowerCase()).toBe('lax');
      expect(session!.attributes.get('path')).toBe('/');
      expect(session!.attributes.has('secure'), 'plain HTTP must not get a Secure cookie').toBe(false);
      expect(session!.attributes.get('max-age'), 'the session lasts SESSION_DAYS (30 by default)').toBe(
        String(30 * 86400),
      );

      const me = await jar.get('/api/user');
      expect(me.status).toBe(200);
      expect(((await me.json()) as { uuid: string }).uuid).toBe(uuid);
    });

    it("tells the account's first login from a return, whatever the code", async () => {
      const { uuid, code } = await createUserWithCode(suite.server.db, 'Returning');
      const first = await (await newBrowser(suite.server)).post('/api/account/checkauth', { code });
      expect(await first.json()).toMatchObject({ success: true, firstLogin: true });
      const again = await (
        await newBrowser(suite.server)
      ).post('/api/account/checkauth', { code: await issueLoginCode(suite.server.db, uuid) });
      expect(await again.json()).toMatchObject({ success: true, firstLogin: false });
    });

    it('sends the user home when the ref is missing or unsafe', async () => {
      for (const ref of [undefined, '//evil.com', 'https://evil.com/x', '/\\evil.com', '/\t/evil.com', 42]) {
        const { code } = await createUserWithCode(suite.server.db, randomUsername());
        const jar = await newBrowser(suite.server);
        const response = await jar.post('/api/account/checkauth', ref === undefined ? { code } : { code, ref });
        const body = (await response.json()) as { success: boolean; ref: string };
        expect(body.success, String(ref)).toBe(true);
        expect(body.ref, String(ref)).toBe('/');
      }
    });

    it('refuses a wrong code with the incorrect-code message and no session', async () => {
      const { code } = await createUserWithCode(suite.server.db, 'WrongCode');
      const jar = await newBrowser(suite.server);
      const response = await jar.post('/api/account/checkauth', { code: await unusedCode(suite.server.db), ref: '/' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: false, msg: WRONG_CODE });
      expect(findSetCookie(response, 'session')).toBeUndefined();
      expect((await jar.get('/api/user')).status).toBe(401);

      const stillValid = await jar.post('/api/account/checkauth', { code });
      expect(
        ((await stillValid.json()) as { success: boolean }).success,
        'a wrong guess does not burn the real code',
      ).toBe(true);
    });

    it('accepts a code only once', async () => {
      const { code } = await createUserWithCode(suite.server.db, 'OnceOnly');
      const first = await (await newBrowser(suite.server)).post('/api/account/checkauth', { code });
      expect(((await first.json()) as { success: boolean }).success).toBe(true);

      const jar = await newBrowser(suite.server);
      const second = await jar.post('/api/account/checkauth', { code });
      expect(await second.json()).toEqual({ success: false, msg: WRONG_CODE });
      expect(jar.cookie('session')).toBeUndefined();
    });

    it('refuses an expired code', async () => {
      const { uuid } = await createUserWithCode(suite.server.db, 'Expired');
      const code = await issueLoginCode(suite.server.db, uuid, Date.now() - 11 * 60 * 1000);
      const jar = await newBrowser(suite.server);
      const response = await jar.post('/api/account/checkauth', { code });
      expect(await response.json()).toEqual({ success: false, msg: WRONG_CODE });
      expect(jar.cookie('session')).toBeUndefined();
    });

    it('only the newest code of a player works', async () => {
      const { uuid, code: old } = await createUserWithCode(suite.server.db, 'TwoCodes');
      const fresh = await issueLoginCode(suite.server.db, uuid);
      const jar = await newBrowser(suite.server);
      expect(await (await jar.post('/api/account/checkauth', { code: old })).json()).toMatchObject({ success: false });
      expect(await (await jar.post('/api/account/checkauth', { code: fresh })).json()).toMatchObject({ success: true });
    });

    it('refuses codes that are not six digits', async () => {
      const jar = await newBrowser(suite.server);
      for (const code of ['abcdef', '12345', '1234567', ' 12345', '12 345', 123456, null, '']) {
        const response = await jar.post('/api/account/checkauth', { code });
        expect(response.status, JSON.stringify(code)).toBe(200);
        expect(await response.json(), JSON.stringify(code)).toEqual({ success: false, msg: WRONG_CODE });
      }
      expect(jar.cookie('session')).toBeUndefined();
    });

    it('refuses a banned player with the ban message, and a banned player loses their session', async () => {
      const { jar, uuid } = await loginNewUser(suite.server, 'BannedLater');
      const { code } = await createUserWithCode(suite.server.db, 'BannedLater', { uuid });
      await suite.server.db.updateTable('users').set({ banned: 1 }).where('uuid', '=', uuid).execute();

      expect((await jar.get('/api/user')).status).toBe(401);
      const browser = await newBrowser(suite.server);
      const response = await browser.post('/api/account/checkauth', { code });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: 'The specified account has been banned for violating our terms of service.',
      });
      expect(browser.cookie('session')).toBeUndefined();
    });
  });

  it('an expired server session no longer counts as logged in', async () => {
    const { uuid } = await createUserWithCode(suite.server.db, 'StaleSession');
    const token = await createSession(suite.server.db, uuid, 60_000, Date.now() - 120_000);
    const jar = new CookieJar(suite.server.url);
    jar.setCookie('session', token);
    expect((await jar.get('/api/user')).status).toBe(401);
    const fresh = await createSession(suite.server.db, uuid, 60_000);
    jar.setCookie('session', fresh);
    expect((await jar.get('/api/user')).status, 'a live session for the same user still works').toBe(200);
  });

  describe('XSRF check', () => {
    it('answers 419 to checkauth without x-xsrf-token or with a wrong one, and does not use up the code', async () => {
      const { code } = await createUserWithCode(suite.server.db, 'XsrfLogin');
      const jar = await newBrowser(suite.server);
      const missing = await fetch(`${suite.server.url}/api/account/checkauth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}` },
        body: JSON.stringify({ code }),
      });
      expect(missing.status).toBe(419);
      expect(findSetCookie(missing, 'session')).toBeUndefined();

      const wrong = await jar.post('/api/account/checkauth', { code }, { 'x-xsrf-token': 'not-the-token' });
      expect(wrong.status).toBe(419);
      expect(findSetCookie(wrong, 'session')).toBeUndefined();

      const noCookie = await fetch(`${suite.server.url}/api/account/checkauth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-xsrf-token': jar.cookie('XSRF-TOKEN')! },
        body: JSON.stringify({ code }),
      });
      expect(noCookie.status, 'a header without the matching cookie is refused').toBe(419);

      const right = await jar.post('/api/account/checkauth', { code });
      expect(((await right.json()) as { success: boolean }).success).toBe(true);
    });

    it('answers 419 to logout without the header or with a wrong one, and the session survives', async () => {
      const { jar } = await loginNewUser(suite.server);
      const missing = await fetch(`${suite.server.url}/api/account/logout`, {
        method: 'POST',
        headers: { cookie: `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}; session=${jar.cookie('session')}` },
      });
      expect(missing.status).toBe(419);
      expect((await jar.post('/api/account/logout', {}, { 'x-xsrf-token': 'wrong' })).status).toBe(419);
      expect((await jar.get('/api/user')).status).toBe(200);
    });

    it('answers 419 to delete without the header or with a wrong one, and the account survives', async () => {
      const { jar } = await loginNewUser(suite.server);
      const missing = await fetch(`${suite.server.url}/api/account/delete`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}; session=${jar.cookie('session')}`,
        },
        body: JSON.stringify({ confirm: true }),
      });
      expect(missing.status).toBe(419);
      expect((await jar.post('/api/account/delete', { confirm: true }, { 'x-xsrf-token': 'wrong' })).status).toBe(419);
      expect((await jar.get('/api/user')).status).toBe(200);
    });
  });

  describe('logout', () => {
    it('ends the session on the server, so the old cookie no longer works', async () => {
      const { jar } = await loginNewUser(suite.server);
      const oldSession = jar.cookie('session')!;
      const response = await jar.post('/api/account/logout');
      expect(response.status).toBe(200);
      expect(jar.cookie('session'), 'the session cookie is cleared').toBeUndefined();
      expect((await jar.get('/api/user')).status).toBe(401);

      const replay = new CookieJar(suite.server.url);
      replay.setCookie('session', oldSession);
      expect((await replay.get('/api/user')).status).toBe(401);
    });

    it('ends only that browser session', async () => {
      const { jar, uuid, username } = await loginNewUser(suite.server);
      const { code } = await createUserWithCode(suite.server.db, username, { uuid });
      const other = await newBrowser(suite.server);
      await other.post('/api/account/checkauth', { code });
      await jar.post('/api/account/logout');
      expect((await other.get('/api/user')).status).toBe(200);
    });

    it('answers 401 without a session', async () => {
      const jar = await newBrowser(suite.server);
      expect((await jar.post('/api/account/logout')).status).toBe(401);
    });
  });
});

describe.each(backends)('login rate limit on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '3' });

  it('answers 429 after LOGIN_ATTEMPTS_PER_MINUTE attempts, even for the right code', async () => {
    const { code } = await createUserWithCode(suite.server.db, 'Guesser');
    const jar = await newBrowser(suite.server);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await jar.post('/api/account/checkauth', { code: await unusedCode(suite.server.db) });
      expect(response.status, `attempt ${attempt}`).toBe(200);
    }
    const blocked = await jar.post('/api/account/checkauth', { code });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ error: 'Too many attempts. Wait a minute and try again.' });
    expect(jar.cookie('session')).toBeUndefined();
  });
});

describe.each(backends)('Microsoft login callback on $name', (backend) => {
  const suite = serverForSuite(backend);

  it('answers 501 with a message the login page can show, whatever the code', async () => {
    const jar = await newBrowser(suite.server);
    for (const code of ['M.C507_BAY.2.U.abc', '', '\u0000']) {
      const response = await jar.post('/api/account/oauth/callback', { code });
      expect(response.status, JSON.stringify(code)).toBe(501);
      expect(await response.json()).toEqual({ error: 'Microsoft login is not configured on this server.' });
    }
  });
});

describe('XSRF check on an absolute-form request line', () => {
  it('still refuses a state-changing call without the header (419) and keeps the session', async () => {
    const database = await oneBackend.createDatabase();
    const server = await startServer(database.url);
    try {
      const { jar } = await loginNewUser(server);
      const { hostname: host, port } = new URL(server.url);
      const cookies = ['session', 'XSRF-TOKEN'].map((name) => `${name}=${jar.cookie(name)}`).join('; ');
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), host, () => {
          socket.write(
            `POST ${server.url}/api/account/logout HTTP/1.1\r\nHost: ${host}:${port}\r\nCookie: ${cookies}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
          );
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      expect(reply.split('\r\n', 1)[0]).toContain(' 419 ');
      expect((await jar.get('/api/user')).status).toBe(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
