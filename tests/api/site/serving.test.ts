// The server's page serving by the host rules the build writes: route-table pages, dynamic routes from their static
// shells, 404 page, /download and assets, validators and caching; the build's compressed copies
// (server/site/precompress.ts) and how they are sent for each Accept-Encoding.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import { PAGE_CACHE_CONTROL } from '../../../server/site/host-rules.ts';
import { precompressSite } from '../../../server/site/precompress.ts';
import { FIXTURE_DOWNLOAD_URL, writeSiteFixture } from '../../../support/site-fixture.ts';
import { solidPng } from '../../../support/textures.ts';
import { noneMatchCases } from '../../helpers/validators.ts';

const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-site-'));
const files: Record<string, string> = {
  'index.html': '<h1>home page</h1>',
  'help.html': '<h1>help page</h1>',
  'user.html': '<h1>user lookup shell</h1>',
  'user/report.html': '<h1>user report shell</h1>',
  'gallery/item.html': '<h1>gallery entry shell</h1>',
  'gallery/new.html': '<h1>gallery upload page</h1>',
  '404.html': '<h1>not found page</h1>',
  '_astro/app.abc123.js': 'console.log(1)',
};

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  writeSiteFixture(siteDir, files);
  const config = loadConfig({ SITE_DIR: siteDir, DATA_DIR: siteDir, LOG_LEVEL: 'silent' });
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

  it('serves dynamic routes from their static shell, the fixed pages beside them still winning', async () => {
    expect(await get('/user/069a79f444e94726a5befca90e38aaf5')).toMatchObject({
      status: 200,
      body: files['user.html'],
    });
    expect(await get('/user')).toMatchObject({ status: 200, body: files['user.html'] });
    expect(await get('/user/report')).toMatchObject({ status: 200, body: files['user/report.html'] });
    expect(await get('/user/Notch/report')).toMatchObject({ status: 200, body: files['user/report.html'] });
    const shell = files['gallery/item.html'];
    expect(await get(`/gallery/${'a'.repeat(64)}`)).toMatchObject({ status: 200, body: shell });
    expect(await get('/gallery/069a79f4-44e9-4726-a5be-fca90e38aaf5')).toMatchObject({ status: 200, body: shell });
    expect(await get('/gallery/new')).toMatchObject({ status: 200, body: files['gallery/new.html'] });
  });

  it('answers unknown paths, paths a level too deep and routes without a built page with the 404 page', async () => {
    for (const url of ['/nope', `/gallery/${'a'.repeat(64)}/more`, '/premium', '/help.html', '/_redirects']) {
      expect(await get(url), url).toMatchObject({ status: 404, body: files['404.html'] });
    }
  });

  it('redirects a trailing slash to the canonical path, keeping the query', async () => {
    const response = await get('/help/?x=1');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/help?x=1');
    expect((await get('/nope/')).status, 'a path the site does not have is not redirected').toBe(404);
  });

  it('sends /download to the external download page, with platform and version', async () => {
    expect((await get('/download')).headers.get('location')).toBe(FIXTURE_DOWNLOAD_URL);
    expect((await get('/download/fabric/1.21.4')).headers.get('location')).toBe(
      `${FIXTURE_DOWNLOAD_URL}?platform=fabric&version=1.21.4`,
    );
  });

  it('lets a shared cache keep a page and revalidate it by its ETag or its time', async () => {
    const page = await get('/help');
    expect(page.headers.get('cache-control')).toBe(PAGE_CACHE_CONTROL);
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const etag = page.headers.get('etag')!;
    const lastModified = page.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const validatorSets = [
      ...noneMatchCases(etag).map(({ value, status }) => ({ headers: { 'if-none-match': value }, status })),
      { headers: { 'if-modified-since': lastModified }, status: 304 },
    ];
    for (const { headers, status } of validatorSets) {
      const again = await fetch(`${base}/help`, { headers });
      expect(again.status, JSON.stringify(headers)).toBe(status);
      expect((await again.text()) === '', JSON.stringify(headers)).toBe(status === 304);
    }
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

/** Text of about `bytes` bytes that compresses like a real page (varied words, not one repeated character). */
function filler(bytes: number, seed: string): string {
  const words = [
    'cape',
    'ears',
    'gallery',
    'player',
    'texture',
    'upload',
    'elytra',
    'animated',
    'server',
    'download',
    seed,
  ];
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `${words[(i * 7 + seed.length) % words.length]}-${i % 97} `;
  return text;
}

/**
 * A built site big enough for copies: pages, a shell, the 404 page, a stylesheet, a script, an SVG, a large PNG and a
 * small file.
 */
async function builtSiteFiles(): Promise<Record<string, string | Buffer>> {
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${filler(6000, title)}</p></body></html>`;
  return {
    'index.html': page('home page'),
    'help.html': page('help page'),
    'legal.html': page('legal page'),
    'user.html': page('user lookup shell'),
    '404.html': page('not found page'),
    '_astro/template.abc123.css': `body { color: #222; }\n${Array.from({ length: 200 }, (_, i) => `.c${i} { margin: ${i}px; padding: ${i % 7}px; }`).join('\n')}`,
    '_astro/app.abc123.js': `export const words = ${JSON.stringify(filler(4000, 'script').split(' '))};`,
    'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg">${Array.from({ length: 60 }, (_, i) => `<rect x="${i}" y="${i}" width="2" height="2"/>`).join('')}</svg>`,
    'images/cape.png': Buffer.concat([await solidPng(512, 256), Buffer.alloc(4096)]),
    'robots.txt': 'User-agent: *\nAllow: /\n',
  };
}

/** Writes files into a directory. */
function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), body);
  }
}

