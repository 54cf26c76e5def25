// API tests for MAINTENANCE=true: every /api/ call answers 503 while the site's pages keep being served.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { serverForSuite } from '../../helpers/server.ts';
import { siteFixtureFrom } from '../../../support/site-fixture.ts';

// The fixture pages with the host rules the build writes beside them.
const FIXTURE_SITE = siteFixtureFrom(fileURLToPath(new URL('../../fixtures/site', import.meta.url)));

describe.each(backends)('maintenance mode on $name', (backend) => {
  const suite = serverForSuite(backend, {
    MAINTENANCE: 'true',
    SITE_DIR: FIXTURE_SITE,
    AUTH_API_KEY: 'maintenance-key',
  });

  it('answers 503 to API calls, reads and writes alike', async () => {
    const calls: Array<[string, string, Record<string, string>]> = [
      ['GET', '/api/home', {}],
      ['GET', '/api/user', {}],
      ['GET', '/api/contributors', {}],
      ['GET', '/api/no-such-call', {}],
      ['POST', '/api/account/checkauth', { 'content-type': 'application/json' }],
      ['POST', '/api/internal/auth', { 'content-type': 'application/json', authorization: 'Bearer maintenance-key' }],
    ];
    for (const [method, path, headers] of calls) {
      const response = await fetch(`${suite.server.url}${path}`, {
        method,
        headers,
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(await response.json(), `${method} ${path}`).toEqual({ error: "We'll be back soon" });
    }
  });

  it('keeps serving pages outside /api/', async () => {
    const help = await fetch(`${suite.server.url}/help`);
    expect(help.status).toBe(200);
    expect(help.headers.get('content-type')).toMatch(/text\/html/);
    expect(await help.text()).toContain('Fixture help page');

    const unknown = await fetch(`${suite.server.url}/no-such-page`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Oops, looks like that page wasn't found!");

    const download = await fetch(`${suite.server.url}/download`, { redirect: 'manual' });
    expect(download.status).toBeGreaterThanOrEqual(300);
    expect(download.status).toBeLessThan(400);
  });
});
