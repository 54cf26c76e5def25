// The server's page serving: route-table pages, dynamic routes from their static shells, 404 page, /download and assets.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { migrateToLatest, openDatabase } from '../../server/db/database.ts';

const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-site-'));
const files: Record<string, string> = {
  'index.html': '<h1>home page</h1>',
  'help.html': '<h1>help page</h1>',
  'user.html': '<h1>user lookup shell</h1>',
  'gallery/texture.html': '<h1>texture shell</h1>',
  '404.html': '<h1>not found page</h1>',
  '_astro/app.abc123.js': 'console.log(1)',
};

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(siteDir, name)), { recursive: true });
    fs.writeFileSync(path.join(siteDir, name), body);
  }
  const config = loadConfig({ SITE_DIR: siteDir, DATA_DIR: siteDir, LOG_LEVEL: 'silent', PUBLIC_DOWNLOAD_URL: 'https://downloads.example/mod' });
  const db = openDatabase(`sqlite:${path.join(siteDir, 'test.db')}`);
  await migrateToLatest(db);
  app = await buildApp(config, db);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  fs.rmSync(siteDir, { recursive: true, force: true });
});

async function get(url: string) {
  const response = await fetch(`${base}${url}`, { redirect: 'manual' });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

describe('page serving', () => {
  it('serves static pages of the route table', async () => {
    expect(await get('/')).toMatchObject({ status: 200, body: files['index.html'] });
    const help = await get('/help');
    expect(help).toMatchObject({ status: 200, body: files['help.html'] });
    expect(help.headers.get('content-type')).toContain('text/html');
  });

  it('serves dynamic routes from their static shell', async () => {
    expect(await get('/user/069a79f444e94726a5befca90e38aaf5')).toMatchObject({ status: 200, body: files['user.html'] });
    expect(await get('/user')).toMatchObject({ status: 200, body: files['user.html'] });
    expect(await get(`/gallery/${'a'.repeat(64)}`)).toMatchObject({ status: 200, body: files['gallery/texture.html'] });
  });

  it('answers unknown paths, malformed dynamic paths and routes without a built page with the 404 page', async () => {
    for (const url of ['/nope', `/gallery/${'A'.repeat(64)}`, `/gallery/${'a'.repeat(63)}`, '/premium']) {
      expect(await get(url), url).toMatchObject({ status: 404, body: files['404.html'] });
    }
  });

  it('redirects a trailing slash to the canonical path, keeping the query', async () => {
    const response = await get('/help/?x=1');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/help?x=1');
  });

  it('sends /download to the external download page, with platform and version', async () => {
    expect((await get('/download')).headers.get('location')).toBe('https://downloads.example/mod');
    expect((await get('/download/fabric/1.21.4')).headers.get('location')).toBe('https://downloads.example/mod?platform=fabric&version=1.21.4');
  });

  it('serves hashed assets with year-long immutable caching', async () => {
    const asset = await get('/_astro/app.abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown /api/ paths with JSON, not the 404 page', async () => {
    const response = await get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ error: 'Not found' });
  });
});
