// Tests of the game auth server (auth-server/): game clients of several versions join it in offline mode and read the
// login code the site hands out, which then logs that player in on the site; a banned player reads the ban notice; a
// site that fails or cannot be reached gives "try again"; the server list shows the site name and the players connected
// right now.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../../../auth-server/src/messages.ts';
import { BANNED_MESSAGE } from '../../../server/routes/account.ts';
import {
  offlineUuid,
  runAuthServerMain,
  runProbe,
  startAuthServerProcess,
  type AuthServerProcess,
  type ProbeResult,
} from '../../helpers/auth-server.ts';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';

const KEY = 'auth-server-test-key-0123456789';
const CODE_MESSAGE = /^Your authorization code is » (\d{6}) «$/;
const UNAVAILABLE = 'The login service is not available right now. Try again in a minute.';
/** Game versions whose clients join in these tests: minecraft-protocol runs both sides of each. */
const VERSIONS = ['1.8.9', '1.12.2', '1.20.4', '1.21.11'];
/** Each test starts game clients as processes (about half a second each, more on a busy machine). */
const PROCESS_TESTS = { timeout: 60_000 };

/** The plain text a game shows for the probe's disconnect, after checking it was disconnected during login. */
function disconnectText(result: ProbeResult): string {
  expect(result, JSON.stringify(result)).toMatchObject({ event: 'disconnected', state: 'login' });
  return plainText((result as { reason: string }).reason);
}

