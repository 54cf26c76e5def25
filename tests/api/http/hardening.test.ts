// API tests for the HTTP server's own defences: security headers on pages and answers, a too-big upload refused before
// it is all sent, and a client that never finishes its headers cut off.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { textureMessages } from '../../../src/lib/texture-rules.ts';
import { oneBackend, type TestDatabase } from '../../../support/backends.ts';
import { loginNewUser, startServer, type TestServer } from '../../helpers/server.ts';
import { writeSiteFixture } from '../../../support/site-fixture.ts';
import { solidPng } from '../../../support/textures.ts';

describe('HTTP hardening', () => {
  let database: TestDatabase;
  let siteDir: string;
  let server: TestServer;

  beforeAll(async () => {
    database = await oneBackend.createDatabase();
    siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-site-'));
    writeSiteFixture(siteDir, {
      'help.html': '<!doctype html><title>Help</title><h1>Help</h1>',
      '404.html': '<!doctype html><title>Not found</title><h1>404 Page Not Found</h1>',
    });
    server = await startServer(database.url, {
      SITE_DIR: siteDir,
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '5000',
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    if (siteDir) fs.rmSync(siteDir, { recursive: true, force: true });
  });

  describe('security headers', () => {
    const expectCommonHeaders = (response: Response, what: string) => {
      expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), what).toBe('DENY');
      expect(response.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'");
    };

    it('pages, the 404 page and the site redirects carry what a policy in a page cannot: never framed', async () => {
      for (const page of ['/help', '/no-such-page', '/download']) {
        const response = await fetch(`${server.url}${page}`, { redirect: 'manual' });
        expectCommonHeaders(response, page);
        expect(response.headers.get('content-security-policy'), page).toBe("frame-ancestors 'none'");
      }
    });

    it('API answers and errors may not load or run anything', async () => {
      const { jar } = await loginNewUser(server);
      const answers: Array<[string, Response]> = [
        ['GET /api/home', await fetch(`${server.url}/api/home`)],
        ['GET /api/user (401)', await fetch(`${server.url}/api/user`)],
        ['POST /api/account/logout (419)', await fetch(`${server.url}/api/account/logout`, { method: 'POST' })],
        ['GET /api/gallery/tags', await jar.get('/api/gallery/tags')],
      ];
      for (const [what, response] of answers) {
        expectCommonHeaders(response, what);
        expect(response.headers.get('content-security-policy'), what).toBe(
          "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        );
      }
    });
  });

  it('mod API answers carry them too: profiles, textures, 304s and 404s', async () => {
    const { jar, uuid } = await loginNewUser(server);
    const upload = await jar.upload('/api/upload-cape', await solidPng(64, 32), {
      type: 'image/png',
      filename: 'cape.png',
    });
    const capeUrl = ((await upload.json()) as { cape: string }).cape;
    const texturePath = new URL(capeUrl).pathname;
    const profile = await fetch(`${server.url}/profile/${uuid}`);
    const answers: Array<[string, Response]> = [
      ['GET /profile/{uuid}', profile],
      [
        'GET /profile/{uuid} (304)',
        await fetch(`${server.url}/profile/${uuid}`, { headers: { 'if-none-match': profile.headers.get('etag')! } }),
      ],
      ['GET /profile/{unknown} (404)', await fetch(`${server.url}/profile/${'0'.repeat(32)}`)],
      ['GET /profile/{uuid}/cape', await fetch(`${server.url}/profile/${uuid}/cape`)],
      ['GET /textures/{hash}', await fetch(`${server.url}${texturePath}`)],
      [
        'GET /textures/{hash} (304)',
        await fetch(`${server.url}${texturePath}`, {
          headers: { 'if-none-match': `"${texturePath.split('/').pop()}"` },
        }),
      ],
    ];
    expect(answers.map(([, response]) => response.status)).toEqual([200, 304, 404, 200, 200, 304]);
    for (const [what, response] of answers) {
      expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), what).toBe('DENY');
      expect(response.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('content-security-policy'), what).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
      expect(response.headers.get('access-control-allow-origin'), what).toBe('*');
    }
  });

  it('the API description and its reference page carry the headers too', async () => {
    const description = await fetch(`${server.url}/api/openapi.json`);
    expect(description.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(description.headers.get('x-content-type-options')).toBe('nosniff');
    const docs = await fetch(`${server.url}/api/docs/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
    expect(docs.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(docs.headers.get('content-security-policy'), 'the reference page keeps its own policy').toContain(
      "default-src 'self'",
    );
  });

  describe('too-big uploads', () => {
    const BODY_BYTES = 50 * 1024 * 1024;

    /**
     * Sends a multipart upload of a 50 MB file over a raw socket, as fast as the server takes it, and stops when the
     * answer arrives; returns the answer and how much of the body had been sent by then.
     */
    async function sendHugeUpload(
      target: string,
      options: { chunked: boolean },
    ): Promise<{ head: string; body: string; sentBytes: number }> {
      const { jar } = await loginNewUser(server);
      const { hostname, port } = new URL(server.url);
      const boundary = 'cloakroom-test-boundary';
      const preamble = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const cookies = ['session', 'XSRF-TOKEN'].map((name) => `${name}=${jar.cookie(name)}`).join('; ');
      const headers = [
        `POST ${target} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Cookie: ${cookies}`,
        `X-XSRF-TOKEN: ${decodeURIComponent(jar.cookie('XSRF-TOKEN')!)}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${preamble.length + BODY_BYTES}`,
      ];
      const socket = net.connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      let answered = false;
      socket.on('data', (chunk) => {
        answer += chunk.toString();
        answered = true;
      });
      socket.on('error', () => undefined);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      const frame = (bytes: Buffer) =>
        options.chunked
          ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])
          : bytes;

      socket.write(`${headers.join('\r\n')}\r\n\r\n`);
      socket.write(frame(preamble));
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      let sentBytes = 0;
      while (sentBytes < BODY_BYTES && !answered && !socket.destroyed) {
        if (!socket.write(frame(chunk)))
          await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
        sentBytes += chunk.length;
      }
      await closed;
      const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
      return { head, body: /transfer-encoding: chunked/i.test(head) ? decodeChunked(body) : body, sentBytes };
    }

    it('refuses a 50 MB cape by its Content-Length with 413 and the "too big" message before the body is sent, and closes the connection', async () => {
      const { head, body, sentBytes } = await sendHugeUpload('/api/upload-cape', { chunked: false });
      expect(head.split('\r\n', 1)[0]).toBe('HTTP/1.1 413 Payload Too Large');
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toEqual({ success: false, msg: textureMessages.capeTooBig });
      expect(sentBytes, 'most of the body was never sent').toBeLessThan(BODY_BYTES / 5);
    });

    it('refuses a 50 MB cape sent without a length as soon as it passes the limit', async () => {
      const { head, body, sentBytes } = await sendHugeUpload('/api/upload-cape', { chunked: true });
      expect(head.split('\r\n', 1)[0]).toBe('HTTP/1.1 413 Payload Too Large');
      expect(JSON.parse(body)).toEqual({ success: false, msg: textureMessages.capeTooBig });
      expect(sentBytes, 'most of the body was never sent').toBeLessThan(BODY_BYTES / 5);
    });

    it('refuses a 50 MB gallery upload with 413 and the gallery message', async () => {
      for (const chunked of [false, true]) {
        const { head, body, sentBytes } = await sendHugeUpload('/api/gallery/new', { chunked });
        expect(head.split('\r\n', 1)[0], `chunked: ${chunked}`).toBe('HTTP/1.1 413 Payload Too Large');
        expect(JSON.parse(body)).toEqual({ error: galleryMessages.fileTooBig });
        expect(sentBytes).toBeLessThan(BODY_BYTES / 5);
      }
    });
  });

  it('cuts off a client that never finishes its request headers (HEADERS_TIMEOUT_MS)', async () => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.write(`GET /api/home HTTP/1.1\r\nHost: ${hostname}\r\n`);
    // A header line now and then, never the blank line that ends them.
    const trickle = setInterval(() => socket.write(`X-Slow-${Date.now()}: 1\r\n`), 100);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    expect(answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 408 Request Timeout');
  });
});

/** The payload of a chunked HTTP body. */
function decodeChunked(text: string): string {
  let rest = text;
  let out = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
