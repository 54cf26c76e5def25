// API tests that send junk (NUL characters, bad escapes, huge and odd values) to every parameter and body field of
// every call in the API description, on both databases: each answer must be a refusal (4xx) or an answer, never a 500.
import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { startGameServicesStandIn } from '../../helpers/game-services.ts';
import { loginNewUser, randomUsername, serverForSuite } from '../../helpers/server.ts';
import { solidPng } from '../../../support/textures.ts';

const API_KEY = 'junk-input-key';
/**
 * The player services and OptiFine cape server the creators look names up on (they know nobody: every lookup is a 404).
 */
const gameServices = await startGameServicesStandIn();
afterAll(() => gameServices.close());

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' }>;
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}
type Spec = { paths: Record<string, Record<string, Operation>> };

/** Junk for a text value: NUL characters, other control and odd characters, SQL and path tricks, nothing, and a lot. */
const JUNK_TEXT = [
  '\u0000',
  'abc\u0000',
  '["\u0000"]',
  '["cute","a\u0000"]',
  '\u0000\u0000\u0000',
  '\u0001\u001f\u007f',
  '\uFFFF\uFFFE',
  '💥',
  "' OR 1=1 --",
  '../../etc/passwd',
  '',
  ' ',
  '-1',
  '1e309',
  'NaN',
  '[]',
  '{}',
  'x'.repeat(5000),
];
/** Junk for a JSON body field: the texts above, and values of every other type. */
const JUNK_JSON: unknown[] = [
  ...JUNK_TEXT,
  ['\u0000'],
  [JUNK_TEXT],
  { '\u0000': '\u0000' },
  12345,
  -1,
  1e308,
  null,
  true,
  ['\u0000', 'cute'],
];
/** Raw percent-escapes for a path segment or query value, some of them not UTF-8 or not escapes at all. */
const RAW_ESCAPES = ['%00', 'a%00b', '%ff', '%c0%80', '%', '%zz', '%2e%2e', '%2F'];

/** A value that passes each field's own check, so that the junk reaches the checks of the field after it. */
function validValues(context: { uuid: string; username: string; hash: string }): Record<string, unknown> {
  return {
    code: '123456',
    ref: '/',
    confirm: 'no',
    uuid: context.uuid,
    username: context.username,
    id: context.username,
    hash: context.hash,
    title: 'Junk test',
    tags: '["cute"]',
    tac: true,
    page: '1',
    platform: 'fabric',
    version: '1.21',
  };
}

