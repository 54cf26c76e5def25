// Several processes behind nginx, as served: nginx running the deploy configuration (deploy/nginx/cloakroom.conf) in
// front of two real server processes on one PostgreSQL database, one Redis and one S3 bucket serves the build files,
// every mod API layout, texture and unknown player from the answer files both processes write into one directory, and
// refuses what the app refuses with the app's own answer (the cluster: tests/helpers/scale-out.ts).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { textureMessages } from '../../../src/lib/texture-rules.ts';
import { waitFor } from '../../../support/wait.ts';
import { describe, expect, it } from 'vitest';
import type { AppProcess } from '../../../support/app-process.ts';
import { runsOnPostgres } from '../../../support/backends.ts';
import type { RunningNginx } from '../../../support/nginx.ts';
import { FIXTURE_DOWNLOAD_URL } from '../../../support/site-fixture.ts';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '../../../server/site/host-rules.ts';
import {
  SITE_FILES,
  sameBrowserAt,
  logIn,
  newCape,
  modRequestsServed,
  useScaleOutCluster,
} from '../../helpers/scale-out.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';
import { noneMatchCases } from '../../helpers/validators.ts';

let nginx: RunningNginx;
let processA: AppProcess;
let processB: AppProcess;
let siteDir: string;
let answersDir: string;
useScaleOutCluster((cluster) => ({ nginx, processA, processB, siteDir, answersDir } = cluster));

