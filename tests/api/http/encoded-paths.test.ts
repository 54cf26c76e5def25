// API tests for paths spelled with percent-escapes (`/%61pi/...` is routed as `/api/...`): the XSRF check and
// maintenance mode follow the route a request reaches, not the text of its path.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';
import { siteFixtureFrom } from '../../../support/site-fixture.ts';

// The fixture pages with the host rules the build writes beside them.
const FIXTURE_SITE = siteFixtureFrom(fileURLToPath(new URL('../../fixtures/site', import.meta.url)));

describe.each(backends)('XSRF check on encoded paths on $name', (backend) => {
  const suite = serverForSuite(backend);

  it('refuses state-changing calls without the header however the path is escaped, and changes nothing', async () => {
    const { jar, uuid } = await loginNewUser(suite.server);
    for (const path of ['/%61pi/account/logout', '/api/%61ccount/logout', '/%61%70%69/account/%6Cogout']) {
      const response = await jar.request('POST', path, {}, { 'x-xsrf-token': '' });
      expect(response.status, path).toBe(419);
      expect(await response.json()).toEqual({ error: 'CSRF token mismatch.' });
    }
    const deletion = await jar.request('POST', '/%61pi/account/delete', { confirm: true }, { 'x-xsrf-token': 'wrong' });
    expect(deletion.status).toBe(419);
    expect(
      await suite.server.db.selectFrom('users').select('uuid').where('uuid', '=', uuid).executeTakeFirst(),
    ).toBeDefined();
    expect((await jar.get('/api/user')).status, 'the session survives').toBe(200);

    // The same call with the header goes through: the escaped path reaches the route.
    expect((await jar.post('/%61pi/account/logout')).status).toBe(200);
    expect((await jar.get('/api/user')).status).toBe(401);
  });

  it('hands out the XSRF-TOKEN cookie on escaped API paths too', async () => {
    const response = await fetch(`${suite.server.url}/%61pi/home`);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('XSRF-TOKEN='))).toBe(true);
  });
});

describe.each(backends)('maintenance mode on encoded paths on $name', (backend) => {
  const suite = serverForSuite(backend, { MAINTENANCE: 'true', SITE_DIR: FIXTURE_SITE });

  it('answers 503 to API calls however the path is escaped', async () => {
    const calls: Array<[string, string]> = [
      ['GET', '/%61pi/home'],
      ['GET', '/api/%68ome'],
      ['GET', '/%61pi/no-such-call'],
      ['POST', '/%61pi/account/checkauth'],
      ['POST', '/%61pi/no-such-call'],
    ];
    for (const [method, path] of calls) {
      const response = await fetch(`${suite.server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(await response.json()).toEqual({ error: "We'll be back soon" });
    }
    expect((await fetch(`${suite.server.url}/help`)).status, 'pages are still served').toBe(200);
  });
});