describe.each(backends)('game auth server with a site on $name', PROCESS_TESTS, (backend) => {
  const suite = serverForSuite(backend, { AUTH_API_KEY: KEY, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let authServer: AuthServerProcess;

  beforeAll(async () => {
    authServer = await startAuthServerProcess({ AUTH_API_URL: suite.server.url, AUTH_API_KEY: KEY });
  });

  afterAll(async () => {
    const exitCode = await authServer?.stop();
    expect(exitCode, 'SIGTERM stops it cleanly').toBe(0);
    expect(authServer.log.at(-1)).toMatch(/Stopped$/);
  });

  it('shows a player of each game version their code, which logs that player in on the site', async () => {
    const players = VERSIONS.map((version) => ({ version, username: `Joiner_${version.replace(/\./g, '')}` }));
    const results = await Promise.all(players.map((player) => runProbe(authServer.port, player)));
    for (const [index, { version, username }] of players.entries()) {
      const text = disconnectText(results[index]!);
      const code = CODE_MESSAGE.exec(text)?.[1];
      expect(code, `${version}: ${text}`).toBeDefined();

      const jar = await newBrowser(suite.server);
      const login = await jar.post('/api/account/checkauth', { code, ref: '/upload-cape' });
      expect(await login.json(), version).toMatchObject({
        success: true,
        ref: '/upload-cape',
        user: { uuid: offlineUuid(username), username },
      });
      expect(jar.cookie('session'), version).toBeDefined();
    }
    const joined = authServer.log.filter((line) => line.includes('login code handed out'));
    expect(joined).toHaveLength(VERSIONS.length);
    expect(joined.join('\n'), 'the log never shows a code').not.toMatch(/\b\d{6}\b/);
  });

  it('tells a banned player they are banned, and gives them no code', async () => {
    const admin = await loginNewUser(suite.server, undefined, { admin: true });
    const username = 'Banned_Joiner';
    expect(disconnectText(await runProbe(authServer.port, { username, version: '1.20.4' }))).toMatch(CODE_MESSAGE);
    const ban = await admin.jar.post('/api/admin/user/ban', {
      uuid: offlineUuid(username),
      confirm: true,
      reason: 'nsfw',
    });
    expect(ban.status, await ban.clone().text()).toBe(200);

    for (const version of ['1.8.9', '1.21.11']) {
      expect(disconnectText(await runProbe(authServer.port, { username, version })), version).toBe(BANNED_MESSAGE);
    }
  });

  it('lists the site name and the number of players in the server list', async () => {
    const result = await runProbe(authServer.port, { status: true, version: '1.20.4' });
    expect(result.event).toBe('status');
    const { response } = result as Extract<ProbeResult, { event: 'status' }>;
    expect(plainText(response.description)).toBe(suite.server.config.siteName);
    expect(response.players).toMatchObject({ online: 0, max: 100 });
    expect(response.version.protocol, 'it answers in the version the game asked with').toBe(765);
  });
});

/** How long the auth server waits for the stand-in site in the failure tests. */
const SITE_TIMEOUT_MS = 6000;

describe('game auth server when the site fails', PROCESS_TESTS, () => {
  /** What the stand-in site does with the next calls: answer 500, or hold them unanswered. */
  let mode: 'error' | 'hold' = 'error';
  const calls: Array<{ authorization?: string; body: unknown }> = [];
  let onCall: (() => void) | undefined;
  /** Held calls' answers, to send when a test says so. */
  const held: http.ServerResponse[] = [];
  const site = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      calls.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
      onCall?.();
      if (mode === 'error')
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"Something broke"}');
      else held.push(response);
    });
  });
  let authServer: AuthServerProcess;

  beforeAll(async () => {
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const sitePort = (site.address() as AddressInfo).port;
    authServer = await startAuthServerProcess({
      AUTH_API_URL: `http://127.0.0.1:${sitePort}/`,
      AUTH_API_KEY: KEY,
      // Long enough that a status probe started while a join waits (a process of its own, slow on a busy machine) sees
      // it waiting.
      AUTH_API_TIMEOUT_MS: String(SITE_TIMEOUT_MS),
      AUTH_SERVER_MOTD: 'Cloakroom Test Realm',
      AUTH_SERVER_MAX_PLAYERS: '7',
    });
  });

  afterAll(async () => {
    await authServer?.stop();
    site.closeAllConnections();
    site.close();
  });

  it('sends the site the bearer key and the offline uuid without dashes; tells the player to try again when it answers an error', async () => {
    mode = 'error';
    const text = disconnectText(await runProbe(authServer.port, { username: 'Error_Joiner', version: '1.12.2' }));
    expect(text).toBe(UNAVAILABLE);
    expect(calls.at(-1)).toEqual({
      authorization: `Bearer ${KEY}`,
      body: { uuid: offlineUuid('Error_Joiner'), username: 'Error_Joiner' },
    });
    expect(authServer.log.at(-1)).toMatch(/Error_Joiner .*not available.*HTTP 500/);
  });

  it('counts a player who waits for the site in the server list', async () => {
    mode = 'hold';
    const called = new Promise<void>((resolve) => (onCall = resolve));
    const joining = runProbe(authServer.port, { username: 'Slow_Joiner', version: '1.21.11' });
    await called;
    const status = (await runProbe(authServer.port, { status: true })) as Extract<ProbeResult, { event: 'status' }>;
    expect(plainText(status.response.description)).toBe('Cloakroom Test Realm');
    expect(status.response.players).toMatchObject({ online: 1, max: 7 });

    held.shift()!.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"Something broke"}');
    expect(disconnectText(await joining)).toBe(UNAVAILABLE);
    const after = (await runProbe(authServer.port, { status: true })) as Extract<ProbeResult, { event: 'status' }>;
    expect(after.response.players.online).toBe(0);
  });

  it('tells the player to try again when the site does not answer in time', async () => {
    mode = 'hold';
    const started = Date.now();
    const text = disconnectText(await runProbe(authServer.port, { username: 'Late_Joiner', version: '1.20.4' }));
    expect(text).toBe(UNAVAILABLE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SITE_TIMEOUT_MS);
    expect(authServer.log.at(-1)).toMatch(new RegExp(`Late_Joiner .*no answer within ${SITE_TIMEOUT_MS} ms`));
  });

  it('tells the player to try again when the site cannot be reached', async () => {
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    expect(disconnectText(await runProbe(authServer.port, { username: 'Lonely_Joiner', version: '1.8.9' }))).toBe(
      UNAVAILABLE,
    );
    expect(authServer.log.at(-1)).toMatch(/Lonely_Joiner .*not available.*ECONNREFUSED/);
  });

  it('refuses to start without AUTH_API_KEY, and says why', async () => {
    const { code, output } = await runAuthServerMain({ AUTH_SERVER_PORT: '0' });
    expect(code).toBe(1);
    expect(output).toMatch(/Not starting: AUTH_API_KEY is not set/);
  });
});
