// The mod API's fast path (cached profiles and textures answered before Fastify) gives the very answers of the routes.
import { beforeAll, describe, expect, it } from 'vitest';
import { oneBackend } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';
import { noneMatchCases } from '../../helpers/validators.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';

/** Status, headers (without the date) and body of an answer. */
async function answerOf(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

// The fast path sits in front of the database: one backend shows it.
describe.each([oneBackend])('mod API fast path on $name', (backend) => {
  const suite = serverForSuite(backend);
  let player: { jar: CookieJar; uuid: string };
  let texturePath: string;

  beforeAll(async () => {
    player = await loginNewUser(suite.server, 'FastPath');
    const response = await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(7)));
    texturePath = new URL(((await response.json()) as { cape: string }).cape).pathname;
  });

  const get = (urlPath: string, headers: Record<string, string> = {}) =>
    fetch(`${suite.server.url}${urlPath}`, { headers });

  /**
   * The answer to a path the fast path serves (checked by its count), and to an equivalent path only the routes serve.
   */
  async function fastAndRoute(fastPath: string, routePath: string, headers: Record<string, string> = {}) {
    await get(fastPath); // a miss: the routes load the profile or texture into the caches
    const counter = suite.server.app.modFastPath;
    const before = counter.answered;
    const fromFastPath = await answerOf(await get(fastPath, headers));
    expect(counter.answered).toBe(before + 1);
    const fromRoute = await answerOf(await get(routePath, headers));
    expect(counter.answered).toBe(before + 1);
    return { fromFastPath, fromRoute };
  }

  it('answers a cached profile as the route does', async () => {
    const { fromFastPath, fromRoute } = await fastAndRoute(
      `/profile/${player.uuid}`,
      `/profile/${dashedUuid(player.uuid)}`,
    );
    expect(fromRoute.status).toBe(200);
    expect(JSON.parse(Buffer.from(fromRoute.body, 'base64').toString()).cape_url).toContain(texturePath);
    expect(fromFastPath).toEqual(fromRoute);
  });

  it('answers 304 to a cached profile ETag as the route does', async () => {
    const etag = (await get(`/profile/${player.uuid}`)).headers.get('etag')!;
    const { fromFastPath, fromRoute } = await fastAndRoute(
      `/profile/${player.uuid}`,
      `/profile/${dashedUuid(player.uuid)}`,
      { 'if-none-match': etag },
    );
    expect(fromRoute.status).toBe(304);
    expect(fromFastPath).toEqual(fromRoute);
  });

  it('answers a cached texture, and 304 to its ETag, as the route does', async () => {
    const plain = await fastAndRoute(texturePath, `${texturePath}?from=route`);
    expect(plain.fromRoute.status).toBe(200);
    expect(plain.fromRoute.headers['content-type']).toBe('image/png');
    expect(plain.fromFastPath).toEqual(plain.fromRoute);
    const etag = plain.fromRoute.headers.etag!;
    const revalidated = await fastAndRoute(texturePath, `${texturePath}?from=route`, { 'if-none-match': etag });
    expect(revalidated.fromRoute.status).toBe(304);
    expect(revalidated.fromFastPath).toEqual(revalidated.fromRoute);
  });

  it('answers the layouts other mods read (by name, uuid or dashed uuid), and every If-None-Match form RFC 9110 allows (weak, a list, *), as the routes do', async () => {
    const name = 'fastpath';
    const hash = texturePath.slice('/textures/'.length);
    for (const path of [
      `/capes/${name}.png`,
      `/capes/${dashedUuid(player.uuid)}.gif`,
      `/capes/strip/${player.uuid}.png`,
      `/elytras/${name.toUpperCase()}.png`,
      `/csl/${name}.json`,
      `/csl/textures/${hash}`,
      `/csl-minecraftcapes/${player.uuid}`,
      `/csl-minecraftcapes/${dashedUuid(player.uuid)}`,
    ]) {
      const plain = await fastAndRoute(path, `${path}?from=route`);
      expect(plain.fromRoute.status, path).toBe(200);
      expect(plain.fromFastPath, path).toEqual(plain.fromRoute);
      // Content-addressed files have no Last-Modified: their ETag is their content.
      const lastModified = plain.fromRoute.headers['last-modified'];
      const validators = noneMatchCases(plain.fromRoute.headers.etag!).map(({ value, status }) => ({
        headers: { 'if-none-match': value } as Record<string, string>,
        status,
      }));
      if (lastModified) validators.push({ headers: { 'if-modified-since': lastModified }, status: 304 });
      expect(Boolean(lastModified), path).toBe(!path.startsWith('/csl/textures/'));
      for (const { headers, status } of validators) {
        const revalidated = await fastAndRoute(path, `${path}?from=route`, headers);
        expect(revalidated.fromRoute.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
        expect(revalidated.fromFastPath).toEqual(revalidated.fromRoute);
      }
    }
  });

  it('leaves other methods, other paths and ids that are not plain uuids or names to the routes', async () => {
    const counter = suite.server.app.modFastPath;
    const before = counter.answered;
    expect((await fetch(`${suite.server.url}/profile/${player.uuid}`, { method: 'HEAD' })).status).toBe(200);
    expect((await get(`/profile/${player.uuid}/cape`)).status).toBe(200);
    expect((await get(`/textures/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await get(`/capes/No%53uchPlayer.png`)).status).toBe(404);
    expect((await get(`/profile/${'0'.repeat(32)}?x=1`)).status).toBe(404);
    expect((await fetch(`${suite.server.url}/capes/${player.uuid}.png`, { method: 'HEAD' })).status).toBe(200);
    expect(counter.answered).toBe(before);
  });

  it('answers players who have nothing to show (unknown ones too) 404 from memory, with the bytes and headers the routes give', async () => {
    const empty = await loginNewUser(suite.server);
    const counter = suite.server.app.modFastPath;
    const databaseLookups = async () => {
      const text = await suite.server.app.metrics.registry.metrics();
      return Number(/cloakroom_profile_cache_lookups_total\{result="miss"\} (\d+)/.exec(text)?.[1]);
    };
    const loads = await databaseLookups();
    // The route's 404 (an id it decodes, which the fast path leaves to it) is the reference.
    const route = await get(`/profile/No%53uchPlayer`);
    expect(route.status).toBe(404);
    const routeBody = await route.text();
    const before = counter.answered;
    for (const path of [
      `/profile/${'0'.repeat(32)}`,
      `/profile/${empty.uuid}`,
      `/profile/${empty.username}`,
      `/capes/NoSuchPlayer.png`,
      `/capes/strip/${empty.uuid}.png`,
      `/elytras/${empty.username.toUpperCase()}.png`,
      `/csl/${empty.username}.json`,
      `/csl-minecraftcapes/${empty.uuid}`,
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).toBe(routeBody);
      for (const header of [
        'content-type',
        'content-length',
        'access-control-allow-origin',
        'x-content-type-options',
        'content-security-policy',
      ]) {
        expect(answer.headers.get(header), `${path} ${header}`).toBe(route.headers.get(header));
      }
    }
    expect(counter.answered - before).toBe(8);
    expect(await databaseLookups(), 'no database query for any of them').toBe(loads);
  });

  it('hands every request to the routes once stopped (the app is closing)', async () => {
    const counter = suite.server.app.modFastPath;
    await get(`/profile/${player.uuid}`);
    const before = counter.answered;
    counter.stop();
    expect((await get(`/profile/${player.uuid}`)).status).toBe(200);
    expect(counter.answered).toBe(before);
  });
});