/** Every file under a directory with its bytes, by '/'-separated relative path. */
function snapshot(root: string): Map<string, Buffer> {
  return new Map(
    (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
      .sort()
      .map((entry) => [entry.split(path.sep).join('/'), fs.readFileSync(path.join(root, entry))]),
  );
}

describe('the build step that writes compressed copies', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

  it('writes .br and .gz beside text files of 1 KB or more, none for images or small files, and the copies decode to the file', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-precompress-'));
    roots.push(root);
    const files = await builtSiteFiles();
    writeFiles(root, files);
    const report = precompressSite(root);
    const texts = [
      'index.html',
      'help.html',
      'legal.html',
      'user.html',
      '404.html',
      '_astro/template.abc123.css',
      '_astro/app.abc123.js',
      'favicon.svg',
    ];
    expect(report.files).toBe(texts.length);
    for (const name of texts) {
      const original = fs.readFileSync(path.join(root, name));
      const brotli = fs.readFileSync(path.join(root, `${name}.br`));
      const gzip = fs.readFileSync(path.join(root, `${name}.gz`));
      expect(zlib.brotliDecompressSync(brotli).equals(original), name).toBe(true);
      expect(zlib.gunzipSync(gzip).equals(original), name).toBe(true);
      expect(brotli.length, name).toBeLessThan(original.length);
      const mtime = (file: string) => fs.statSync(path.join(root, file)).mtimeMs;
      expect(Math.abs(mtime(`${name}.br`) - mtime(name)), 'copies keep the file time').toBeLessThan(1);
    }
    for (const name of ['images/cape.png', 'robots.txt']) {
      expect(fs.existsSync(path.join(root, `${name}.br`)), name).toBe(false);
      expect(fs.existsSync(path.join(root, `${name}.gz`)), name).toBe(false);
    }
  });

  it('writes the same bytes every time, and a second run drops the copies of a file that became too small', async () => {
    const files = await builtSiteFiles();
    const [first, second] = [0, 1].map(() => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-precompress-'));
      roots.push(root);
      writeFiles(root, files);
      return root;
    });
    // Different file times must not change a byte.
    fs.utimesSync(path.join(second!, 'index.html'), new Date(2001, 0, 1), new Date(2001, 0, 1));
    precompressSite(first!);
    precompressSite(second!);
    precompressSite(second!);
    expect(snapshot(second!)).toEqual(snapshot(first!));

    fs.writeFileSync(path.join(second!, 'help.html'), '<h1>short</h1>');
    precompressSite(second!);
    expect(fs.existsSync(path.join(second!, 'help.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(second!, 'help.html.gz'))).toBe(false);
    expect(fs.existsSync(path.join(second!, 'index.html.br'))).toBe(true);
  });
});

/** A raw answer: status, headers and the bytes as sent on the wire (fetch would decode them). */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends a request with node:http, which leaves the body encoded. */
function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The headers that must not depend on the coding: everything but the coding, the length and the file identity. */
function codingFreeHeaders(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  const {
    'content-encoding': _encoding,
    'content-length': _length,
    etag: _etag,
    'last-modified': _modified,
    date: _date,
    'x-request-id': _id,
    ...rest
  } = headers;
  return rest;
}

describe('serving the compressed copies', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-precompressed-site-'));
  let server: FastifyInstance;
  let origin: string;
  let files: Record<string, string | Buffer>;
  let db: ReturnType<typeof openDatabase>;
  const copy = (name: string, suffix: '.br' | '.gz') => fs.readFileSync(path.join(root, name + suffix));

  beforeAll(async () => {
    files = await builtSiteFiles();
    writeSiteFixture(root, files, ['favicon.svg', 'images/', 'robots.txt']);
    precompressSite(root);
    for (const suffix of ['.br', '.gz']) fs.rmSync(path.join(root, `legal.html${suffix}`));
    const config = loadConfig({ SITE_DIR: root, DATA_DIR: root, LOG_LEVEL: 'silent' });
    db = openDatabase(`sqlite:${path.join(root, 'test.db')}`);
    await migrateToLatest(db);
    server = await buildApp(config, db);
    origin = await server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['/', 'index.html', 200],
    ['/user/069a79f444e94726a5befca90e38aaf5', 'user.html', 200],
    ['/no-such-page', '404.html', 404],
    ['/_astro/template.abc123.css', '_astro/template.abc123.css', 200],
    ['/favicon.svg', 'favicon.svg', 200],
  ])(
    '%s: brotli, gzip or the file itself by Accept-Encoding, the same headers otherwise',
    async (url, name, status) => {
      const original = Buffer.from(files[name]!);
      const brotli = await rawRequest(origin + url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(brotli.status).toBe(status);
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.body.equals(copy(name, '.br'))).toBe(true);
      expect(zlib.brotliDecompressSync(brotli.body).equals(original)).toBe(true);
      expect(brotli.headers['content-length']).toBe(String(brotli.body.length));
      expect(brotli.headers.vary).toMatch(/accept-encoding/i);

      const gzip = await rawRequest(origin + url, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.body.equals(copy(name, '.gz'))).toBe(true);
      expect(zlib.gunzipSync(gzip.body).equals(original)).toBe(true);

      for (const plain of [
        await rawRequest(origin + url),
        await rawRequest(origin + url, { 'accept-encoding': 'identity' }),
      ]) {
        expect(plain.status).toBe(status);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body.equals(original)).toBe(true);
        expect(plain.headers.vary).toMatch(/accept-encoding/i);
        expect(codingFreeHeaders(plain.headers)).toEqual(codingFreeHeaders(brotli.headers));
      }
      expect(codingFreeHeaders(gzip.headers)).toEqual(codingFreeHeaders(brotli.headers));

      expect((await rawRequest(origin + url, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe(
        'gzip',
      );
      const refused = await rawRequest(origin + url, { 'accept-encoding': 'br;q=0' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body.equals(original)).toBe(true);

      const head = await rawRequest(origin + url, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(status);
      expect(head.headers['content-encoding']).toBe('br');
      expect(head.headers['content-length']).toBe(String(copy(name, '.br').length));
      expect(head.body.length).toBe(0);
    },
  );

  it('gives pages their caching and headers and hashed assets year-long caching', async () => {
    const page = await rawRequest(`${origin}/`, { 'accept-encoding': 'br' });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    const asset = await rawRequest(`${origin}/_astro/template.abc123.css`, { 'accept-encoding': 'br' });
    expect(asset.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('sends images as they are', async () => {
    const png = await rawRequest(`${origin}/images/cape.png`, { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.equals(files['images/cape.png'] as Buffer)).toBe(true);
  });

  it('sends a page without copies as it is, as a static host does (a site built without the step)', async () => {
    const answer = await rawRequest(`${origin}/legal`, { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe(files['legal.html']);
  });

  it('still compresses JSON API answers per request', async () => {
    // Enough tags for the answer to pass the 1 KB threshold.
    await db
      .insertInto('tags')
      .values(Array.from({ length: 40 }, (_, i) => ({ tag_key: `extra-tag-${i}`, name: `Extra tag number ${i}` })))
      .execute();
    const answer = await rawRequest(`${origin}/api/gallery/tags`, { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(answer.body).toString())).toEqual(
      expect.arrayContaining([expect.objectContaining({ tag_key: expect.any(String) })]),
    );
  });
});
