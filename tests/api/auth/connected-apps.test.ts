// API tests of a player's and the operators' side of apps signed in with a code, on both databases: the /device page's
// calls (wrong, malformed and too many codes) and the app a visitor's code names, the connected apps list (an app
// connected twice listed twice) and its revoke with the connections left, a ban and an account deletion ending every
// connection, the registered apps in the admin area and the operator CLI, each change in the audit log with who did it.
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../server/auth/secrets.ts';
import { deviceMessages, normalizeUserCode } from '../../../src/lib/device-codes.ts';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { runCli } from '../../helpers/cli.ts';
import {
  decide,
  discover,
  refusalOf,
  registerApp,
  serverAtItsAddress,
  uploadCapeWithToken,
} from '../../helpers/device-flow.ts';
import { loginNewUser, newBrowser, type LoggedIn } from '../../helpers/server.ts';

/** Codes one player may enter a minute in this suite. */
const CODE_ENTRIES = 4;
/** Sign-in codes one address may ask for a minute in this suite. */
const DEVICE_REQUESTS = 24;

describe.each(backends)('connected apps on $name', (backend) => {
  const suite = serverAtItsAddress(backend, {
    OAUTH_POLL_INTERVAL_SECONDS: '1',
    OAUTH_CODE_ENTRIES_PER_MINUTE: String(CODE_ENTRIES),
    OAUTH_DEVICE_REQUESTS_PER_MINUTE: String(DEVICE_REQUESTS),
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
  });
  let admin: LoggedIn;
  let clientId: string;
  let config: client.Configuration;
  let colour = 0;
  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
    clientId = await registerApp(suite.database, 'Pixel Launcher');
    config = await discover(suite.server, clientId);
  });

  /** Signs `player` in to an app (the suite's unless given) with the scopes; the app's tokens. */
  async function connect(player: LoggedIn, scope = 'textures:upload', app = config) {
    const started = await client.initiateDeviceAuthorization(app, { scope });
    expect((await decide(player.jar, started.user_code, 'approve')).status).toBe(200);
    return client.pollDeviceAuthorizationGrant(app, started);
  }

  /** Whether a token still changes the player's cape. */
  async function tokenWorks(accessToken: string): Promise<boolean> {
    const cape = await solidPng(64, 32, frameColour(700 + colour++));
    const status = (await uploadCapeWithToken(suite.server, accessToken, cape)).status;
    expect([200, 401]).toContain(status);
    return status === 200;
  }

  /** The player's connected apps, as the account page lists them. */
  async function appsOf(player: LoggedIn) {
    const response = await player.jar.get('/api/account/apps');
    expect(response.status).toBe(200);
    return (
      (await response.json()) as {
        apps: Array<{ id: number; clientId: string; name: string; scopes: string[]; connectedAt: number }>;
      }
    ).apps;
  }

  /** A row of the audit log as these tests read it. */
  type AuditRow = { action: string; admin_name: string; actor_kind: string; detail: string };

  /** The audit rows about a player (and, with `by`, only those done by that name), newest first. */
  async function auditRowsOf(uuid: string, by?: string) {
    const response = await admin.jar.get(
      `/api/admin/audit?player=${uuid}${by === undefined ? '' : `&admin=${encodeURIComponent(by)}`}`,
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: AuditRow[] }).data;
  }

  /** The audit rows about a player, newest first: action, who, and what changed. */
  async function auditOf(uuid: string) {
    return (await auditRowsOf(uuid)).map((row) => [row.action, row.admin_name, row.detail]);
  }

  /** A pending code's row ends its time: it expired a moment ago. */
  async function expire(userCode: string) {
    await suite.server.db
      .updateTable('oauth_device_requests')
      .set({ expires_at: Date.now() - 1000 })
      .where('user_code_hash', '=', hashSecret(normalizeUserCode(userCode)))
      .execute();
  }

  it('says what is wrong with a code: malformed (422), unknown (404), and too many tries (429); visitors log in first', async () => {
    const player = await loginNewUser(suite.server);
    const malformed = await player.jar.get('/api/device?code=ABC');
    expect(malformed.status).toBe(422);
    expect(((await malformed.json()) as { message: string }).message).toBe(
      'Enter the 8-letter code your app shows, like BCDF-GHJK.',
    );
    // Vowels are never in a code.
    expect((await player.jar.post('/api/device/approve', { code: 'AEIO-UAEI' })).status).toBe(422);
    const unknown = await decide(player.jar, 'BCDF-GHJK', 'approve');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe(
      'That code is not right. Check the code your app shows and type it again.',
    );
    expect((await decide(player.jar, 'BCDF-GHJK', 'deny')).status).toBe(404);
    // Each call counts the player's tries apart: the lookup has had one.
    for (let tries = 1; tries < CODE_ENTRIES; tries++)
      expect((await player.jar.get('/api/device?code=BCDF-GHJK')).status).toBe(404);
    const tooMany = await player.jar.get('/api/device?code=BCDF-GHJK');
    expect(tooMany.status).toBe(429);
    expect(((await tooMany.json()) as { error: string }).error).toBe(
      'Too many codes tried. Wait a minute and try again.',
    );
    expect((await (await newBrowser(suite.server)).get('/api/device?code=BCDF-GHJK')).status).toBe(401);
  });

  it('names the app of a waiting code to a visitor; an unknown, expired or used code is 404 in words; too many tries 429', async () => {
    const visitor = await newBrowser(suite.server);
    const player = await loginNewUser(suite.server);
    const waiting = await client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read' });
    // Typed as a player might: small letters, no dash.
    const named = await visitor.get(`/api/device/app?code=${waiting.user_code.replace('-', '').toLowerCase()}`);
    expect(named.status).toBe(200);
    expect(await named.json()).toEqual({ appName: 'Pixel Launcher' });

    const refusal = async (code: string) => {
      const response = await visitor.get(`/api/device/app?code=${code}`);
      return [response.status, ((await response.json()) as { error: string }).error];
    };
    expect(await refusal('BCDF-GHJK')).toEqual([404, deviceMessages.wrongCode]);
    const expiring = await client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read' });
    await expire(expiring.user_code);
    expect(await refusal(expiring.user_code)).toEqual([404, deviceMessages.expired]);
    expect((await decide(player.jar, waiting.user_code, 'approve')).status).toBe(200);
    expect(await refusal(waiting.user_code)).toEqual([404, deviceMessages.used]);

    // The visitor's address has had its tries this minute; a logged-in player's tries are their own.
    expect(await refusal(waiting.user_code)).toEqual([429, deviceMessages.tooManyTries]);
    const malformed = await player.jar.get('/api/device/app?code=ABC');
    expect(malformed.status).toBe(422);
    expect(((await malformed.json()) as { message: string }).message).toBe(deviceMessages.incomplete);
  });

  it('lists each connection of an app apart; revoking one answers how many connections of that app remain', async () => {
    const player = await loginNewUser(suite.server);
    const otherApp = await discover(suite.server, await registerApp(suite.database, 'Other Launcher'));
    const first = await connect(player, 'wardrobe:read');
    const second = await connect(player, 'textures:upload');
    const elsewhere = await connect(player, 'textures:upload', otherApp);
    const apps = await appsOf(player);
    expect(apps.map((app) => [app.name, app.scopes])).toEqual([
      ['Other Launcher', ['textures:upload']],
      ['Pixel Launcher', ['textures:upload']],
      ['Pixel Launcher', ['wardrobe:read']],
    ]);
    expect(apps[1]!.clientId).toBe(clientId);
    expect(apps[2]!.clientId).toBe(clientId);
    expect(apps[0]!.clientId).not.toBe(clientId);
    expect(apps[1]!.connectedAt).toBeGreaterThanOrEqual(apps[2]!.connectedAt);

    // The first connection of Pixel Launcher ends; its second keeps working (the other app's does not count).
    const revoked = await player.jar.post('/api/account/apps/revoke', { id: apps[2]!.id });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ success: true, appName: 'Pixel Launcher', remainingConnections: 1 });
    expect(await tokenWorks(first.access_token)).toBe(false);
    expect(await tokenWorks(second.access_token)).toBe(true);

    const last = await player.jar.post('/api/account/apps/revoke', { id: apps[1]!.id });
    expect(await last.json()).toEqual({ success: true, appName: 'Pixel Launcher', remainingConnections: 0 });
    expect(await tokenWorks(second.access_token)).toBe(false);
    expect(await tokenWorks(elsewhere.access_token)).toBe(true);
    expect((await appsOf(player)).map((app) => app.name)).toEqual(['Other Launcher']);
  });

  it('names who ended each connection in the audit log: the player, the app, the sign-in service, a moderator', async () => {
    const player = await loginNewUser(suite.server);
    // The first connection is kept until the ban; the second the player revokes.
    await connect(player);
    const byPlayer = await connect(player);
    const [newest] = await appsOf(player);
    expect((await player.jar.post('/api/account/apps/revoke', { id: newest!.id })).status).toBe(200);
    expect(await tokenWorks(byPlayer.access_token)).toBe(false);
    // The app signs a connection out itself.
    const byApp = await connect(player);
    await client.tokenRevocation(config, byApp.refresh_token!);
    // A refresh token sent twice: the sign-in service ends the connection.
    const copied = await connect(player);
    await client.refreshTokenGrant(config, copied.refresh_token!);
    expect(await refusalOf(client.refreshTokenGrant(config, copied.refresh_token!))).toBe('invalid_grant');
    // The ban ends what is left (the connection the player kept).
    expect(
      (await admin.jar.post('/api/admin/user/ban', { uuid: player.uuid, confirm: true, reason: 'other' })).status,
    ).toBe(200);

    const ends = (await auditRowsOf(player.uuid))
      .filter((row) => row.action === 'APP_REVOKE')
      .map((row) => [row.actor_kind, row.admin_name, row.detail]);
    expect(ends).toEqual([
      ['moderator', admin.username, 'Pixel Launcher: the player was banned'],
      ['system', 'Sign-in service', 'Pixel Launcher: a used refresh token came again'],
      ['app', 'Pixel Launcher', 'Pixel Launcher: signed out by the app'],
      ['player', player.username, 'Pixel Launcher: revoked by the player'],
    ]);
    expect((await auditRowsOf(player.uuid)).find((row) => row.action === 'APP_APPROVE')?.actor_kind).toBe('player');
    // The By filter takes any of those names, spaces and all, in any case.
    expect((await auditRowsOf(player.uuid, 'pixel launcher')).map((row) => row.detail)).toEqual([
      'Pixel Launcher: signed out by the app',
    ]);
    expect((await auditRowsOf(player.uuid, 'Sign-in service')).map((row) => row.actor_kind)).toEqual(['system']);
  });

  it('finds what an app did by its name as registered or in any other case, whatever its letters', async () => {
    const name = 'Écran Лаунчер';
    const app = await discover(suite.server, await registerApp(suite.database, name));
    const player = await loginNewUser(suite.server);
    const tokens = await connect(player, 'textures:upload', app);
    await client.tokenRevocation(app, tokens.refresh_token!);
    for (const typed of [name, 'écran лаунчер', 'ÉCRAN ЛАУНЧЕР'])
      expect((await auditRowsOf(player.uuid, typed)).map((row) => [row.actor_kind, row.detail])).toEqual([
        ['app', `${name}: signed out by the app`],
      ]);
  });

  it("lists the player's connected apps with what each may do, and revoking one stops its token at once", async () => {
    const player = await loginNewUser(suite.server);
    const other = await loginNewUser(suite.server);
    const tokens = await connect(player, 'textures:upload wardrobe:read');
    const apps = await appsOf(player);
    expect(apps).toMatchObject([{ name: 'Pixel Launcher', scopes: ['wardrobe:read', 'textures:upload'] }]);
    expect(await appsOf(other)).toEqual([]);

    // Another player cannot revoke it.
    const foreign = await other.jar.post('/api/account/apps/revoke', { id: apps[0]!.id });
    expect(foreign.status).toBe(404);
    expect(await tokenWorks(tokens.access_token)).toBe(true);

    expect((await player.jar.post('/api/account/apps/revoke', { id: apps[0]!.id })).status).toBe(200);
    expect(await appsOf(player)).toEqual([]);
    expect(await tokenWorks(tokens.access_token)).toBe(false);
    expect((await player.jar.post('/api/account/apps/revoke', { id: apps[0]!.id })).status).toBe(404);
  });

  it('writes every approval, denial and revocation into the audit log, as done by the player', async () => {
    const player = await loginNewUser(suite.server);
    const denied = await client.initiateDeviceAuthorization(config, { scope: 'wardrobe:read' });
    expect((await decide(player.jar, denied.user_code, 'deny')).status).toBe(200);
    await connect(player, 'wardrobe:write');
    const [app] = await appsOf(player);
    expect((await player.jar.post('/api/account/apps/revoke', { id: app!.id })).status).toBe(200);
    expect(await auditOf(player.uuid)).toEqual([
      ['APP_REVOKE', player.username, 'Pixel Launcher: revoked by the player'],
      ['APP_APPROVE', player.username, 'Pixel Launcher: wardrobe:write'],
      ['APP_DENY', player.username, 'Pixel Launcher: wardrobe:read'],
    ]);
  });

  it('ends every connection of a banned player, and the unban does not bring them back', async () => {
    const player = await loginNewUser(suite.server);
    const tokens = await connect(player);
    const ban = await admin.jar.post('/api/admin/user/ban', { uuid: player.uuid, confirm: true, reason: 'other' });
    expect(ban.status).toBe(200);
    expect(await tokenWorks(tokens.access_token)).toBe(false);
    expect(await refusalOf(client.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await admin.jar.post('/api/admin/bans/user/delete', { uuid: player.uuid })).status).toBe(200);
    expect(await tokenWorks(tokens.access_token)).toBe(false);
    expect((await auditOf(player.uuid)).map(([action, , detail]) => [action, detail])).toContainEqual([
      'APP_REVOKE',
      'Pixel Launcher: the player was banned',
    ]);
  });

  it('ends every connection of a deleted account', async () => {
    const player = await loginNewUser(suite.server);
    const tokens = await connect(player);
    expect((await player.jar.post('/api/account/delete', { confirm: true })).status).toBe(200);
    expect(await tokenWorks(tokens.access_token)).toBe(false);
    const left = await suite.server.db
      .selectFrom('oauth_grants')
      .select('id')
      .where('user_uuid', '=', player.uuid)
      .execute();
    expect(left).toEqual([]);
    expect(await auditOf(player.uuid)).toContainEqual([
      'APP_REVOKE',
      player.username,
      'Pixel Launcher: the account was deleted',
    ]);
  });

  it('lists the registered apps to admins only; removing one ends its connections and is audited', async () => {
    const removable = await registerApp(suite.database, 'Short Lived Mod');
    const app = await discover(suite.server, removable);
    const player = await loginNewUser(suite.server);
    const tokens = await connect(player, 'wardrobe:read textures:upload', app);

    expect((await player.jar.get('/api/admin/oauth-clients')).status).toBe(403);
    expect((await player.jar.post('/api/admin/oauth-clients/delete', { clientId: removable })).status).toBe(403);
    const listed = await admin.jar.get('/api/admin/oauth-clients');
    const rows = ((await listed.json()) as { data: Array<{ clientId: string; name: string; connections: number }> })
      .data;
    expect(rows.find((row) => row.clientId === removable)).toMatchObject({ name: 'Short Lived Mod', connections: 1 });
    expect(rows.some((row) => row.clientId === clientId)).toBe(true);

    const removal = await admin.jar.post('/api/admin/oauth-clients/delete', { clientId: removable });
    expect(await removal.json()).toEqual({ success: true, connections: 1 });
    expect(await tokenWorks(tokens.access_token)).toBe(false);
    expect(await appsOf(player)).toEqual([]);
    expect(await refusalOf(client.initiateDeviceAuthorization(app, { scope: 'wardrobe:read' }))).toBe('invalid_client');
    expect((await admin.jar.post('/api/admin/oauth-clients/delete', { clientId: removable })).status).toBe(404);
    const audit = await admin.jar.get(`/api/admin/audit?admin=${admin.uuid}`);
    const actions = ((await audit.json()) as { data: Array<{ action: string; detail: string }> }).data;
    expect(actions[0]).toMatchObject({
      action: 'APP_CLIENT_REMOVE',
      detail: `Short Lived Mod (${removable}); 1 connection ended`,
    });
  });

  it('lets the operator add, list and remove apps from the command line, and refuses a name players could not read', async () => {
    const env = { DATABASE_URL: suite.database.url };
    const added = await registerApp(suite.database, 'Command Line App');
    const printed = await runCli(['oauth-client', 'list'], env);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(
      new RegExp(`^${added}  Command Line App  \\(added .*, 0 connection\\(s\\)\\)$`, 'm'),
    );

    const removed = await runCli(['oauth-client', 'remove', added], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Removed Command Line App; 0 player connection(s) ended.');
    const listed = await admin.jar.get('/api/admin/oauth-clients');
    expect(JSON.stringify(await listed.json())).not.toContain(added);

    const tooLong = await runCli(['oauth-client', 'add', 'x'.repeat(41)], env);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain("An app's name has at most 40 characters.");
    // Each command starts a process of its own (a few seconds each on a busy machine).
  }, 90_000);

  it('limits the sign-in codes one address asks for a minute (429 slow_down)', async () => {
    const answers: number[] = [];
    for (let i = 0; i <= DEVICE_REQUESTS; i++) {
      const response = await fetch(`${suite.server.url}/oauth/device_authorization`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: clientId, scope: 'wardrobe:read' }),
      });
      answers.push(response.status);
      if (response.status === 429) expect(((await response.json()) as { error: string }).error).toBe('slow_down');
    }
    expect(answers.at(-1)).toBe(429);
  });
});
