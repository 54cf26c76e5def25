// API tests for the Microsoft login (GET /api/account/oauth/redirect, POST /api/account/oauth/callback) against the
// local stand-in for Microsoft, Xbox Live, XSTS and the game services (tests/helpers/microsoft.ts).
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BANNED_ACCOUNT_MESSAGE, MICROSOFT_LOGIN_FAILURES } from '../../../src/lib/login-errors.ts';
import { backends, oneBackend, type Backend, type TestDatabase } from '../../../support/backends.ts';
import { findSetCookie, type CookieJar } from '../../helpers/cookie-jar.ts';
import {
  startMicrosoftStandIn,
  standInPlayerUuid,
  type MicrosoftStandIn,
  type StandInAccountKind,
  type StandInService,
} from '../../helpers/microsoft.ts';
import { newBrowser, randomUsername, startServer, type TestServer } from '../../helpers/server.ts';

const CLIENT_ID = '00000000-4000-8000-0000-00000000c10a';
const CLIENT_SECRET = 'stand-in-secret';
const SITE_URL = 'https://capes.example.org';
/** More than a reader that stops at its cap lets an endless answer write (the cap plus socket buffers). */
const ENDLESS_READ_BOUND = 32 * 1024 * 1024;

/** A test's Microsoft account: its name, player name and kind. */
interface TestAccount {
  account: string;
  player?: string;
  kind?: StandInAccountKind;
}

/** A fresh Microsoft account name. */
function newAccount(): string {
  return `player-${randomBytes(5).toString('hex')}@outlook.example`;
}

/** The body of a failed Microsoft login with its message. */
function failure(message: string) {
  return { message, errors: { microsoft: [message] } };
}

/** A stand-in, a database and a server using both, for one describe block. */
function microsoftSuite(backend: Backend, env: Record<string, string> = {}) {
  const suite = {} as { standIn: MicrosoftStandIn; database: TestDatabase; server: TestServer };
  beforeAll(async () => {
    suite.standIn = await startMicrosoftStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    suite.database = await backend.createDatabase();
    suite.server = await startServer(suite.database.url, {
      ...suite.standIn.env,
      PUBLIC_SITE_URL: SITE_URL,
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      ...env,
    });
  });
  afterAll(async () => {
    await suite.server?.close();
    await suite.database?.drop();
    await suite.standIn?.close();
  });
  return suite;
}

/**
 * Follows the login button and signs in on the stand-in's page as a browser would; returns what it sent the browser
 * back with.
 */
