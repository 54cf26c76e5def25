// API tests for the API description: /api/openapi.json is valid OpenAPI 3.1 and lists every call with its auth (the
// device flow's endpoints among them); /api/docs shows it.
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { oneBackend } from '../../../support/backends.ts';
import { serverForSuite } from '../../helpers/server.ts';

/** Every call the server answers, as `METHOD /path` in OpenAPI's path syntax. */
const EVERY_CALL = [
  'GET /profile/{id}',
  'GET /profile/{id}/cape',
  'GET /profile/{id}/ears',
  'GET /textures/{hash}',
  'GET /capes/{id}.png',
  'GET /capes/{id}.gif',
  'GET /capes/strip/{id}.png',
  'GET /elytras/{id}.png',
  'GET /csl/{id}.json',
  'GET /csl/textures/{hash}',
  'GET /csl-minecraftcapes/{id}',
  'GET /healthz',
  'GET /readyz',
  'GET /api/user',
  'GET /api/user/search/{id}',
  'POST /api/user/report',
  'GET /api/admin/info',
  'GET /api/admin/banreasons',
  'GET /api/admin/bans/user',
  'POST /api/admin/user/ban',
  'POST /api/admin/bans/user/delete',
  'GET /api/admin/user/{username}',
  'POST /api/admin/user/cache',
  'POST /api/admin/user/cape/delete',
  'POST /api/admin/user/ears/delete',
  'POST /api/admin/user/delete',
  'GET /api/admin/reports/user',
  'POST /api/admin/reports/user',
  'GET /api/admin/reports/gallery',
  'POST /api/admin/reports/gallery',
  'GET /api/admin/audit',
  'POST /api/admin/registration/generate',
  'POST /api/admin/user/profile',
  'GET /api/admin/gallery/whitelist',
  'POST /api/admin/gallery/whitelist/delete',
  'GET /api/admin/ai-cape-logs',
  'GET /api/admin/ai-cape-logs/{id}',
  'GET /api/premium',
  'GET /api/premium/init',
  'POST /api/premium/glint',
  'POST /api/premium/dinnerbone',
  'POST /api/premium/payment',
  'POST /api/premium/payment/intent',
  'POST /api/premium/stripe/webhook',
  'POST /api/premium/boost/discord/generate',
  'GET /api/premium/boost/discord/linked',
  'GET /api/premium/boost/discord/boosting',
  'GET /api/premium/boost/discord/usable',
  'GET /api/premium/boost/discord/cosmetic',
  'POST /api/premium/boost/discord/cosmetic',
  'POST /api/premium/boost/discord/remove',
  'POST /api/premium/discord/generate',
  'POST /api/bot/link',
  'POST /api/bot/boosting',
  'GET /api/bot/links',
  'POST /api/bot/unlink',
  'POST /api/bot/role',
  'GET /api/csrf-cookie',
  'GET /api/home',
  'GET /api/contributors',
  'POST /api/account/checkauth',
  'POST /api/account/logout',
  'POST /api/account/delete',
  'GET /api/account/oauth/redirect',
  'POST /api/account/oauth/callback',
  'POST /api/internal/auth',
  'POST /api/upload-cape',
  'DELETE /api/upload-cape',
  'POST /api/upload-ears',
  'DELETE /api/upload-ears',
  'GET /api/gallery/tags',
  'GET /api/gallery/get',
  'GET /api/gallery/user/{uuid}',
  'GET /api/gallery/{hash}',
  'GET /api/gallery/{hash}/preview',
  'GET /api/gallery/{hash}/preview/map',
  'GET /api/gallery/{hash}/download',
  'POST /api/gallery/like',
  'POST /api/gallery/wear',
  'GET /api/wardrobe',
  'POST /api/wardrobe/wear',
  'POST /api/wardrobe/take-off',
  'POST /api/wardrobe/remove',
  'POST /api/wardrobe/rename',
  'POST /api/gallery/delete',
  'POST /api/gallery/report',
  'POST /api/gallery/edit',
  'POST /api/gallery/cape-creator',
  'POST /api/gallery/animated-cape-creator',
  'GET /api/gallery/ai-cape-creator',
  'POST /api/gallery/ai-cape-creator',
  'POST /api/gallery/banner-capes/{service}/{bannerId}/{top}/{bottom}/{alignment}',
  'POST /api/gallery/head-capes/{username}/{red}/{green}/{blue}/{brightness}/{helmetOverlay}',
  'POST /api/gallery/optifine-capes/custom/{top}/{bottom}/{text}/{shadow}',
  'POST /api/gallery/optifine-capes/{name}',
  'GET /api/gallery/creations/{hash}/preview',
  'POST /api/gallery/creations/use',
  'POST /api/gallery/creations/share',
  'POST /api/gallery/new',
  'GET /.well-known/oauth-authorization-server',
  'POST /oauth/device_authorization',
  'POST /oauth/token',
  'POST /oauth/revoke',
  'GET /api/device',
  'GET /api/device/app',
  'POST /api/device/approve',
  'POST /api/device/deny',
  'GET /api/account/apps',
  'POST /api/account/apps/revoke',
  'GET /api/admin/oauth-clients',
  'POST /api/admin/oauth-clients/delete',
];

