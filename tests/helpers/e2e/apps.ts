// An app (a launcher or mod) in the e2e tests: registered with the operator CLI against the e2e server's database, it
// asks for a sign-in code and polls for its tokens over HTTP, as a real one does.
import { execFileSync } from 'node:child_process';
import type { APIRequestContext } from '@playwright/test';
import { E2E_DATA_DIR } from '../../../playwright.config';

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
