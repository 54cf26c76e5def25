// Unit tests for the API client (src/lib/client/api.ts) against a real local HTTP server: XSRF header, app-wide status
// handling, error display.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOT_ADMIN_MESSAGE } from '../../../src/lib/admin-access.ts';
import { createApiClient, ensureXsrfToken, handleAppStatus, XSRF_COOKIE_PATH } from '../../../src/lib/client/api.ts';
import { describeApiError, errorBody } from '../../../src/lib/client/api-errors.ts';
import { bannedLogoutMessage, UNAUTHENTICATED_MESSAGE } from '../../../src/lib/login-errors.ts';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

describe('createApiClient', () => {
  let server: http.Server;
  let baseURL: string;
  let seen: Seen[];
  let calls: { unauthorized: number; maintenance: number; offline: number };
  let notAdminCalls: number;
  let xsrf: string | undefined;
  let cookieCallSetsToken: string | undefined;
  /** The token the API's cookie holds, which the XSRF call also answers in its body (undefined: it answers none). */
  let apiToken: string | undefined;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      const status = /\/status\/(\d{3})$/.exec(request.url ?? '');
      if (request.url?.endsWith('/hang')) return; // never answers
      if (request.url === XSRF_COOKIE_PATH) {
        xsrf = cookieCallSetsToken; // as if the browser stored the Set-Cookie of this answer
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: apiToken }));
        return;
      }
      if (request.url?.endsWith('/checks-token')) {
        const right = request.headers['x-xsrf-token'] === apiToken;
        response
          .writeHead(right ? 200 : 419, { 'content-type': 'application/json' })
          .end(JSON.stringify(right ? { ok: true } : { error: 'CSRF token mismatch.' }));
        return;
      }
      if (request.url?.endsWith('/logged-out')) {
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }));
        return;
      }
      if (request.url?.endsWith('/banned')) {
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: bannedLogoutMessage('NSFW or NSFL image') }));
        return;
      }
      if (request.url?.endsWith('/not-admin')) {
        response
          .writeHead(403, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: NOT_ADMIN_MESSAGE }));
        return;
      }
      if (status) {
        response
          .writeHead(Number(status[1]), { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: `status ${status[1]}` }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen = [];
    calls = { unauthorized: 0, maintenance: 0, offline: 0 };
    notAdminCalls = 0;
    xsrf = undefined;
    cookieCallSetsToken = undefined;
    apiToken = undefined;
  });

  function client(timeout?: number) {
    return createApiClient({
      baseURL,
      readXsrfToken: () => xsrf,
      onUnauthorized: () => calls.unauthorized++,
      onMaintenance: () => calls.maintenance++,
      onOffline: () => calls.offline++,
      onNotAdmin: () => notAdminCalls++,
      timeout,
    });
  }
  it('tells the page when the API says the user is not an admin, and not for another 403', async () => {
    await expect(client()('/api/admin/not-admin')).rejects.toThrow();
    expect(notAdminCalls).toBe(1);
    await expect(client()('/api/status/403')).rejects.toThrow();
    expect(notAdminCalls).toBe(1);
  });

  it('sends x-xsrf-token when the XSRF-TOKEN cookie has a value', async () => {
    xsrf = 'token-from-cookie';
    expect(await client()('/api/home')).toEqual({ ok: true });
    await client()('/api/account/logout', { method: 'POST', body: {} });
    expect(seen.map((request) => request.headers['x-xsrf-token'])).toEqual(['token-from-cookie', 'token-from-cookie']);
  });

  it('keeps headers the caller set next to x-xsrf-token', async () => {
    xsrf = 't';
    await client()('/api/home', { headers: { 'x-extra': 'yes' } });
    expect(seen[0]!.headers['x-xsrf-token']).toBe('t');
    expect(seen[0]!.headers['x-extra']).toBe('yes');
  });

  it('omits x-xsrf-token when there is no cookie, even after asking for one', async () => {
    await client()('/api/home');
    await client()('/api/account/logout', { method: 'POST', body: {} });
    const calls = seen.filter((request) => request.url !== XSRF_COOKIE_PATH);
    expect(calls.map((request) => request.url)).toEqual(['/api/home', '/api/account/logout']);
    for (const request of calls) expect(request.headers).not.toHaveProperty('x-xsrf-token');
  });

  it('fetches the XSRF cookie before a first state-changing call and sends it', async () => {
    cookieCallSetsToken = 'fresh-token';
    await client()('/api/account/checkauth', { method: 'POST', body: { code: '123456' } });
    expect(seen.map((request) => request.url)).toEqual([XSRF_COOKIE_PATH, '/api/account/checkauth']);
    expect(seen[1]!.headers['x-xsrf-token']).toBe('fresh-token');
  });

  it('does not ask for the XSRF cookie on reads or when it already has one', async () => {
    cookieCallSetsToken = 'fresh-token';
    await client()('/api/home');
    xsrf = 'existing';
    await client()('/api/account/logout', { method: 'POST', body: {} });
    expect(seen.map((request) => request.url)).toEqual(['/api/home', '/api/account/logout']);
    expect(seen[1]!.headers['x-xsrf-token']).toBe('existing');
  });

  it('ensureXsrfToken (also used by file uploads) asks for the cookie only while there is none', async () => {
    cookieCallSetsToken = 'fresh-token';
    const source = { baseURL, readXsrfToken: () => xsrf };
    expect(await ensureXsrfToken(source)).toBe('fresh-token');
    expect(await ensureXsrfToken(source)).toBe('fresh-token');
    expect(seen.map((request) => request.url)).toEqual([XSRF_COOKIE_PATH]);
  });

  it("keeps the token the API answers when the page cannot read the API's cookie (the API on another host)", async () => {
    apiToken = 'handed-out';
    let kept: string | undefined;
    const api = createApiClient({
      baseURL,
      readXsrfToken: () => xsrf ?? kept,
      keepXsrfToken: (token) => (kept = token),
      onUnauthorized: () => {},
      onMaintenance: () => {},
      onOffline: () => {},
    });
    expect(await api('/api/checks-token', { method: 'POST', body: {} })).toEqual({ ok: true });
    expect(await api('/api/checks-token', { method: 'POST', body: {} })).toEqual({ ok: true });
    expect(seen.map((request) => request.url)).toEqual([XSRF_COOKIE_PATH, '/api/checks-token', '/api/checks-token']);
    expect(kept).toBe('handed-out');
  });

  it('sends a call refused with 419 once more with a fresh token, and only once', async () => {
    apiToken = 'first';
    let kept: string | undefined;
    const api = createApiClient({
      baseURL,
      readXsrfToken: () => kept,
      keepXsrfToken: (token) => (kept = token),
      onUnauthorized: () => {},
      onMaintenance: () => {},
      onOffline: () => {},
    });
    await api('/api/checks-token', { method: 'POST', body: {} });
    apiToken = 'rotated'; // the API's cookie expired and a new one was set
    expect(await api('/api/checks-token', { method: 'POST', body: {} })).toEqual({ ok: true });
    expect(seen.map((request) => request.url).slice(2)).toEqual([
      '/api/checks-token',
      XSRF_COOKIE_PATH,
      '/api/checks-token',
    ]);
    expect(seen.at(-1)!.headers['x-xsrf-token']).toBe('rotated');
    apiToken = undefined; // a token the API never accepts: refused once more, then the error
    seen = [];
    await expect(api('/api/checks-token', { method: 'POST', body: {} })).rejects.toThrow();
    expect(seen.filter((request) => request.url === '/api/checks-token')).toHaveLength(2);
  });

  it('calls onOffline when a proxy in front finds the API down (502, 504)', async () => {
    for (const status of [502, 504]) await expect(client()(`/api/status/${status}`)).rejects.toThrow();
    expect(calls).toEqual({ unauthorized: 0, maintenance: 0, offline: 2 });
  });

  it('calls onUnauthorized on 401', async () => {
    await expect(client()('/api/status/401')).rejects.toThrow();
    expect(calls).toEqual({ unauthorized: 1, maintenance: 0, offline: 0 });
  });

  it('tells onUnauthorized why the player was logged out when the 401 says (a ban), and nothing for the plain one', async () => {
    const reasons: Array<string | null> = [];
    const api = createApiClient({
      baseURL,
      readXsrfToken: () => xsrf,
      onUnauthorized: (reason) => reasons.push(reason),
      onMaintenance: () => {},
      onOffline: () => {},
    });
    await expect(api('/api/banned')).rejects.toThrow();
    await expect(api('/api/logged-out')).rejects.toThrow();
    expect(reasons).toEqual([
      'The specified account has been banned for violating our terms of service. Reason: NSFW or NSFL image.',
      null,
    ]);
  });

  it('calls onMaintenance on 503', async () => {
    await expect(client()('/api/status/503')).rejects.toThrow();
    expect(calls).toEqual({ unauthorized: 0, maintenance: 1, offline: 0 });
  });

  it('calls onOffline on 408 from an /api/ URL, not from another URL', async () => {
    await expect(client()('/api/status/408')).rejects.toThrow();
    expect(calls).toEqual({ unauthorized: 0, maintenance: 0, offline: 1 });
    await expect(client()('/images/status/408')).rejects.toThrow();
    expect(calls.offline).toBe(1);
  });

  it('calls onOffline when an /api/ call times out', async () => {
    // /api/hang never answers: only the client's 200 ms timeout can end the call.
    await expect(client(200)('/api/hang')).rejects.toThrow();
    expect(calls).toEqual({ unauthorized: 0, maintenance: 0, offline: 1 });
  });

  it('does not call onOffline when a non-API call times out', async () => {
    await expect(client(200)('/images/hang')).rejects.toThrow();
    expect(calls.offline).toBe(0);
  });

  it('calls onOffline when the API host cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = createApiClient({
      baseURL: `http://127.0.0.1:${port}`,
      readXsrfToken: () => undefined,
      onUnauthorized: () => calls.unauthorized++,
      onMaintenance: () => calls.maintenance++,
      onOffline: () => calls.offline++,
    });
    await expect(unreachable('/api/home')).rejects.toThrow();
    expect(calls).toEqual({ unauthorized: 0, maintenance: 0, offline: 1 });
  });

  it('calls none of the handlers on 404 or 422, and exposes the error body', async () => {
    for (const status of [404, 422, 500]) {
      const error = await client()(`/api/status/${status}`).catch((caught: unknown) => caught);
      expect(errorBody(error), String(status)).toEqual({ error: `status ${status}` });
    }
    expect(calls).toEqual({ unauthorized: 0, maintenance: 0, offline: 0 });
  });
});