interface Operation {
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Spec = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

describe.each([oneBackend])('API description on $name', (backend) => {
  const suite = serverForSuite(backend);
  const spec = async () => (await (await fetch(`${suite.server.url}/api/openapi.json`)).json()) as Spec;

  it('is valid OpenAPI 3.1', async () => {
    const response = await fetch(`${suite.server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Spec;
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('lists every call, each with a summary and its answers', async () => {
    const document = await spec();
    const listed = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual([...EVERY_CALL].sort());
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(operation.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it('says who may call what: the mod API is open, internal and bot calls take their bearer keys, site calls the session and XSRF header', async () => {
    const { paths, components } = await spec();
    expect(Object.keys(components.securitySchemes).sort()).toEqual(['appToken', 'bearer', 'botKey', 'session', 'xsrf']);
    expect(paths['/api/bot/link']!.post!.security).toEqual([{ botKey: [] }]);
    expect(paths['/api/premium/payment']!.post!.security).toBeUndefined();
    expect(paths['/api/premium/stripe/webhook']!.post!.security).toBeUndefined();
    expect(paths['/profile/{id}']!.get!.security).toBeUndefined();
    expect(paths['/textures/{hash}']!.get!.security).toBeUndefined();
    for (const path of [
      '/capes/{id}.png',
      '/capes/{id}.gif',
      '/capes/strip/{id}.png',
      '/elytras/{id}.png',
      '/csl/{id}.json',
      '/csl/textures/{hash}',
      '/csl-minecraftcapes/{id}',
    ]) {
      expect(paths[path]!.get!.security, path).toBeUndefined();
      expect((paths[path]!.get! as unknown as { tags: string[] }).tags, path).toEqual(['Mod API']);
    }
    expect(paths['/api/internal/auth']!.post!.security).toEqual([{ bearer: [] }]);
    expect(paths['/api/gallery/get']!.get!.security).toEqual([{ session: [] }]);
    expect(paths['/api/gallery/like']!.post!.security).toEqual([{ session: [], xsrf: [] }]);
    expect(paths['/api/account/checkauth']!.post!.security).toEqual([{ xsrf: [] }]);
    expect(paths['/api/home']!.get!.security).toBeUndefined();
    // The cape and ears uploads also take an app's access token with its scope, instead of the session and XSRF header.
    expect(paths['/api/upload-cape']!.post!.security).toEqual([
      { session: [], xsrf: [] },
      { appToken: ['textures:upload'] },
    ]);
    // Taking the cape off and wearing a gallery item choose what the player wears: the wardrobe:write scope.
    for (const [path, method] of [
      ['/api/upload-cape', 'delete'],
      ['/api/upload-ears', 'delete'],
      ['/api/gallery/wear', 'post'],
    ] as const)
      expect(paths[path]![method]!.security, `${method} ${path}`).toEqual([
        { session: [], xsrf: [] },
        { appToken: ['wardrobe:write'] },
      ]);
    expect(paths['/oauth/token']!.post!.security).toBeUndefined();
    expect(Object.keys(paths['/oauth/token']!.post!.requestBody!.content)).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    expect(paths['/healthz']!.get!.security).toBeUndefined();
    expect(paths['/readyz']!.get!.security).toBeUndefined();
  });

  it("describes the answers of the player's side of apps: the revoke's remaining connections, the visitor's app lookup", async () => {
    const document = (await spec()) as Spec & {
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    const { paths, components } = document;
    expect(JSON.stringify(paths['/api/account/apps/revoke']!.post!.responses['200'])).toContain(
      '#/components/schemas/AppRevocation',
    );
    expect(components.schemas.AppRevocation!.required!.sort()).toEqual(['appName', 'remainingConnections', 'success']);
    expect(Object.keys(components.schemas.ConnectedApp!.properties!)).toContain('clientId');
    expect(paths['/api/device/app']!.get!.security).toBeUndefined();
    expect(JSON.stringify(paths['/api/device/app']!.get!.responses['200'])).toContain('#/components/schemas/DeviceApp');
    expect(Object.keys(components.schemas.AuditRow!.properties!)).toContain('actor_kind');
  });

  it('describes the mod profile, uploads as multipart forms and images as PNG files', async () => {
    const { paths } = await spec();
    expect(JSON.stringify(paths['/profile/{id}']!.get!.responses['200'])).toContain('#/components/schemas/ModProfile');
    expect(Object.keys(paths['/api/upload-cape']!.post!.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(paths['/api/gallery/new']!.post!.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(paths['/api/gallery/{hash}/preview']!.get!.responses['200']!.content!)).toEqual(['image/png']);
    const listQuery = paths['/api/gallery/get']!.get!.parameters!.map(
      (parameter) => `${parameter.in}:${parameter.name}`,
    );
    expect(listQuery.sort()).toEqual([
      'query:page',
      'query:sortBy',
      'query:tags',
      'query:title',
      'query:type',
      'query:user',
    ]);
  });

  it('serves a reference page at /api/docs that loads the description', async () => {
    const page = await fetch(`${suite.server.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const initializer = await (await fetch(`${suite.server.url}/api/docs/static/swagger-initializer.js`)).text();
    expect(initializer).toContain('json');
    const described = await fetch(`${suite.server.url}/api/docs/json`);
    expect(((await described.json()) as Spec).paths['/api/gallery/get']).toBeDefined();
  });
});
