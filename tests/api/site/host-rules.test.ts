// The host rules the build writes from the route table (`_redirects`, `_headers`, the nginx include), held against the
// route table: every page and every dynamic route's paths give the route's page with the page headers, and /download
// its redirect, both from the site as the app serves it (the rule files applied by server/site/static-site.ts) and from
// nginx running the shipped configuration with the generated include, with no app process behind it.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoute, routes } from '../../../src/lib/routes.ts';
import { PAGE_CACHE_CONTROL, pageFileName, siteHostRules } from '../../../server/site/host-rules.ts';
import { openStaticSite } from '../../../server/site/static-site.ts';
import { freePort } from '../../../support/app-process.ts';
import { startNginx, type RunningNginx } from '../../../support/nginx.ts';
import { FIXTURE_DOWNLOAD_URL, writeSiteFixture } from '../../../support/site-fixture.ts';

const HASH = '0123456789abcdef'.repeat(4);
const UUID = '069a79f444e94726a5befca90e38aaf5';
const DASHED_UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

/** Paths of each dynamic route that the route table accepts, beside its own path. */
const DYNAMIC_SAMPLES: Record<string, string[]> = {
  premium: ['/premium/success'],
  'user-report': ['/user/Notch/report', `/user/${UUID}/report`],
  user: ['/user/Notch', `/user/${DASHED_UUID}`],
  'gallery-item': [`/gallery/${HASH}`],
  'gallery-user': [`/gallery/${UUID}`],
  'admin-edit-user': ['/admin/edit-user/Notch'],
  download: ['/download/fabric', '/download/fabric/1.21.4'],
};

/** Every path to try: each route's own path (a static one) and its samples, with the route that must answer it. */
const SAMPLES: Array<[url: string, name: string]> = routes.flatMap((route) => [
  ...(route.dynamic ? [] : [[route.path, route.name] as [string, string]]),
  ...(DYNAMIC_SAMPLES[route.name] ?? []).map((url): [string, string] => [url, route.name]),
]);

/** The page file of every built page, holding its own name, and the 404 page. */
function siteFiles(): Record<string, string> {
  const rules = siteHostRules({ downloadUrl: FIXTURE_DOWNLOAD_URL, publicEntries: [] });
  const files: Record<string, string> = { '404.html': 'not found' };
  for (const page of rules.pages) files[pageFileName(page).slice(1)] = `page ${page}`;
  return files;
}

/** What a sample must answer: its route's page, or the download page's address. */
function expected(url: string, name: string): { status: number; body?: string; location?: string } {
  const route = routes.find((candidate) => candidate.name === name)!;
  if (name !== 'download') return { status: 200, body: `page ${route.page}` };
  const [, , platform, version] = url.split('/');
  const query = [platform && `platform=${platform}`, version && `version=${version}`].filter(Boolean).join('&');
  return { status: 302, location: query ? `${FIXTURE_DOWNLOAD_URL}?${query}` : FIXTURE_DOWNLOAD_URL };
}

describe('the host rules, against the route table', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-host-rules-'));
  const siteDir = path.join(dir, 'site');
  let nginx: RunningNginx;
  let app: http.Server;
  let appUrl: string;

  beforeAll(async () => {
    writeSiteFixture(siteDir, siteFiles(), []);
    fs.mkdirSync(path.join(dir, 'answers'));
    const site = openStaticSite(siteDir);
    app = http.createServer((request, response) => {
      if (site.answer(request, response) === null) site.notFound(request, response);
    });
    const appPort = await freePort();
    await new Promise<void>((resolve) => app.listen(appPort, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${appPort}`;
    // No app process behind nginx: its upstream is a port nothing listens on.
    nginx = await startNginx({
      dir: path.join(dir, 'nginx'),
      port: await freePort(),
      upstreamPorts: [await freePort()],
      siteDir,
      answersDir: path.join(dir, 'answers'),
    });
  });

  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => app?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names samples the route table gives to the routes they are for', () => {
    for (const [url, name] of SAMPLES) expect(findRoute(url)?.name, url).toBe(name);
    for (const route of routes.filter((candidate) => candidate.dynamic))
      expect(DYNAMIC_SAMPLES[route.name], `${route.name} has samples`).toBeDefined();
  });

  it.each(SAMPLES)(
    '%s gives the page of %s, with the page headers, from the app and from nginx alone; with a slash after it, a redirect to it',
    async (url, name) => {
      const want = expected(url, name);
      for (const [server, origin] of [
        ['the app', appUrl],
        ['nginx', nginx.url],
      ] as const) {
        const response = await fetch(`${origin}${url}`, { redirect: 'manual' });
        const what = `${server}: ${url}`;
        expect(response.status, what).toBe(want.status);
        expect(response.headers.get('content-security-policy'), what).toBe("frame-ancestors 'none'");
        expect(response.headers.get('x-frame-options'), what).toBe('DENY');
        if (want.location) expect(response.headers.get('location'), what).toBe(want.location);
        else {
          expect(await response.text(), what).toBe(want.body);
          expect(response.headers.get('cache-control'), `${what}: one page caching, never joined`).toBe(
            PAGE_CACHE_CONTROL,
          );
          expect(response.headers.get('content-type'), what).toBe('text/html; charset=utf-8');
        }
        const slash = await fetch(`${origin}${url === '/' ? '' : url}/?from=menu`, { redirect: 'manual' });
        if (url !== '/') {
          expect(slash.status, `${what}/`).toBe(301);
          expect(new URL(slash.headers.get('location')!, origin).href, `${what}/`).toBe(`${origin}${url}?from=menu`);
        }
      }
    },
  );

  it('with no process behind nginx, an API call answers 502 (the pages show the API-offline dialog on it) and the mod API still answers', async () => {
    const api = await fetch(`${nginx.url}/api/home`);
    expect(api.status).toBe(502);
    const profile = await fetch(`${nginx.url}/profile/${UUID}`);
    expect(profile.status).toBe(404);
    expect(await profile.json()).toEqual({ error: 'Not found' });
  });

  it('answers the 404 page, not a shell, for a path a level deeper than a route and for the rule files', async () => {
    for (const url of [
      `/gallery/${HASH}/x`,
      '/user/Notch/report/x',
      '/admin/edit-user/Notch/x',
      '/download/fabric/1.21.4/x',
      '/nope',
      '/_redirects',
      '/_headers',
      '/404',
    ]) {
      for (const origin of [appUrl, nginx.url]) {
        const response = await fetch(`${origin}${url}`, { redirect: 'manual' });
        expect(response.status, `${origin}${url}`).toBe(404);
        expect(await response.text(), `${origin}${url}`).toBe('not found');
      }
    }
  });
});
