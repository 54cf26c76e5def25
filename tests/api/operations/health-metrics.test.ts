// API tests for /healthz and /readyz and the Prometheus metrics: on their own port, past the upload limit, behind
// METRICS_KEY and off by default.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { createUserWithCode, loginNewUser, newBrowser, serverForSuite, unusedCode } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { getJson, metricsUrl, parseMetrics, scrape, valueOf } from '../../helpers/operations.ts';
import { siteFixtureFrom } from '../../../support/site-fixture.ts';

/** The fixture pages with their host rules. */
const SITE_DIR = siteFixtureFrom(fileURLToPath(new URL('../../fixtures/site', import.meta.url)));

describe.each(backends)('health checks and metrics on $name', (backend) => {
  const suite = serverForSuite(backend, { METRICS_PORT: '0', LOGIN_ATTEMPTS_PER_MINUTE: '1000', SITE_DIR });

  it('answers /healthz with 200 {status: ok}, uncached and without cookies', async () => {
    const { status, body, response } = await getJson(suite.server, '/healthz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('answers /readyz with 200 and every check ok (Redis not configured), without cookies', async () => {
    const { status, body, response } = await getJson(suite.server, '/readyz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', checks: { database: 'ok', blobStore: 'ok', redis: 'not_configured' } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('serves Prometheus text on the metrics port, with process metrics and the image job gauges', async () => {
    const response = await fetch(metricsUrl(suite.server));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE cloakroom_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE cloakroom_image_jobs_waiting gauge');
    const samples = parseMetrics(text);
    expect(samples.find((sample) => sample.name === 'cloakroom_image_jobs_waiting')?.value).toBe(0);
    expect(samples.find((sample) => sample.name === 'cloakroom_image_jobs_running')?.value).toBe(0);
    expect(samples.some((sample) => sample.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect((await fetch(metricsUrl(suite.server).replace('/metrics', '/other'))).status).toBe(404);
    // Without METRICS_KEY the main port has no /metrics.
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(404);
  });

  it('counts mod API profile answers (fast path included) by route pattern, and the profile cache hits and misses', async () => {
    const { uuid, jar } = await loginNewUser(suite.server);
    // Only a player who has something to show has a profile.
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(7)))).status).toBe(200);
    const before = await scrape(suite.server);
    const profileOk = { method: 'GET', route: '/profile/:id', status: '200' };
    expect((await fetch(`${suite.server.url}/profile/${uuid}`)).status).toBe(200); // a miss: the route loads it
    const fastPathBefore = suite.server.app.modFastPath.answered;
    expect((await fetch(`${suite.server.url}/profile/${uuid}`)).status).toBe(200); // a hit: the fast path answers
    expect(suite.server.app.modFastPath.answered).toBe(fastPathBefore + 1);
    expect((await fetch(`${suite.server.url}/profile/NoSuchPlayer_1`)).status).toBe(404);
    const after = await scrape(suite.server);

    const count = 'cloakroom_http_request_duration_seconds_count';
    expect(valueOf(after, count, profileOk) - valueOf(before, count, profileOk)).toBe(2);
    expect(
      valueOf(after, count, { route: '/profile/:id', status: '404' }) -
        valueOf(before, count, { route: '/profile/:id', status: '404' }),
    ).toBe(1);
    const fastBucket = { ...profileOk, le: '+Inf' };
    expect(valueOf(after, 'cloakroom_http_request_duration_seconds_bucket', fastBucket)).toBe(
      valueOf(after, count, profileOk),
    );
    const lookups = 'cloakroom_profile_cache_lookups_total';
    expect(valueOf(after, lookups, { result: 'hit' }) - valueOf(before, lookups, { result: 'hit' })).toBe(1);
    // The unknown player is answered from memory (no one by that name has anything to show): no database lookup.
    expect(valueOf(after, lookups, { result: 'miss' }) - valueOf(before, lookups, { result: 'miss' })).toBe(1);
    expect(valueOf(after, 'cloakroom_profile_cache_entries')).toBeGreaterThanOrEqual(1);
    // Labels carry route patterns, never the URL asked for.
    const text = await (await fetch(metricsUrl(suite.server))).text();
    expect(text).not.toContain(uuid);
    expect(text).not.toContain('NoSuchPlayer_1');
  });

  it('labels a route with a parameter pattern by its name only, and a request no route matched as unmatched', async () => {
    const { jar } = await loginNewUser(suite.server);
    expect((await jar.get(`/api/gallery/${'a'.repeat(64)}`)).status).toBe(404);
    const samples = await scrape(suite.server);
    expect(
      valueOf(samples, 'cloakroom_http_request_duration_seconds_count', { route: '/api/gallery/:hash', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(samples.some((sample) => sample.labels.route?.includes('aaaa'))).toBe(false);
  });

  it('labels a page of the site by its path, a host rule by its source, and the 404 page as unmatched', async () => {
    const status = async (path: string) => (await fetch(`${suite.server.url}${path}`, { redirect: 'manual' })).status;
    expect(await status('/help')).toBe(200);
    expect(await status('/download/fabric')).toBe(302);
    expect(await status('/no-such-page')).toBe(404);
    const samples = await scrape(suite.server);
    const count = (route: string, code: string) =>
      valueOf(samples, 'cloakroom_http_request_duration_seconds_count', { method: 'GET', route, status: code });
    expect(count('/help', '200')).toBeGreaterThanOrEqual(1);
    expect(count('/download/:platform', '302')).toBeGreaterThanOrEqual(1);
    expect(count('unmatched', '404')).toBeGreaterThanOrEqual(1);
    expect(samples.some((sample) => sample.labels.route === '/*')).toBe(false);
  });

  it('counts logins by method and result', async () => {
    const logins = 'cloakroom_logins_total';
    const before = await scrape(suite.server);
    await loginNewUser(suite.server);
    const jar = await newBrowser(suite.server);
    const wrong = await jar.post('/api/account/checkauth', { code: await unusedCode(suite.server.db), ref: '/' });
    expect(((await wrong.json()) as { success: boolean }).success).toBe(false);
    const banned = await createUserWithCode(suite.server.db, 'BannedMetrics');
    await suite.server.db.updateTable('users').set({ banned: 1 }).where('uuid', '=', banned.uuid).execute();
    expect((await jar.post('/api/account/checkauth', { code: banned.code, ref: '/' })).status).toBe(403);
    const after = await scrape(suite.server);
    for (const result of ['ok', 'wrong_code', 'banned']) {
      const labels = { method: 'code', result };
      expect(valueOf(after, logins, labels) - valueOf(before, logins, labels), result).toBe(1);
    }
  });

  it('counts uploads by kind and result: ok, or the reason they were refused', async () => {
    const uploads = 'cloakroom_uploads_total';
    const { jar } = await loginNewUser(suite.server);
    const before = await scrape(suite.server);
    expect((await jar.upload('/api/upload-cape', Buffer.from('not a picture at all'.repeat(10)))).status).toBe(422);
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 10))).status).toBe(422);
    expect((await jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(901)))).status).toBe(200);
    const form = new FormData();
    form.append('title', 'Metrics');
    form.append('tags', JSON.stringify(['food']));
    form.append('file', new Blob([new Uint8Array(await solidPng(64, 33))], { type: 'image/png' }), 'texture.png');
    expect((await jar.sendForm('POST', '/api/gallery/new', form)).status).toBe(422);
    const after = await scrape(suite.server);
    const moved = (labels: Record<string, string>) =>
      valueOf(after, uploads, labels) - valueOf(before, uploads, labels);
    expect(moved({ kind: 'cape', result: 'wrong_type' })).toBe(1);
    expect(moved({ kind: 'ears', result: 'dimensions' })).toBe(1);
    expect(moved({ kind: 'cape', result: 'ok' })).toBe(1);
    expect(moved({ kind: 'gallery', result: 'dimensions' })).toBe(1);
  });
});

