// What the device flow suites share: a server at an address it knows (an OAuth library checks that the metadata's
// issuer is the address it asked), an app registered with the operator CLI, an off-the-shelf client (openid-client)
// discovering the server, and a player approving or denying a code through the /device page's calls.
import { beforeAll, expect } from 'vitest';
import * as client from 'openid-client';
import { freePort } from '../../support/app-process.ts';
import type { Backend, TestDatabase } from '../../support/backends.ts';
import { runCli } from './cli.ts';
import type { CookieJar } from './cookie-jar.ts';
import { serverForSuite, type TestServer } from './server.ts';

/** The device code grant's type. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * Gives a describe block a server on a backend whose public address (PUBLIC_BASE_URL, the issuer) is the one it
 * listens on.
 */
export function serverAtItsAddress(
  backend: Backend,
  env: Record<string, string> = {},
): { server: TestServer; database: TestDatabase } {
  const settings: Record<string, string> = { ...env };
  beforeAll(async () => {
    const port = String(await freePort());
    Object.assign(settings, { PORT: port, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
  });
  return serverForSuite(backend, settings);
}

/** Registers an app with `cloakroom oauth-client add NAME` on the suite's database; its client_id. */
export async function registerApp(database: TestDatabase, name: string): Promise<string> {
  const result = await runCli(['oauth-client', 'add', name], { DATABASE_URL: database.url });
  expect(result.code, result.stderr).toBe(0);
  const match = /client_id: (\S+)$/m.exec(result.stdout);
  if (!match) throw new Error(`No client_id in the CLI's output: ${result.stdout}`);
  return match[1]!;
}

/** An openid-client configuration for an app, found by discovery (RFC 8414) at the server's address. */
export function discover(server: TestServer, clientId: string): Promise<client.Configuration> {
  return client.discovery(new URL(server.url), clientId, undefined, client.None(), {
    algorithm: 'oauth2',
    execute: [client.allowInsecureRequests],
  });
}

/** A player's decision on a code through the /device page's call; the answer. */
export function decide(jar: CookieJar, userCode: string, decision: 'approve' | 'deny'): Promise<Response> {
  return jar.post(`/api/device/${decision}`, { code: userCode });
}

/** Polls the token endpoint once by hand, as a form; the answer. */
export function pollOnce(server: TestServer, clientId: string, deviceCode: string): Promise<Response> {
  return fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, client_id: clientId, device_code: deviceCode }),
  });
}

/**
 * The OAuth error code a call of openid-client was refused with (it throws the endpoint's error as a
 * ResponseBodyError).
 */
export async function refusalOf(call: Promise<unknown>): Promise<string> {
  const error: unknown = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof client.ResponseBodyError)) throw new Error(`Not refused by the server: ${String(error)}`);
  return error.error;
}

/** An upload of a cape with an app's access token only: no cookies, no XSRF header. */
export function uploadCapeWithToken(server: TestServer, accessToken: string, cape: Buffer): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(cape)], { type: 'image/png' }), 'cape.png');
  return fetch(`${server.url}/api/upload-cape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    body: form,
  });
}