async function signIn(jar: CookieJar, account: TestAccount, ref?: string): Promise<{ code: string; state: string }> {
  const start = await jar.get(
    `/api/account/oauth/redirect${ref === undefined ? '' : `?ref=${encodeURIComponent(ref)}`}`,
  );
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('account', account.account);
  form.set('player', account.player ?? '');
  form.set('kind', account.kind ?? 'player');
  form.set('action', 'allow');
  const signedIn = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(signedIn.status).toBe(302);
  const back = new URL(signedIn.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(`${SITE_URL}/account/login`);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

/** Signs in and finishes the login in the same browser; returns the callback's answer. */
async function logInWithMicrosoft(jar: CookieJar, account: TestAccount, ref?: string): Promise<Response> {
  const { code, state } = await signIn(jar, account, ref);
  return jar.post('/api/account/oauth/callback', { code, state });
}

describe.each(backends)('Microsoft login on $name', (backend) => {
  const suite = microsoftSuite(backend);
  afterEach(() => {
    for (const service of ['token', 'xbl', 'xsts', 'game'] as const) suite.standIn.failWith(service, null);
  });

  it('the redirect call sends the browser to the sign-in page: code flow with PKCE (S256), state, the login page as redirect URI', async () => {
    const jar = await newBrowser(suite.server);
    const response = await jar.get('/api/account/oauth/redirect?ref=%2Fupload-cape');
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${suite.standIn.authorityUrl}/oauth2/v2.0/authorize`);
    const query = location.searchParams;
    expect(query.get('client_id')).toBe(CLIENT_ID);
    expect(query.get('response_type')).toBe('code');
    expect(query.get('redirect_uri')).toBe(`${SITE_URL}/account/login`);
    expect(query.get('scope')).toBe('XboxLive.signin offline_access');
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(query.get('client_secret'), 'the secret never goes to the browser').toBeNull();

    const cookie = findSetCookie(response, 'oauth_login')!;
    expect(cookie.value.length).toBeGreaterThanOrEqual(32);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie.attributes.get('path')).toBe('/api/account/oauth');
    expect(cookie.attributes.get('max-age')).toBe('600');

    const again = new URL((await jar.get('/api/account/oauth/redirect')).headers.get('location')!).searchParams;
    expect(again.get('state'), 'every login has its own state').not.toBe(query.get('state'));
    expect(again.get('code_challenge'), 'and its own PKCE verifier').not.toBe(query.get('code_challenge'));
  });

  it('logs a new player in: the account is created, the session works and the ref comes back', async () => {
    const account = newAccount();
    const uuid = standInPlayerUuid(account);
    expect(
      await suite.server.db.selectFrom('users').select('uuid').where('uuid', '=', uuid).executeTakeFirst(),
    ).toBeUndefined();

    const jar = await newBrowser(suite.server);
    const first = suite.standIn.requests.length;
    const response = await logInWithMicrosoft(jar, { account, player: 'NewFromMs' }, '/gallery/new');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      user: { uuid, username: 'NewFromMs', group: { name: 'Player', emoji: '', admin: false }, premium: null },
      ref: '/gallery/new',
      firstLogin: true,
    });
    expect(suite.standIn.requests.slice(first)).toEqual([
      'POST /consumers/oauth2/v2.0/authorize',
      'POST /consumers/oauth2/v2.0/token',
      'POST /user/authenticate',
      'POST /xsts/authorize',
      'POST /authentication/login_with_xbox',
      'GET /minecraft/profile',
    ]);
    const session = findSetCookie(response, 'session')!;
    expect(session.attributes.has('httponly')).toBe(true);
    expect(session.attributes.get('max-age')).toBe(String(30 * 86400));
    const me = await jar.get('/api/user');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ uuid, username: 'NewFromMs' });
    expect(jar.cookie('oauth_login'), 'the login is used up: its cookie is cleared').toBeUndefined();
  });

  it('sends the player home when the ref is missing or unsafe', async () => {
    for (const ref of [undefined, '//evil.example', 'https://evil.example/x']) {
      const response = await logInWithMicrosoft(await newBrowser(suite.server), { account: newAccount() }, ref);
      expect(response.status, String(ref)).toBe(200);
      expect(((await response.json()) as { ref: string }).ref, String(ref)).toBe('/');
    }
  });

  it('a returning player who changed their name keeps their account under the new name', async () => {
    const account = newAccount();
    const oldName = randomUsername('Old');
    const newName = randomUsername('New');
    const first = await logInWithMicrosoft(await newBrowser(suite.server), { account, player: oldName });
    const { user } = (await first.json()) as { user: { uuid: string; username: string } };
    expect(user.username).toBe(oldName);

    const jar = await newBrowser(suite.server);
    const second = await logInWithMicrosoft(jar, { account, player: newName });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ user: { uuid: user.uuid, username: newName } });
    expect(await (await jar.get('/api/user')).json()).toMatchObject({ uuid: user.uuid, username: newName });
    const rows = await suite.server.db.selectFrom('users').select('username').where('uuid', '=', user.uuid).execute();
    expect(rows).toEqual([{ username: newName }]);
  });

  it('refuses a wrong state, and the login cannot be finished after that', async () => {
    const jar = await newBrowser(suite.server);
    const { code, state } = await signIn(jar, { account: newAccount() });
    const wrong = await jar.post('/api/account/oauth/callback', { code, state: `${state}x` });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.expired));
    expect(findSetCookie(wrong, 'session')).toBeUndefined();
    expect(jar.cookie('oauth_login'), 'the used-up login cookie is cleared on a failure too').toBeUndefined();

    const right = await jar.post('/api/account/oauth/callback', { code, state });
    expect(right.status, 'one use: a wrong try ends the login').toBe(400);
    expect(jar.cookie('session')).toBeUndefined();
  });

  it('refuses a replayed code and state: the second use fails, with a new sign-in too', async () => {
    const jar = await newBrowser(suite.server);
    const { code, state } = await signIn(jar, { account: newAccount() });
    expect((await jar.post('/api/account/oauth/callback', { code, state })).status).toBe(200);

    const replay = await jar.post('/api/account/oauth/callback', { code, state });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.expired));

    // The same code with a fresh login's state and verifier: Microsoft refuses a code that was redeemed already.
    const other = await newBrowser(suite.server);
    const fresh = await signIn(other, { account: newAccount() });
    const reused = await other.post('/api/account/oauth/callback', { code, state: fresh.state });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.expired));
    expect(other.cookie('session')).toBeUndefined();
  });

  it('only the browser that started the login can finish it, within 10 minutes', async () => {
    const starter = await newBrowser(suite.server);
    const { code, state } = await signIn(starter, { account: newAccount() });
    const stranger = await newBrowser(suite.server);
    const response = await stranger.post('/api/account/oauth/callback', { code, state });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.expired));
    expect(stranger.cookie('session')).toBeUndefined();

    const late = await newBrowser(suite.server);
    const pending = await signIn(late, { account: newAccount() });
    await suite.server.db
      .updateTable('oauth_logins')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const expired = await late.post('/api/account/oauth/callback', pending);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.expired));
  });

  it('refuses a callback without a code or state, and one without the XSRF header (419)', async () => {
    const jar = await newBrowser(suite.server);
    const { code, state } = await signIn(jar, { account: newAccount() });
    const noXsrf = await jar.post('/api/account/oauth/callback', { code, state }, { 'x-xsrf-token': 'wrong' });
    expect(noXsrf.status).toBe(419);
    for (const body of [{ state }, { code }, { code: '', state }, { code: 42, state }]) {
      await signIn(jar, { account: newAccount() });
      const response = await jar.post('/api/account/oauth/callback', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.expired));
    }
  });

  it.each([
    ['an account without an Xbox profile (XErr 2148916233)', 'noXbox', MICROSOFT_LOGIN_FAILURES.noXboxAccount],
    ['a child account outside a family (XErr 2148916238)', 'child', MICROSOFT_LOGIN_FAILURES.childAccount],
    ['an account that does not own the game (no profile)', 'noGame', MICROSOFT_LOGIN_FAILURES.noGame],
  ] as const)('refuses %s with its message (403) and creates no account', async (_label, kind, message) => {
    const account = newAccount();
    const jar = await newBrowser(suite.server);
    const response = await logInWithMicrosoft(jar, { account, kind });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(failure(message));
    expect(jar.cookie('session')).toBeUndefined();
    const row = await suite.server.db
      .selectFrom('users')
      .select('uuid')
      .where('uuid', '=', standInPlayerUuid(account))
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('refuses a banned player with the ban message (403) and starts no session', async () => {
    const account = newAccount();
    const first = await logInWithMicrosoft(await newBrowser(suite.server), { account });
    expect(first.status).toBe(200);
    await suite.server.db
      .updateTable('users')
      .set({ banned: 1 })
      .where('uuid', '=', standInPlayerUuid(account))
      .execute();

    const jar = await newBrowser(suite.server);
    const response = await logInWithMicrosoft(jar, { account });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(failure(BANNED_ACCOUNT_MESSAGE));
    expect(jar.cookie('session')).toBeUndefined();
  });

  it.each([
    ['token', 503],
    ['token', 'reset'],
    ['xbl', 500],
    ['xbl', 'reset'],
    ['xsts', 503],
    ['game', 429],
    ['game', 'reset'],
  ] as Array<[StandInService, number | 'reset']>)(
    'answers 502 with a try-again message when %s fails (%s)',
    async (service, how) => {
      suite.standIn.failWith(service, how);
      const jar = await newBrowser(suite.server);
      const response = await logInWithMicrosoft(jar, { account: newAccount() });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.unavailable));
      expect(jar.cookie('session')).toBeUndefined();
    },
  );

  it.each(['token', 'xsts'] as StandInService[])(
    'stops reading an endless answer from %s at its cap and answers 502 with a try-again message',
    async (service) => {
      const { bytesSent, cutShort } = suite.standIn.hostile;
      suite.standIn.failWith(service, 'endless');
      const jar = await newBrowser(suite.server);
      const response = await logInWithMicrosoft(jar, { account: newAccount() });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.unavailable));
      // The server hung up after its 64 KB (what the stand-in wrote before that is in socket buffers), not 1.5 GB
      // later.
      await vi.waitFor(() => expect(suite.standIn.hostile.cutShort - cutShort).toBe(1));
      expect(suite.standIn.hostile.bytesSent - bytesSent).toBeLessThan(ENDLESS_READ_BOUND);
    },
    30_000,
  );

  it('answers 502 when Microsoft cannot be reached at all', async () => {
    const database = await backend.createDatabase();
    const server = await startServer(database.url, {
      ...suite.standIn.env,
      // A port nothing listens on.
      MICROSOFT_AUTHORITY_URL: `${await closedPortUrl()}/consumers`,
      PUBLIC_SITE_URL: SITE_URL,
    });
    try {
      const jar = await newBrowser(server);
      const start = await jar.get('/api/account/oauth/redirect');
      const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
      const response = await jar.post('/api/account/oauth/callback', { code: 'M.C5_BAY.2.U.unreachable', state });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual(failure(MICROSOFT_LOGIN_FAILURES.unavailable));
    } finally {
      await server.close();
      await database.drop();
    }
  });
});

describe.each([oneBackend])('Microsoft login callback rate limit on $name', (backend) => {
  const suite = microsoftSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '2' });

  it('answers 429 after LOGIN_ATTEMPTS_PER_MINUTE callbacks from one address', async () => {
    const jar = await newBrowser(suite.server);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const response = await jar.post('/api/account/oauth/callback', { code: 'x', state: 'y' });
      expect(response.status, `attempt ${attempt}`).toBe(400);
    }
    const blocked = await logInWithMicrosoft(jar, { account: newAccount() });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ error: 'Too many attempts. Wait a minute and try again.' });
    expect(jar.cookie('session')).toBeUndefined();
  });
});

describe.each([oneBackend])('Microsoft login start rate limit on $name', (backend) => {
  const suite = microsoftSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '2' });

  it('answers 429 after LOGIN_ATTEMPTS_PER_MINUTE started logins from one address (each keeps a row for 10 minutes)', async () => {
    const jar = await newBrowser(suite.server);
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++)
      statuses.push((await jar.get('/api/account/oauth/redirect?ref=/')).status);
    expect(statuses).toEqual([302, 302, 429]);
  });
});

/** The URL of a local port that nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
