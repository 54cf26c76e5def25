// API tests for MAINTENANCE=true: every /api/ call answers 503 while the site's pages keep being served.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase } from '../helpers/backends.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const FIXTURE_SITE = fileURLToPath(new URL('../fixtures/site', import.meta.url));

describe.each(backends)('maintenance mode on $name', (backend) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await backend.createDatabase();
    server = await startServer(database.url, { MAINTENANCE: 'true', SITE_DIR: FIXTURE_SITE, AUTH_API_KEY: 'maintenance-key' });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
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
      const response = await fetch(`${server.url}${path}`, { method, headers, body: method === 'POST' ? '{}' : undefined });
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(await response.json(), `${method} ${path}`).toEqual({ error: "We'll be back soon" });
    }
  });

  it('keeps serving pages outside /api/', async () => {
    const help = await fetch(`${server.url}/help`);
    expect(help.status).toBe(200);
    expect(help.headers.get('content-type')).toMatch(/text\/html/);
    expect(await help.text()).toContain('Fixture help page');

    const unknown = await fetch(`${server.url}/no-such-page`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Oops, looks like that page wasn't found!");

    const download = await fetch(`${server.url}/download`, { redirect: 'manual' });
    expect(download.status).toBeGreaterThanOrEqual(300);
    expect(download.status).toBeLessThan(400);
  });
});