describe.each(backends)('junk input on $name', (backend) => {
  const suite = serverForSuite(backend, {
    AUTH_API_KEY: API_KEY,
    LOGIN_ATTEMPTS_PER_MINUTE: '100000',
    LOGIN_FAILURES_PER_MINUTE: '100000',
    GALLERY_UPLOADS_PER_10_MINUTES: '100000',
    // Registration codes resolve names offline: no junk call waits on the real Mojang API, which this machine cannot
    // reach.
    OFFLINE_MODE: 'true',
    MOJANG_API_URL: gameServices.url,
    MOJANG_SESSION_URL: gameServices.url,
    OPTIFINE_CAPES_URL: gameServices.url,
    // The stand-in's skin URLs are on 127.0.0.1.
    OUTSIDE_URLS_ALLOW_PRIVATE: 'true',
    CREATOR_CALLS_PER_MINUTE: '100000',
    AI_PROMPTS_PER_HOUR: '100000',
  });

  it(
    'never answers 500 to junk in a path parameter, query parameter or body field of any call',
    { timeout: 120_000 },
    async () => {
      const spec = (await (await fetch(`${suite.server.url}/api/openapi.json`)).json()) as Spec;
      // The item the calls name belongs to someone else, so that the junk calls' account deletions leave it in place.
      const owner = await loginNewUser(suite.server, randomUsername('Owner'));
      const png = await solidPng(64, 32);
      const shared = await owner.jar.sendForm(
        'POST',
        '/api/gallery/new',
        galleryForm(png, { title: 'Junk base', tags: '["cute"]' }),
      );
      expect(shared.status).toBe(201);
      const hash = ((await shared.json()) as { hash: string }).hash;
      let login = await loginNewUser(suite.server, randomUsername('Junk'), { admin: true });
      const valid = validValues({ uuid: owner.uuid, username: owner.username, hash });

      const failures: string[] = [];
      let calls = 0;
      const send = async (method: string, path: string, body?: { json?: unknown; form?: FormData }) => {
        // Logging out or deleting the account ends the session; the calls after it get a fresh one.
        if ((await login.jar.get('/api/user')).status === 401)
          login = await loginNewUser(suite.server, randomUsername('Junk'), { admin: true });
        const headers = { authorization: `Bearer ${API_KEY}` };
        const response = body?.form
          ? await login.jar.sendForm(method, path, body.form, { headers })
          : await login.jar.request(method, path, body?.json, headers);
        calls++;
        // 501 is the answer of the Microsoft login calls until it is configured, whatever the input.
        if (response.status >= 500 && response.status !== 501)
          failures.push(
            `${method} ${path} ${body?.json !== undefined ? JSON.stringify(body.json).slice(0, 80) : body?.form ? 'multipart' : ''} → ${response.status}`,
          );
      };

      for (const [template, operations] of Object.entries(spec.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const verb = method.toUpperCase();
          const pathParams = (operation.parameters ?? [])
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => parameter.name);
          const queryParams = (operation.parameters ?? [])
            .filter((parameter) => parameter.in === 'query')
            .map((parameter) => parameter.name);
          const fillPath = (junkFor?: string, junk?: string) =>
            template.replace(/\{(\w+)\}/g, (_match, name: string) =>
              name === junkFor ? junk! : encodeURIComponent(String(valid[name] ?? 'x')),
            );

          for (const name of pathParams) {
            for (const junk of [...JUNK_TEXT.map((text) => encodeURIComponent(text)), ...RAW_ESCAPES])
              await send(verb, fillPath(name, junk));
          }
          for (const name of queryParams) {
            for (const junk of JUNK_TEXT) await send(verb, `${fillPath()}?${new URLSearchParams({ [name]: junk })}`);
            for (const junk of RAW_ESCAPES) await send(verb, `${fillPath()}?${name}=${junk}`);
            await send(verb, `${fillPath()}?${name}=1&${name}=2`);
          }

          const json = operation.requestBody?.content['application/json']?.schema?.properties;
          if (json) {
            const base = Object.fromEntries(Object.keys(json).map((name) => [name, valid[name]]));
            for (const name of Object.keys(json)) {
              for (const junk of JUNK_JSON) await send(verb, fillPath(), { json: { ...base, [name]: junk } });
            }
            for (const junk of JUNK_JSON) await send(verb, fillPath(), { json: junk });
          }

          const multipart = operation.requestBody?.content['multipart/form-data']?.schema?.properties;
          if (multipart) {
            const fields = Object.keys(multipart).filter((name) => name !== 'file');
            const base = Object.fromEntries(fields.map((name) => [name, String(valid[name])]));
            for (const name of fields) {
              for (const junk of JUNK_TEXT)
                await send(verb, fillPath(), { form: galleryForm(png, { ...base, [name]: junk }) });
              await send(verb, fillPath(), { form: galleryForm(png, { ...base, [name]: JSON.stringify(['\u0000']) }) });
            }
            await send(verb, fillPath(), { form: galleryForm(Buffer.from('\u0000'.repeat(64)), base) });
          }
        }
      }
      expect(calls).toBeGreaterThan(1000);
      expect((await login.jar.get(`/api/gallery/${hash}`)).status, 'the junk reached calls on a real item').toBe(200);
      expect(failures, failures.join('\n')).toEqual([]);
    },
  );
});

/** A multipart body with text fields and a PNG as `file`. */
function galleryForm(file: Buffer, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'junk.png');
  return form;
}