describe('handleAppStatus', () => {
  it('turns 401, 503 and 408 from an /api/ URL into their handlers (as file uploads need) and ignores the rest', () => {
    const calls: string[] = [];
    const handlers = {
      onUnauthorized: () => calls.push('401'),
      onMaintenance: () => calls.push('503'),
      onOffline: () => calls.push('408'),
    };
    for (const status of [200, 401, 404, 408, 419, 422, 500, 503]) handleAppStatus(status, handlers);
    handleAppStatus(408, handlers, false);
    expect(calls).toEqual(['401', '408', '503']);
  });
});

describe('describeApiError', () => {
  it('shows {error} as one message', () => {
    expect(describeApiError({ error: 'That user does not exist.' })).toEqual({
      kind: 'message',
      message: 'That user does not exist.',
    });
  });

  it('shows the first message of each field of {errors}', () => {
    const body = {
      message: 'The given data was invalid.',
      errors: { title: ['Title is required.', 'Title is too long.'], tags: ['Pick a tag.'] },
    };
    expect(describeApiError(body)).toEqual({ kind: 'fields', messages: ['Title is required.', 'Pick a tag.'] });
  });

  it('shows {message} when there are no field errors', () => {
    expect(describeApiError({ message: 'Server says no.' })).toEqual({ kind: 'message', message: 'Server says no.' });
    expect(describeApiError({ message: 'Fallback to message', errors: {} })).toEqual({
      kind: 'message',
      message: 'Fallback to message',
    });
  });

  it('falls back for an unknown body', () => {
    for (const body of [
      undefined,
      null,
      'plain text',
      42,
      {},
      { foo: 'bar' },
      { error: '' },
      { errors: { title: [] } },
    ]) {
      expect(describeApiError(body), JSON.stringify(body)).toEqual({
        kind: 'message',
        message: 'Something went wrong',
      });
    }
    expect(describeApiError({ unexpected: true }, 'Try again later')).toEqual({
      kind: 'message',
      message: 'Try again later',
    });
  });
});