// Real processes start, migrate and fork image workers: slow on a busy machine, so each test gets time.
describe.skipIf(!runsOnPostgres)('two processes behind nginx on PostgreSQL, Redis and S3', { timeout: 45_000 }, () => {
  it('nginx serves every page, shell, redirect and build file itself by the generated rules, and the 404 page', async () => {
    const asset = await fetch(`${nginx.url}/_astro/app.abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('content-length'), 'the .gz file as it is').toBe(
      String(fs.statSync(path.join(siteDir, '_astro/app.abc123.js.gz')).size),
    );
    expect(asset.headers.get('cache-control')).toBe(ASSET_CACHE_CONTROL);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('x-request-id'), 'no process saw it').toBeNull();
    expect(await asset.text()).toBe(SITE_FILES['_astro/app.abc123.js']);
    const icon = await fetch(`${nginx.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('x-request-id')).toBeNull();
    expect(icon.headers.get('content-security-policy')).toContain("default-src 'none'");

    const pages: Array<[string, string]> = [
      ['/', 'index.html'],
      ['/help', 'help.html'],
      ['/user/069a79f444e94726a5befca90e38aaf5', 'user.html'],
      [`/gallery/${'a'.repeat(64)}`, 'gallery/item.html'],
    ];
    for (const [url, file] of pages) {
      const page = await fetch(`${nginx.url}${url}`);
      expect(page.status, url).toBe(200);
      expect(await page.text(), url).toBe(SITE_FILES[file]);
      expect(page.headers.get('x-request-id'), `${url}: no process saw it`).toBeNull();
      expect(page.headers.get('cache-control'), url).toBe(PAGE_CACHE_CONTROL);
      expect(page.headers.get('content-security-policy'), url).toBe("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options'), url).toBe('DENY');
      for (const { value, status } of noneMatchCases(page.headers.get('etag')!))
        expect(
          (await fetch(`${nginx.url}${url}`, { headers: { 'if-none-match': value } })).status,
          `${url} If-None-Match: ${value}`,
        ).toBe(status);
    }
    const slash = await fetch(`${nginx.url}/help/?x=1`, { redirect: 'manual' });
    expect(slash.status).toBe(301);
    expect(
      new URL(slash.headers.get('location')!, nginx.url).pathname +
        new URL(slash.headers.get('location')!, nginx.url).search,
    ).toBe('/help?x=1');
    const download = await fetch(`${nginx.url}/download/fabric/1.21.4`, { redirect: 'manual' });
    expect(download.status).toBe(302);
    expect(download.headers.get('location')).toBe(`${FIXTURE_DOWNLOAD_URL}?platform=fabric&version=1.21.4`);
    for (const missing of [
      '/no-such-page',
      '/no-such-page/',
      '/_astro/old.js',
      '/images/none.png',
      '/help.html',
      '/_redirects',
    ]) {
      const response = await fetch(`${nginx.url}${missing}`, { redirect: 'manual' });
      expect(response.status, missing).toBe(404);
      expect(await response.text(), missing).toBe(SITE_FILES['404.html']);
      expect(response.headers.get('x-request-id'), `${missing}: no process saw it`).toBeNull();
    }
  });

  it('nginx passes every route of the app to a process, and serves the same site as a process does', async () => {
    const description = (await (await fetch(`${processA.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(description.paths).map(
      ([route, methods]) => [route.replace(/\{[^}]+\}/g, 'x'), Object.keys(methods)[0]!.toUpperCase()] as const,
    );
    expect(routes.length).toBeGreaterThan(50);
    for (const [route, method] of [...routes, ['/healthz', 'GET'], ['/readyz', 'GET'], ['/metrics', 'GET']] as const) {
      const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
      const response = await fetch(`${nginx.url}${route}`, {
        method,
        body,
        headers: body ? { 'content-type': 'application/json' } : {},
        redirect: 'manual',
      });
      const sitePage = response.status === 404 && (await response.text()) === SITE_FILES['404.html'];
      expect(sitePage, `${method} ${route} reaches a process (or the answer files), not the site's 404 page`).toBe(
        false,
      );
    }
    for (const url of ['/help', '/user/Notch', `/gallery/${'b'.repeat(64)}`, '/nope', '/download']) {
      const [throughNginx, fromProcess] = await Promise.all(
        [nginx.url, processB.url].map((origin) => fetch(`${origin}${url}`, { redirect: 'manual' })),
      );
      expect(throughNginx.status, url).toBe(fromProcess.status);
      // A redirect's body is nginx's own small page or none: only what the browser follows is compared.
      if (fromProcess.status < 300 || fromProcess.status >= 400)
        expect(await throughNginx.text(), url).toBe(await fromProcess.text());
      const headers = ['cache-control', 'content-security-policy', 'location'];
      if (fromProcess.status < 300 || fromProcess.status >= 400) headers.push('content-type');
      for (const header of headers)
        expect(throughNginx.headers.get(header), `${url} ${header}`).toBe(fromProcess.headers.get(header));
    }
  });

  it('nginx answers every layout, texture and unknown player from the answer files, and none of those requests reaches a process', async () => {
    const { jar, uuid, username } = await logIn(processA.url);
    const upload = await jar.upload('/api/upload-cape', await newCape());
    expect(upload.status).toBe(200);
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const empty = await logIn(processB.url);
    const before = await modRequestsServed();
    const found = [
      `/profile/${uuid}`,
      `/profile/${username}`,
      `/capes/${username}.png`,
      `/capes/${uuid}.gif`,
      `/capes/strip/${uuid}.png`,
      `/elytras/${username.toLowerCase()}.png`,
      `/csl/${username}.json`,
      `/csl-minecraftcapes/${uuid}`,
      `/csl-minecraftcapes/${username}`,
      `/textures/${hash}`,
      `/csl/textures/${hash}.png`,
    ];
    const missing = [
      `/profile/${randomBytes(16).toString('hex')}`,
      `/profile/${empty.uuid}`,
      `/capes/${empty.username}.png`,
      `/csl/${empty.username.toLowerCase()}.json`,
      `/csl-minecraftcapes/${empty.uuid}`,
      `/csl-minecraftcapes/${randomBytes(16).toString('hex')}`,
      `/textures/${'e'.repeat(64)}`,
    ];
    // Compared with the process that made the change (the other may not have heard of it yet).
    for (const path of found) {
      const [throughNginx, straight] = await Promise.all([
        fetch(`${nginx.url}${path}`),
        fetch(`${processA.url}${path}`),
      ]);
      expect(throughNginx.status, path).toBe(200);
      expect(Buffer.from(await throughNginx.arrayBuffer()), path).toEqual(Buffer.from(await straight.arrayBuffer()));
      expect(throughNginx.headers.get('content-type'), path).toBe(straight.headers.get('content-type'));
      expect(throughNginx.headers.get('cache-control'), path).toBe(straight.headers.get('cache-control'));
    }
    for (const path of missing) {
      const [throughNginx, straight] = await Promise.all([
        fetch(`${nginx.url}${path}`),
        fetch(`${processB.url}${path}`),
      ]);
      expect(throughNginx.status, path).toBe(404);
      expect(await throughNginx.text(), path).toBe(await straight.text());
      for (const header of [
        'content-type',
        'access-control-allow-origin',
        'x-content-type-options',
        'content-security-policy',
        'cache-control',
      ]) {
        expect(throughNginx.headers.get(header), `${path} ${header}`).toBe(straight.headers.get(header));
      }
    }
    // The checks above asked processB once per path straight: only those reached a process.
    expect((await modRequestsServed()) - before).toBe(found.length + missing.length);
  });

  it('an encoded slash in a mod API path answers 404 and never hides the real answer (no cache to poison)', async () => {
    const { jar, username } = await logIn(processA.url);
    expect((await jar.upload('/api/upload-cape', await newCape())).status).toBe(200);
    for (const path of [
      `/capes%2F${username}.png`,
      `/capes/strip%2F${username}.png`,
      `/profile%2F${username}`,
      `/csl%2F${username}.json`,
      `/elytras%2F${username}.png`,
      `/csl-minecraftcapes%2F${username}`,
    ]) {
      for (let i = 0; i < 3; i++) expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(404);
    }
    for (const path of [
      `/capes/${username}.png`,
      `/capes/strip/${username}.png`,
      `/profile/${username}`,
      `/csl/${username}.json`,
      `/elytras/${username}.png`,
      `/csl-minecraftcapes/${username}`,
    ]) {
      expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(200);
    }
  });

  it("nginx serves a profile by uuid and a texture from the files the processes write, with the app's answer", async () => {
    const { jar, uuid } = await logIn(processA.url);
    const upload = await jar.upload('/api/upload-cape', await newCape());
    expect(upload.status).toBe(200);
    const hash = ((await upload.json()) as { cape: string }).cape.split('/').pop()!;
    const dashedId = dashedUuid(uuid);
    const sameAnswer = [
      'content-type',
      'cache-control',
      'access-control-allow-origin',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'content-security-policy',
    ];
    for (const path of [`/profile/${uuid}`, `/textures/${hash}`]) {
      // The upload's answer came after the files were written: nginx serves them from the first request. (Compared with
      // the process that made the change: the other may not have heard of it yet.)
      expect(fs.existsSync(`${answersDir}${path}`), path).toBe(true);
      const direct = await fetch(`${processA.url}${path}`);
      const directBody = Buffer.from(await direct.arrayBuffer());
      const variants = path.startsWith('/profile/')
        ? [path, `/profile/${dashedId}`, `/profile/${dashedId.replace('-', '')}`]
        : [path, `${path}.png`, `/csl${path}`];
      for (const variant of variants) {
        const fromFile = await fetch(`${nginx.url}${variant}`);
        expect(fromFile.status, variant).toBe(200);
        expect(Buffer.from(await fromFile.arrayBuffer()), variant).toEqual(directBody);
        for (const header of sameAnswer)
          expect(fromFile.headers.get(header), `${variant} ${header}`).toBe(direct.headers.get(header));
        expect(fromFile.headers.get('set-cookie')).toBeNull();
        // A client holding the file's answer gets 304, by its ETag in any form RFC 9110 allows or by its date, as the
        // processes answer the same validators.
        for (const { value, status } of noneMatchCases(fromFile.headers.get('etag')!))
          expect(
            (await fetch(`${nginx.url}${variant}`, { headers: { 'if-none-match': value } })).status,
            `${variant} If-None-Match: ${value}`,
          ).toBe(status);
        expect(
          (
            await fetch(`${nginx.url}${variant}`, {
              headers: { 'if-modified-since': fromFile.headers.get('last-modified')! },
            })
          ).status,
          variant,
        ).toBe(304);
      }
      // Another method on a file's path gets the process's answer, not nginx's.
      for (const method of ['POST', 'DELETE']) {
        const [throughNginx, straight] = await Promise.all(
          [nginx.url, processB.url].map((base) =>
            fetch(`${base}${path}`, { method, body: method === 'POST' ? '{}' : undefined }),
          ),
        );
        expect(throughNginx.status, `${method} ${path}`).toBe(straight.status);
        expect(await throughNginx.text(), `${method} ${path}`).toBe(await straight.text());
      }
    }
    // The profile file's date is the profile's Last-Modified, as the processes answer it.
    expect((await fetch(`${nginx.url}/profile/${uuid}`)).headers.get('last-modified')).toBe(
      (await fetch(`${processA.url}/profile/${uuid}`)).headers.get('last-modified'),
    );

    // An uppercase uuid has no file of its own: a process answers it. An unknown player and a texture path that is not
    // a lowercase hash are answered 404 by nginx, as the processes answer them.
    const unknown = randomBytes(16).toString('hex');
    await waitFor(
      async () => (await fetch(`${processB.url}/profile/${uuid}`)).status === 200,
      'both processes knowing of the cape',
    );
    for (const path of [
      `/profile/${uuid.toUpperCase()}`,
      `/profile/${unknown}`,
      `/textures/${hash.toUpperCase()}`,
      '/textures/nothing',
      '/csl/textures/nothing',
    ]) {
      const [throughNginx, straight] = await Promise.all([
        fetch(`${nginx.url}${path}`),
        fetch(`${processB.url}${path}`),
      ]);
      expect(throughNginx.status, path).toBe(straight.status);
      expect(await throughNginx.text(), path).toBe(await straight.text());
    }
    expect((await fetch(`${nginx.url}/profile/${uuid.toUpperCase()}`)).status).toBe(200);
    expect(fs.existsSync(`${answersDir}/profile/${unknown}`)).toBe(false);
    expect(fs.readdirSync(answersDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it("refuses an over-limit upload through nginx with the app's own 413 message (nginx's body limit is above the app's)", async () => {
    const { jar } = await logIn(processA.url);
    const throughNginx = sameBrowserAt(nginx.url, jar);
    for (const size of [600_000, 3_000_000]) {
      const response = await throughNginx.upload('/api/upload-cape', randomBytes(size));
      expect(response.status, `${size} B`).toBe(413);
      expect(await response.json()).toEqual({ success: false, msg: textureMessages.capeTooBig });
    }
  });
});
