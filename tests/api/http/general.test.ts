// API tests for the general calls: current user, home count, contributors, XSRF cookie, 404s, CORS and the Microsoft
// login stub.
import { describe, expect, it } from 'vitest';
import { upsertUser } from '../../../server/db/users.ts';
import { XSRF_COOKIE_PATH } from '../../../src/lib/client/api.ts';
import { backends } from '../../../support/backends.ts';
import { CookieJar, findSetCookie } from '../../helpers/cookie-jar.ts';
import { loginNewUser, randomUuid, serverForSuite } from '../../helpers/server.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';

const ALLOWED_ORIGIN = 'https://site.example';
/**
 * The footer's contributors the suite's server lists: one registered first, one written with dashes, one who never
 * registers.
 */
const HELPER = randomUuid();
const DASHED_HELPER = randomUuid();
const NEVER_REGISTERED = randomUuid();

describe.each(backends)('general API on $name', (backend) => {
  const suite = serverForSuite(backend, {
    PUBLIC_SITE_ORIGINS: `${ALLOWED_ORIGIN}, https://other.example`,
    CONTRIBUTORS: `${dashedUuid(DASHED_HELPER)}, ${NEVER_REGISTERED},${HELPER}`,
  });

  it('GET /api/home counts the registered users', async () => {
    const before = await fetch(`${suite.server.url}/api/home`);
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ users: 0 });

    await upsertUser(suite.server.db, randomUuid(), 'CountedOne');
    await upsertUser(suite.server.db, randomUuid(), 'CountedTwo');
    const after = await fetch(`${suite.server.url}/api/home`);
    expect(await after.json()).toEqual({ users: 2 });
  });

  it('GET /api/user answers 401 without a session', async () => {
    const response = await fetch(`${suite.server.url}/api/user`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toHaveProperty('error');
  });

  it('GET /api/user answers 401 with a session cookie the server never issued', async () => {
    const response = await fetch(`${suite.server.url}/api/user`, { headers: { cookie: 'session=made-up-token' } });
    expect(response.status).toBe(401);
  });

  it('GET /api/user returns the logged-in user as uuid, username, group and premium', async () => {
    const { jar, uuid } = await loginNewUser(suite.server, 'ShapeCheck');
    const response = await jar.get('/api/user');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      uuid,
      username: 'ShapeCheck',
      group: { name: 'Player', emoji: '', admin: false },
      premium: null,
    });
  });

  it('GET /api/contributors lists the registered players of CONTRIBUTORS in its order, by their current names', async () => {
    const contributors = async () => {
      const response = await fetch(`${suite.server.url}/api/contributors`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control'), 'browsers keep it between pages').toBe('private, max-age=300');
      return (await response.json()) as Array<{ uuid: string; username: string }>;
    };
    // Nobody listed is registered yet: no link would lead anywhere.
    expect(await contributors()).toEqual([]);
    await upsertUser(suite.server.db, HELPER, 'FirstHelper');
    await upsertUser(suite.server.db, DASHED_HELPER, 'DashedHelper');
    await upsertUser(suite.server.db, HELPER, 'RenamedHelper');
    const body = await contributors();
    expect(body).toEqual([
      { uuid: DASHED_HELPER, username: 'DashedHelper' },
      { uuid: HELPER, username: 'RenamedHelper' },
    ]);
    for (const contributor of body) expect(contributor.uuid).toMatch(/^[0-9a-f]{32}$/);
  });

  it('every API response sets a page-readable XSRF-TOKEN cookie when the browser has none', async () => {
    const calls: Array<[string, string, number]> = [
      ['GET', '/api/home', 200],
      ['GET', '/api/user', 401],
      ['GET', '/api/contributors', 200],
      ['GET', '/api/no-such-call', 404],
      ['POST', '/api/account/logout', 419],
    ];
    const tokens = new Set<string>();
    for (const [method, path, status] of calls) {
      const response = await fetch(`${suite.server.url}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(status);
      const cookie = findSetCookie(response, 'XSRF-TOKEN');
      expect(cookie, `${method} ${path} sets XSRF-TOKEN`).toBeDefined();
      expect(cookie!.value.length).toBeGreaterThanOrEqual(20);
      expect(cookie!.attributes.has('httponly'), 'the page must be able to read XSRF-TOKEN').toBe(false);
      expect(cookie!.attributes.get('path')).toBe('/');
      tokens.add(cookie!.value);
    }
    expect(tokens.size, 'each new browser gets its own token').toBe(calls.length);
  });

  it('the call the site client uses to fetch the XSRF cookie answers with one', async () => {
    const response = await fetch(`${suite.server.url}${XSRF_COOKIE_PATH}`);
    expect(response.ok).toBe(true);
    expect(findSetCookie(response, 'XSRF-TOKEN')?.value.length).toBeGreaterThanOrEqual(20);
  });

  it('does not replace an XSRF-TOKEN cookie the browser already has', async () => {
    const jar = new CookieJar(suite.server.url);
    await jar.get('/api/home');
    const first = jar.cookie('XSRF-TOKEN');
    const again = await jar.get('/api/home');
    expect(findSetCookie(again, 'XSRF-TOKEN')).toBeUndefined();
    expect(jar.cookie('XSRF-TOKEN')).toBe(first);
  });

  it('an unknown /api/ path answers 404 JSON', async () => {
    for (const method of ['GET', 'POST']) {
      const jar = new CookieJar(suite.server.url);
      await jar.get('/api/home');
      const response = await jar.request(method, '/api/does-not-exist', method === 'POST' ? {} : undefined);
      expect(response.status, method).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(await response.json()).toEqual({ error: 'Not found' });
    }
  });

  it('GET /api/account/oauth/redirect without MICROSOFT_CLIENT_ID goes back to the login page, which says why, keeping a safe ref', async () => {
    const response = await fetch(`${suite.server.url}/api/account/oauth/redirect?ref=/premium`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/account/login?error=microsoft_unavailable&ref=%2Fpremium');
    const unsafe = await fetch(`${suite.server.url}/api/account/oauth/redirect?ref=//evil.example`, {
      redirect: 'manual',
    });
    expect(unsafe.status).toBe(302);
    expect(unsafe.headers.get('location')).toBe('/account/login?error=microsoft_unavailable');
  });

  it('CORS: a listed origin gets access-control-allow-origin with credentials', async () => {
    const response = await fetch(`${suite.server.url}/api/home`, { headers: { origin: ALLOWED_ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')?.toLowerCase(), 'caches must keep answers per origin').toContain('origin');

    const preflight = await fetch(`${suite.server.url}/api/account/checkauth`, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-xsrf-token',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-xsrf-token');
  });

  it('CORS: an unlisted origin gets no access-control-allow-origin', async () => {
    const response = await fetch(`${suite.server.url}/api/home`, { headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-credentials')).not.toBe('true');

    const preflight = await fetch(`${suite.server.url}/api/account/checkauth`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
