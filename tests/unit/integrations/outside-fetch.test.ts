// Unit tests for the one outside fetch (server/integrations/outside-fetch.ts) and the address rule it shares between
// the skin fetch and the images API, against small local servers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSkinByName } from '../../../server/integrations/mojang.ts';
import { checkOutsideAddress, fetchOutside, isPrivateAddress } from '../../../server/integrations/outside-fetch.ts';
import { OutsideServiceError } from '../../../src/lib/outside-service.ts';

/** What the local server answers on each path. */
type Route = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let server: http.Server;
let origin: string;
const routes = new Map<string, Route>();
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(request.url ?? '');
    const route = routes.get((request.url ?? '').split('?')[0]!);
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

/** Runs an outside call that should fail and returns its error. */
async function failure(call: Promise<unknown>): Promise<OutsideServiceError> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OutsideServiceError);
  return error as OutsideServiceError;
}

describe('isPrivateAddress', () => {
  it('tells loopback, private, link-local and reserved addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of [
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('checkOutsideAddress', () => {
  it('allows a listed host name on any port and a listed origin exactly, over http(s) only', async () => {
    const rule = { hosts: ['textures.minecraft.net', 'http://127.0.0.1:8080'], allowPrivate: true };
    expect((await checkOutsideAddress('A service', 'http://textures.minecraft.net/texture/abc', rule)).href).toBe(
      'http://textures.minecraft.net/texture/abc',
    );
    expect((await checkOutsideAddress('A service', 'https://TEXTURES.minecraft.net:444/x', rule)).hostname).toBe(
      'textures.minecraft.net',
    );
    expect((await checkOutsideAddress('A service', 'http://127.0.0.1:8080/x', rule)).port).toBe('8080');
    for (const [address, why] of [
      ['http://127.0.0.1:8081/x', 'pointed at http://127.0.0.1:8081, which is not an allowed host'],
      [
        'http://textures.minecraft.net.evil.example/x',
        'pointed at http://textures.minecraft.net.evil.example, which is not an allowed host',
      ],
      ['ftp://textures.minecraft.net/x', 'pointed at ftp:, not http(s)'],
      ['not a url', 'pointed at an address that does not parse: not a url'],
    ]) {
      const error = await failure(checkOutsideAddress('A service', address!, rule));
      expect(error.failure).toBe('address');
      expect(error.detail, address).toBe(why);
    }
  });

  it('refuses a name that resolves to a private address unless allowed', async () => {
    const error = await failure(
      checkOutsideAddress('A service', 'http://localhost:9/x', { hosts: ['localhost'], allowPrivate: false }),
    );
    expect(error.detail).toMatch(/^pointed at http:\/\/localhost:9, a private address \((127\.0\.0\.1|::1)\)$/);
    expect(
      (await checkOutsideAddress('A service', 'http://localhost:9/x', { hosts: ['localhost'], allowPrivate: true }))
        .hostname,
    ).toBe('localhost');
  });
});

describe('fetchOutside', () => {
  const call = (path: string, maxBytes = 1024, timeoutMs = 2000) =>
    fetchOutside({ service: 'The test service', url: `${origin}${path}`, maxBytes, timeoutMs });

  it('answers any status with its body; unexpected() keeps the status and the start of the body for the log', async () => {
    routes.set('/error', (_request, response) =>
      response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>upstream\ntrace 5c1e</h1>'),
    );
    const answer = await call('/error');
    expect(answer.status).toBe(500);
    const error = answer.unexpected();
    expect(error.failure).toBe('status');
    expect(error.detail).toBe('answered status 500 (HTTP 500): <h1>upstream trace 5c1e</h1>');
    expect(() => answer.json()).toThrow(OutsideServiceError);
  });

  it('stops at the cap, whether or not the answer says its length', async () => {
    routes.set('/long', (_request, response) =>
      response.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000)),
    );
    routes.set('/chunked', (_request, response) => {
      response.writeHead(200);
      response.write(Buffer.alloc(800));
      response.end(Buffer.alloc(800));
    });
    expect((await failure(call('/long'))).detail).toBe('answered 5000 bytes, more than the 1024 read');
    expect((await failure(call('/chunked'))).detail).toBe('answered more than the 1024 bytes read (HTTP 200)');
    expect((await call('/chunked', 1600)).body.length).toBe(1600);
  });

  it('gives up after the timeout, body included, and tells a connection refused apart', async () => {
    routes.set('/slow', (_request, response) => {
      response.writeHead(200);
      response.write('{"start":');
    });
    const slow = await failure(call('/slow', 1024, 200));
    expect([slow.failure, slow.detail]).toEqual(['timeout', 'no answer within 200 ms']);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await failure(
      fetchOutside({ service: 'The test service', url: `http://127.0.0.1:${port}/x`, maxBytes: 10, timeoutMs: 2000 }),
    );
    expect(refused.failure).toBe('unreachable');
    expect(refused.detail).toMatch(/ECONNREFUSED/);
  });

  it('answers a redirect of a configured address as it is, and follows one from an answer only while the rule allows it', async () => {
    routes.set('/moved', (_request, response) => response.writeHead(302, { location: '/image' }).end());
    routes.set('/away', (_request, response) =>
      response.writeHead(302, { location: 'http://localhost:9/image' }).end(),
    );
    routes.set('/image', (_request, response) => response.writeHead(200).end('picture'));
    expect((await call('/moved')).status).toBe(302);
    const rule = { hosts: [origin], allowPrivate: true };
    const followed = await fetchOutside({
      service: 'The test service',
      url: `${origin}/moved`,
      rule,
      maxBytes: 1024,
      timeoutMs: 2000,
    });
    expect(followed.text()).toBe('picture');
    seen.length = 0;
    const away = await failure(
      fetchOutside({ service: 'The test service', url: `${origin}/away`, rule, maxBytes: 1024, timeoutMs: 2000 }),
    );
    expect(away.detail).toBe('pointed at http://localhost:9, which is not an allowed host');
    expect(seen).toEqual(['/away']);
  });
});

describe('fetchSkinByName', () => {
  /** Makes the local server a profile API and session server whose skin URL is `skinUrl`. */
  function sessionPointingAt(skinUrl: string): void {
    const uuid = '0123456789abcdef0123456789abcdef';
    routes.set('/users/profiles/minecraft/Steve', (_request, response) =>
      response.writeHead(200).end(JSON.stringify({ id: uuid, name: 'Steve' })),
    );
    const textures = Buffer.from(JSON.stringify({ textures: { SKIN: { url: skinUrl } } })).toString('base64');
    routes.set(`/session/minecraft/profile/${uuid}`, (_request, response) =>
      response
        .writeHead(200)
        .end(JSON.stringify({ id: uuid, name: 'Steve', properties: [{ name: 'textures', value: textures }] })),
    );
    routes.set('/skin.png', (_request, response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end('skin bytes'),
    );
  }
  const services = (allowPrivateAddresses: boolean) => ({ apiUrl: origin, sessionUrl: origin, allowPrivateAddresses });

  it("fetches a skin from the session server's own origin, but not from a private address unless allowed, nor from another host", async () => {
    sessionPointingAt(`${origin}/skin.png`);
    expect((await fetchSkinByName(services(true), 'Steve'))?.toString()).toBe('skin bytes');
    seen.length = 0;
    const loopback = await failure(fetchSkinByName(services(false), 'Steve'));
    expect(loopback.detail).toMatch(/a private address \(127\.0\.0\.1\)$/);
    sessionPointingAt(`http://localhost:${new URL(origin).port}/skin.png`);
    const elsewhere = await failure(fetchSkinByName(services(true), 'Steve'));
    expect(elsewhere.service).toBe('The skin server');
    expect(elsewhere.detail).toMatch(/which is not an allowed host$/);
    expect(seen.filter((path) => path === '/skin.png')).toEqual([]);
  });
});
