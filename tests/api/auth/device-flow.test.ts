// API tests of signing in from a launcher or mod with the OAuth 2.0 device flow, on both databases, driven by an
// off-the-shelf OAuth library (openid-client) that knows nothing of this site but its address: discovery, a sign-in
// the player approves, denies or lets expire, slow_down, scopes refused, refresh token rotation, revocation, and an
// access token changing the player's cape as the mod API shows it, without cookies or XSRF header.
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_SCOPE_NAMES } from '../../../src/lib/app-scopes.ts';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import {
  decide,
  DEVICE_CODE_GRANT,
  discover,
  pollOnce,
  refusalOf,
  registerApp,
  serverAtItsAddress,
  uploadCapeWithToken,
} from '../../helpers/device-flow.ts';
import { galleryForm, TEXTURE_URL } from '../../helpers/gallery.ts';
import { modProfile } from '../../helpers/mod-profile.ts';
import { loginNewUser, newBrowser, type LoggedIn } from '../../helpers/server.ts';

/** The code and poll timings of this suite: short, so that expiry and slow_down take seconds. */
const CODE_SECONDS = 5;
const INTERVAL_SECONDS = 1;

/** The letters of a user code as XXXX-XXXX. */
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

describe.each(backends)('the device flow on $name', (backend) => {
  const suite = serverAtItsAddress(backend, {
    OAUTH_DEVICE_CODE_SECONDS: String(CODE_SECONDS),
    OAUTH_POLL_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
    PUBLIC_SITE_URL: 'https://capes.example',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    OAUTH_DEVICE_REQUESTS_PER_MINUTE: '1000',
  });
  let clientId: string;
  let config: client.Configuration;
  let colour = 0;
  beforeAll(async () => {
    clientId = await registerApp(suite.database, 'Test Launcher');
    config = await discover(suite.server, clientId);
  });

  /** A player who approved a sign-in for `scope`: the player and the app's first tokens. */
  async function signedIn(scope: string, player?: LoggedIn) {
    const who = player ?? (await loginNewUser(suite.server));
    const started = await client.initiateDeviceAuthorization(config, { scope });
    expect((await decide(who.jar, started.user_code, 'approve')).status).toBe(200);
    const tokens = await client.pollDeviceAuthorizationGrant(config, started);
    return { player: who, tokens };
  }

  /** The hash of a texture URL. */
  const hashOf = (url: string | null | undefined) => TEXTURE_URL.exec(url ?? '')?.[1] ?? null;

  it('publishes its endpoints, grant types and scopes where a library discovers them (RFC 8414)', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(suite.server.url);
    expect(metadata.device_authorization_endpoint).toBe(`${suite.server.url}/oauth/device_authorization`);
    expect(metadata.token_endpoint).toBe(`${suite.server.url}/oauth/token`);
    expect(metadata.revocation_endpoint).toBe(`${suite.server.url}/oauth/revoke`);
    expect(metadata.grant_types_supported).toEqual([DEVICE_CODE_GRANT, 'refresh_token']);
    expect(metadata.scopes_supported).toEqual(APP_SCOPE_NAMES);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['none']);
  });

  it('signs a player in once they approve the code: the app uploads a cape with its token alone, as the mod API then shows', async () => {
    const player = await loginNewUser(suite.server);
    const started = await client.initiateDeviceAuthorization(config, { scope: 'textures:upload wardrobe:read' });
    expect(started.user_code).toMatch(USER_CODE);
    expect(started.verification_uri).toBe('https://capes.example/device');
    expect(started.verification_uri_complete).toBe(`https://capes.example/device?user_code=${started.user_code}`);
    expect(started.expires_in).toBe(CODE_SECONDS);
    expect(started.interval).toBe(INTERVAL_SECONDS);

    // The page shows the app and what it asks for, whatever case and dash the player typed the code in.
    const typed = started.user_code.replace('-', ' ').toLowerCase();
    const shown = await player.jar.get(`/api/device?code=${encodeURIComponent(typed)}`);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      userCode: started.user_code,
      appName: 'Test Launcher',
      scopes: ['wardrobe:read', 'textures:upload'],
    });
    const approved = await decide(player.jar, started.user_code, 'approve');
    expect(await approved.json()).toEqual({ success: true, appName: 'Test Launcher', decision: 'approved' });
    // The code is decided once.
    expect((await decide(player.jar, started.user_code, 'approve')).status).toBe(409);

    const tokens = await client.pollDeviceAuthorizationGrant(config, started);
    // The tokens are taken once.
    expect(await refusalOf(client.pollDeviceAuthorizationGrant(config, started))).toBe('invalid_grant');
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('wardrobe:read textures:upload');
    expect(tokens.expiresIn()).toBeGreaterThan(0);
    expect(tokens.refresh_token).toBeTruthy();

    const cape = await solidPng(64, 32, frameColour(900 + colour++));
    const uploaded = await uploadCapeWithToken(suite.server, tokens.access_token, cape);
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const shownCape = hashOf(((await uploaded.json()) as { cape: string }).cape);
    expect(shownCape).toBeTruthy();
    expect(hashOf((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(shownCape);
  });

  it('switches the player’s cape from their wardrobe with its token: wardrobe:read lists it, wardrobe:write wears', async () => {
    const player = await loginNewUser(suite.server);
    const capes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const uploaded = await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(950 + colour++)));
      capes.push(hashOf(((await uploaded.json()) as { cape: string }).cape)!);
    }
    const { tokens } = await signedIn('wardrobe:read wardrobe:write', player);
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const listed = await fetch(`${suite.server.url}/api/wardrobe`, { headers: bearer });
    expect(listed.status, await listed.clone().text()).toBe(200);
    const { items } = (await listed.json()) as { items: Array<{ id: string; texture: string; worn: boolean }> };
    const older = items.find((item) => hashOf(item.texture) === capes[0])!;
    expect(older.worn).toBe(false);

    const worn = await fetch(`${suite.server.url}/api/wardrobe/wear`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ id: older.id }),
    });
    expect(worn.status, await worn.clone().text()).toBe(200);
    expect(hashOf((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(capes[0]);

    // A token for uploads only may not read or change the wardrobe.
    const { tokens: uploadOnly } = await signedIn('textures:upload', player);
    const refused = await fetch(`${suite.server.url}/api/wardrobe`, {
      headers: { authorization: `Bearer ${uploadOnly.access_token}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  it('takes the cape off and wears a gallery item with a wardrobe:write token; a token for uploads only may do neither', async () => {
    const author = await loginNewUser(suite.server);
    const picture = await solidPng(64, 32, frameColour(970 + colour++));
    const form = galleryForm({ title: 'Launcher pick', tags: ['cute'], file: picture });
    const shared = await author.jar.sendForm('POST', '/api/gallery/new', form);
    expect(shared.status, await shared.clone().text()).toBe(201);
    const item = ((await shared.json()) as { hash: string }).hash;

    const player = await loginNewUser(suite.server);
    const { tokens: uploadOnly } = await signedIn('textures:upload', player);
    const { tokens } = await signedIn('wardrobe:write', player);
    const call = (access: string, method: string, path: string, body?: unknown) =>
      fetch(`${suite.server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${access}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const notAllowed = await call(uploadOnly.access_token, 'POST', '/api/gallery/wear', { hash: item });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.headers.get('www-authenticate')).toContain('scope="wardrobe:write"');
    expect((await modProfile(suite.server.url, player.uuid)).cape_url).toBeNull();

    const worn = await call(tokens.access_token, 'POST', '/api/gallery/wear', { hash: item });
    expect(worn.status, await worn.clone().text()).toBe(200);
    expect(hashOf((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(item);

    expect((await call(uploadOnly.access_token, 'DELETE', '/api/upload-cape')).status).toBe(403);
    expect(hashOf((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(item);
    const takenOff = await call(tokens.access_token, 'DELETE', '/api/upload-cape');
    expect(takenOff.status, await takenOff.clone().text()).toBe(200);
    expect(await takenOff.json()).toEqual({ success: true, cape: null });
    expect((await modProfile(suite.server.url, player.uuid)).cape_url).toBeNull();
  });

  it('acts for the token’s player only, within its scopes, and never on the cookies sent beside it', async () => {
    const { player, tokens } = await signedIn('textures:upload');
    const other = await loginNewUser(suite.server);
    const cape = await solidPng(64, 32, frameColour(900 + colour++));
    // The other player's cookies (and their XSRF header) ride along: the token decides whose cape it is.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(cape)], { type: 'image/png' }), 'cape.png');
    const mixed = await other.jar.sendForm('POST', '/api/upload-cape', form, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(mixed.status, await mixed.clone().text()).toBe(200);
    const hash = hashOf(((await mixed.json()) as { cape: string }).cape);
    expect(hashOf((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(hash);
    expect((await modProfile(suite.server.url, other.uuid)).cape_url).toBeNull();

    // A route that declares no scope takes no token: sharing the cape to the gallery needs the player's session (and
    // the XSRF header of a site call, which a call without the site's cookies cannot have: 419).
    const shared = await fetch(`${suite.server.url}/api/gallery/new`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}` },
      body: galleryForm({ title: 'Not with a token', tags: ['cute'], file: cape }),
    });
    expect(shared.status).toBe(419);
    const listed = await other.jar.get(`/api/gallery/${hash}`);
    expect(listed.status).toBe(404);
  });

  it('answers a wrong token 401 invalid_token, a token without the scope 403 insufficient_scope, and no credentials with the challenge', async () => {
    const cape = await solidPng(64, 32, frameColour(900 + colour++));
    const wrong = await uploadCapeWithToken(suite.server, 'not-a-token', cape);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);

    const { tokens } = await signedIn('wardrobe:read');
    const narrow = await uploadCapeWithToken(suite.server, tokens.access_token, cape);
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope", .*scope="textures:upload"$/,
    );
    // The player approved the app; this token just does not carry the scope (a narrower code or refresh).
    expect(((await narrow.json()) as { error: string }).error).toBe(
      'This call needs the textures:upload scope, which this access token does not carry: ask for a code with that scope.',
    );

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(cape)], { type: 'image/png' }), 'cape.png');
    const anonymous = await (await newBrowser(suite.server)).sendForm('POST', '/api/upload-cape', form);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer scope="textures:upload"');
  });

  it('tells the app access_denied when the player denies, and the code is then used up', async () => {
    const player = await loginNewUser(suite.server);
    const started = await client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read' });
    const denied = await decide(player.jar, started.user_code, 'deny');
    expect(await denied.json()).toEqual({ success: true, appName: 'Test Launcher', decision: 'denied' });
    expect(await refusalOf(client.pollDeviceAuthorizationGrant(config, started))).toBe('access_denied');
    const again = await decide(player.jar, started.user_code, 'approve');
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe(
      'That code has already been used. If your app is not signed in, start signing in again there.',
    );
  });

  it('tells the app expired_token once the code outlives its time, and the page says the code expired', async () => {
    const player = await loginNewUser(suite.server);
    const started = await client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read' });
    // The library polls past the code's lifetime, so that the server's own answer ends it.
    const polled = client.pollDeviceAuthorizationGrant(config, started, undefined, {
      signal: AbortSignal.timeout(60_000),
    });
    expect(await refusalOf(polled)).toBe('expired_token');
    const shown = await player.jar.get(`/api/device?code=${started.user_code}`);
    expect(shown.status).toBe(410);
    expect(((await shown.json()) as { error: string }).error).toBe(
      'That code has expired. Start signing in again in your app to get a new code.',
    );
  });

  it('answers slow_down to a poll within the interval, and adds 5 seconds to it each time', async () => {
    const started = await client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read' });
    const first = await pollOnce(suite.server, clientId, started.device_code);
    expect(first.status).toBe(400);
    expect(((await first.json()) as { error: string }).error).toBe('authorization_pending');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const early = await pollOnce(suite.server, clientId, started.device_code);
    expect(((await early.json()) as { error: string }).error).toBe('slow_down');
    // Past the first interval, but within the one slow_down made it (1 + 5 seconds).
    await new Promise((resolve) => setTimeout(resolve, (INTERVAL_SECONDS + 0.5) * 1000));
    const stillEarly = await pollOnce(suite.server, clientId, started.device_code);
    const body = (await stillEarly.json()) as { error: string; error_description: string };
    expect(body.error).toBe('slow_down');
    expect(body.error_description).toBe(`Polled too soon: wait ${INTERVAL_SECONDS + 10} seconds between polls.`);
  });

  it('refuses scopes that do not exist, no scope, an unknown app and other grant types, with the RFC error codes', async () => {
    expect(await refusalOf(client.initiateDeviceAuthorization(config, { scope: 'wardrobe:admin' }))).toBe(
      'invalid_scope',
    );
    expect(await refusalOf(client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read skins:all' }))).toBe(
      'invalid_scope',
    );
    expect(await refusalOf(client.initiateDeviceAuthorization(config, {}))).toBe('invalid_scope');
    const stranger = await discover(suite.server, 'no-such-app');
    expect(await refusalOf(client.initiateDeviceAuthorization(stranger, { scope: 'wardrobe:read' }))).toBe(
      'invalid_client',
    );

    const form = (fields: Record<string, string>) =>
      fetch(`${suite.server.url}/oauth/token`, { method: 'POST', body: new URLSearchParams(fields) });
    const refused = async (answer: Promise<Response>) => {
      const response = await answer;
      return { status: response.status, error: ((await response.json()) as { error: string }).error };
    };
    expect(await refused(form({ grant_type: 'client_credentials', client_id: clientId }))).toEqual({
      status: 400,
      error: 'unsupported_grant_type',
    });
    expect(await refused(form({ grant_type: DEVICE_CODE_GRANT, client_id: clientId }))).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    expect(await refused(form({ grant_type: DEVICE_CODE_GRANT, client_id: 'no-such-app', device_code: 'x' }))).toEqual({
      status: 401,
      error: 'invalid_client',
    });
    // Text no client_id could be (a NUL byte, which PostgreSQL cannot even compare) is an unknown app too.
    expect(
      await refused(form({ grant_type: DEVICE_CODE_GRANT, client_id: `${clientId}\u0000`, device_code: 'x' })),
    ).toEqual({
      status: 401,
      error: 'invalid_client',
    });
    expect(await refused(form({ grant_type: DEVICE_CODE_GRANT, client_id: clientId, device_code: 'x' }))).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
    const json = fetch(`${suite.server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: DEVICE_CODE_GRANT, client_id: clientId, device_code: 'x' }),
    });
    expect(await refused(json)).toEqual({ status: 400, error: 'invalid_request' });
    const twice = fetch(`${suite.server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&client_id=${clientId}&refresh_token=a&refresh_token=b`,
    });
    expect(await refused(twice)).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('rotates the refresh token on each use; an old one sent again ends the connection', async () => {
    const { tokens } = await signedIn('textures:upload');
    const renewed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect(renewed.access_token).not.toBe(tokens.access_token);
    expect(renewed.scope).toBe('textures:upload');
    const cape = await solidPng(64, 32, frameColour(900 + colour++));
    expect((await uploadCapeWithToken(suite.server, renewed.access_token, cape)).status).toBe(200);

    // A narrower access token may be asked for, never a wider one.
    expect(await refusalOf(client.refreshTokenGrant(config, renewed.refresh_token!, { scope: 'wardrobe:write' }))).toBe(
      'invalid_scope',
    );

    // The first refresh token again: someone holds a copy, so the whole connection ends.
    expect(await refusalOf(client.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await uploadCapeWithToken(suite.server, renewed.access_token, cape)).status).toBe(401);
    expect(await refusalOf(client.refreshTokenGrant(config, renewed.refresh_token!))).toBe('invalid_grant');
  });

  it('ends the connection when the app revokes its token (RFC 7009), and answers the same for a token it does not know', async () => {
    const { player, tokens } = await signedIn('textures:upload');
    const apps = async () => ((await (await player.jar.get('/api/account/apps')).json()) as { apps: unknown[] }).apps;
    expect(await apps()).toHaveLength(1);
    await client.tokenRevocation(config, tokens.refresh_token!);
    expect(await apps()).toEqual([]);
    const cape = await solidPng(64, 32, frameColour(900 + colour++));
    expect((await uploadCapeWithToken(suite.server, tokens.access_token, cape)).status).toBe(401);
    expect(await refusalOf(client.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    await client.tokenRevocation(config, 'never-issued');
  });
});