describe.each(backends)('upload metrics past the upload limit on $name', (backend) => {
  const suite = serverForSuite(backend, { METRICS_PORT: '0', TEXTURE_UPLOADS_PER_10_MINUTES: '1' });

  it('counts an upload refused by the per-player limit as rate_limited', async () => {
    const { jar } = await loginNewUser(suite.server);
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(960)))).status).toBe(200);
    expect((await jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(961)))).status).toBe(429);
    const samples = await scrape(suite.server);
    expect(valueOf(samples, 'cloakroom_uploads_total', { kind: 'ears', result: 'ok' })).toBe(1);
    expect(valueOf(samples, 'cloakroom_uploads_total', { kind: 'ears', result: 'rate_limited' })).toBe(1);
  });
});

describe.each(backends)('metrics behind METRICS_KEY on the main port on $name', (backend) => {
  const suite = serverForSuite(backend, { METRICS_KEY: 'scrape-key' });

  it('serves /metrics to the bearer key only, keeps the metrics port off, and leaves /metrics out of the API description', async () => {
    expect(suite.server.app.metrics.address()).toBeNull();
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${suite.server.url}/metrics`, { headers: { authorization: 'Bearer wrong-key' } })).status,
    ).toBe(401);
    const response = await fetch(`${suite.server.url}/metrics`, { headers: { authorization: 'Bearer scrape-key' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await response.text()).toContain('cloakroom_http_request_duration_seconds_bucket');
    const spec = (await (await fetch(`${suite.server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(spec.paths['/metrics']).toBeUndefined();
  });
});

describe.each(backends)('metrics by default on $name', (backend) => {
  const suite = serverForSuite(backend);

  it('serves no metrics: no port, no /metrics route', async () => {
    expect(suite.server.config.metrics).toEqual({ port: undefined, host: '127.0.0.1', key: undefined });
    expect(suite.server.app.metrics.address()).toBeNull();
    expect((await fetch(`${suite.server.url}/metrics`)).status).toBe(404);
  });
});
