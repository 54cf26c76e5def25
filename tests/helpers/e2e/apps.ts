// An app (a launcher or mod) in the e2e tests: registered with the operator CLI against the e2e server's database, it
// asks for a sign-in code and polls for its tokens over HTTP, as a real one does; and a player's connections to apps:
// approving one, ageing one in the database, listing them, and whether an app's token still uploads.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../../playwright.config';
import { openDatabase } from '../../../server/db/database';
import { noisePng } from '../../../support/textures';
import { xsrf } from './session';

/** The device code grant's type. */
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** What the device authorization endpoint answers. */
export interface SignInStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
}

/** Registers an app with `cloakroom oauth-client add NAME` on an e2e server's database (the main one's); its client_id. */
export function registerApp(name: string, dataDir = E2E_DATA_DIR): string {
  const output = execFileSync('node', ['bin/cloakroom.mjs', 'oauth-client', 'add', name], {
    env: { ...process.env, OFFLINE_MODE: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  const match = /client_id: (\S+)$/m.exec(output);
  if (!match) throw new Error(`No client_id in the CLI's output: ${output}`);
  return match[1]!;
}

/** The app asks for a sign-in code with the scopes. */
export async function startSignIn(request: APIRequestContext, clientId: string, scope: string): Promise<SignInStart> {
  const answer = await request.post('/oauth/device_authorization', { form: { client_id: clientId, scope } });
  if (answer.status() !== 200) throw new Error(`No sign-in code: ${answer.status()} ${await answer.text()}`);
  return (await answer.json()) as SignInStart;
}

/** The app polls once for its tokens: the token endpoint's status and answer. */
export async function pollTokens(
  request: APIRequestContext,
  clientId: string,
  deviceCode: string,
): Promise<{ status: number; body: { access_token?: string; error?: string } }> {
  const answer = await request.post('/oauth/token', {
    form: { grant_type: DEVICE_CODE_GRANT, client_id: clientId, device_code: deviceCode },
  });
  return { status: answer.status(), body: (await answer.json()) as { access_token?: string; error?: string } };
}

/** The path and query of the app's link to /device (the site's address is the e2e server's own). */
export function localPath(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/**
 * The logged-in player approves an app through the /device page's call, and the app takes its tokens: its access
 * token.
 */
export async function connectApp(page: Page, clientId: string, scope: string): Promise<string> {
  const signIn = await startSignIn(page.request, clientId, scope);
  const approved = await page.request.post('/api/device/approve', {
    headers: await xsrf(page),
    data: { code: signIn.user_code },
  });
  expect(approved.status()).toBe(200);
  const tokens = await pollTokens(page.request, clientId, signIn.device_code);
  expect(tokens.status).toBe(200);
  return tokens.body.access_token!;
}

/** Moves a connection of the logged-in player back in time: made and last used `hours` ago. */
export async function ageConnection(id: number, hours: number): Promise<Date> {
  const then = Date.now() - hours * 3_600_000;
  const db = openDatabase(`sqlite:${path.join(E2E_DATA_DIR, 'cloakroom.db')}`);
  try {
    await db.updateTable('oauth_grants').set({ created_at: then, last_used_at: then }).where('id', '=', id).execute();
  } finally {
    await db.destroy();
  }
  return new Date(then);
}

/** The logged-in player's connections, newest first, as the connected apps page reads them. */
export async function connectionsOf(page: Page): Promise<Array<{ id: number; scopes: string[] }>> {
  return (
    (await (await page.request.get('/api/account/apps')).json()) as { apps: Array<{ id: number; scopes: string[] }> }
  ).apps;
}

/** Whether an access token still uploads a cape for its player. */
export async function tokenUploads(page: Page, accessToken: string): Promise<number> {
  const answer = await page.request.fetch('/api/upload-cape', {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    multipart: { file: { name: 'cape.png', mimeType: 'image/png', buffer: await noisePng(64, 32) } },
  });
  return answer.status();
}
