// API tests for the mod API: GET /profile/:id (+ /cape, /ears) and /textures/:hash, caching, invalidation within a
// process and maintenance. Invalidation across processes through Redis is in invalidation-across-processes.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, randomUuid, serverForSuite, startServer } from '../../helpers/server.ts';
import { frameColour, PNG_SIGNATURE, sha256Hex, solidPng } from '../../../support/textures.ts';
import { hashOf, uploadTexture as upload } from '../../helpers/mod-api.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';
import { emptyWardrobe } from '../../helpers/wardrobe.ts';

const PROFILE_KEYS = ['animatedCape', 'animated_cape_url', 'capeGlint', 'cape_url', 'ear_url', 'upsideDown'];

/** Distinct valid capes and ears, made once for the file. */
const capes: Buffer[] = [];
const ears: Buffer[] = [];

beforeAll(async () => {
  for (let i = 0; i < 8; i++) capes.push(await solidPng(64, 32, frameColour(40 + i)));
  for (let i = 0; i < 3; i++) ears.push(await solidPng(14, 7, frameColour(80 + i)));
});

describe.each(backends)('mod API on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let player: { jar: CookieJar; uuid: string; username: string };
  let capeUrl: string;
  let earsUrl: string;

  beforeAll(async () => {
    player = await loginNewUser(suite.server, `Mod_${backend.name}`.slice(0, 16));
    capeUrl = await upload(player.jar, 'cape', capes[0]!);
    earsUrl = await upload(player.jar, 'ears', ears[0]!);
  });

  const get = (urlPath: string, headers: Record<string, string> = {}) =>
    fetch(`${suite.server.url}${urlPath}`, { headers });

  async function profileJson(id: string): Promise<Record<string, unknown>> {
    const response = await get(`/profile/${id}`);
    expect(response.status, id).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  describe('GET /profile/:id', () => {
    it('answers 404 for unknown players', async () => {
      for (const id of [randomUuid(), dashedUuid(randomUuid()), 'NobodyHasThis', 'x']) {
        const response = await get(`/profile/${id}`);
        expect(response.status, id).toBe(404);
      }
    });

    it('answers 404 for ids that are neither a uuid nor a username', async () => {
      for (const id of [
        'a'.repeat(17),
        `${player.uuid}0`,
        player.uuid.slice(1),
        'bad%20name',
        'dash-name',
        encodeURIComponent('ünïcode'),
        'name.json',
        `${player.uuid.slice(0, 8)}--${player.uuid.slice(8)}`,
      ]) {
        const response = await get(`/profile/${id}`);
        expect(response.status, id).toBe(404);
      }
    });

    it('gives the same body by 32-hex uuid, dashed uuid and username in any case, with exactly the mod keys', async () => {
      const ids = [
        player.uuid,
        dashedUuid(player.uuid),
        player.uuid.toUpperCase(),
        dashedUuid(player.uuid).toUpperCase(),
        player.username,
        player.username.toLowerCase(),
        player.username.toUpperCase(),
      ];
      const bodies = await Promise.all(ids.map(async (id) => (await get(`/profile/${id}`)).text()));
      for (const [index, body] of bodies.entries()) expect(body, ids[index]).toBe(bodies[0]);
      const profile = JSON.parse(bodies[0]!) as Record<string, unknown>;
      expect(Object.keys(profile).sort()).toEqual(PROFILE_KEYS);
      expect(profile).toEqual({
        capeGlint: false,
        upsideDown: false,
        animatedCape: false,
        cape_url: capeUrl,
        animated_cape_url: null,
        ear_url: earsUrl,
      });
    });

    it('answers JSON with a short Cache-Control and an ETag, and 304 to a matching If-None-Match', async () => {
      const response = await get(`/profile/${player.uuid}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(300);
      const etag = response.headers.get('etag');
      expect(etag).toBeTruthy();

      const notModified = await get(`/profile/${player.uuid}`, { 'if-none-match': etag! });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(
        (await get(`/profile/${player.username}`, { 'if-none-match': etag! })).status,
        'same profile by name',
      ).toBe(304);
      expect((await get(`/profile/${player.uuid}`, { 'if-none-match': '"something-else"' })).status).toBe(200);
    });

    it('shows a new cape, a deleted cape and new ears at once, by uuid and by username', async () => {
      const { jar, uuid, username } = await loginNewUser(suite.server);
      const first = await upload(jar, 'cape', capes[1]!);
      const before = await get(`/profile/${uuid}`);
      const etag = before.headers.get('etag')!;
      expect(((await before.json()) as { cape_url: string }).cape_url).toBe(first);
      expect((await profileJson(username)).cape_url).toBe(first);

      const second = await upload(jar, 'cape', capes[2]!);
      expect((await profileJson(uuid)).cape_url).toBe(second);
      expect((await profileJson(username.toLowerCase())).cape_url).toBe(second);
      expect((await get(`/profile/${uuid}`, { 'if-none-match': etag })).status, 'the old ETag no longer matches').toBe(
        200,
      );

      // With nothing left to show, the player is answered as an unknown player is: 404, so the mod shows nothing.
      await jar.request('DELETE', '/api/upload-cape');
      expect((await get(`/profile/${uuid}`)).status).toBe(404);
      expect((await get(`/profile/${username}`)).status).toBe(404);
      expect(
        (await get(`/profile/${uuid}`, { 'if-none-match': etag })).status,
        'nor does it after the cape is gone',
      ).toBe(404);

      const newEars = await upload(jar, 'ears', ears[1]!);
      expect((await profileJson(username)).ear_url).toBe(newEars);
      expect((await profileJson(uuid)).cape_url).toBeNull();
      await jar.request('DELETE', '/api/upload-ears');
      expect((await get(`/profile/${uuid}`)).status).toBe(404);
    });

    it('forgets a player whose account was deleted', async () => {
      const { jar, uuid, username } = await loginNewUser(suite.server);
      await upload(jar, 'cape', capes[3]!);
      await profileJson(uuid);
      await profileJson(username);
      expect((await jar.post('/api/account/delete', { confirm: true })).status).toBe(200);
      expect((await get(`/profile/${uuid}`)).status).toBe(404);
      expect((await get(`/profile/${username}`)).status).toBe(404);
    });
  });

  describe('GET /profile/:id/cape and /ears', () => {
    it('serve the current PNG by uuid or username, the same bytes as the texture URL', async () => {
      const stored = Buffer.from(await (await get(new URL(capeUrl).pathname)).arrayBuffer());
      for (const id of [player.uuid, dashedUuid(player.uuid), player.username.toLowerCase()]) {
        const response = await get(`/profile/${id}/cape`);
        expect(response.status, id).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await response.arrayBuffer()).equals(stored)).toBe(true);
      }
      const earsResponse = await get(`/profile/${player.username}/ears`);
      expect(earsResponse.status).toBe(200);
      expect(earsResponse.headers.get('content-type')).toBe('image/png');
      const earsBytes = Buffer.from(await earsResponse.arrayBuffer());
      expect(earsBytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(sha256Hex(earsBytes)).toBe(hashOf(earsUrl));
    });

    it('answer 404 when the player has none, is unknown or the id is invalid', async () => {
      const { jar, uuid, username } = await loginNewUser(suite.server);
      expect((await get(`/profile/${uuid}/cape`)).status).toBe(404);
      expect((await get(`/profile/${username}/ears`)).status).toBe(404);
      await upload(jar, 'cape', capes[4]!);
      expect((await get(`/profile/${uuid}/cape`)).status).toBe(200);
      await jar.request('DELETE', '/api/upload-cape');
      expect((await get(`/profile/${uuid}/cape`)).status, 'gone right after DELETE').toBe(404);
      expect((await get(`/profile/${randomUuid()}/cape`)).status).toBe(404);
      expect((await get(`/profile/NoSuchPlayer/ears`)).status).toBe(404);
      expect((await get(`/profile/${'z'.repeat(20)}/cape`)).status).toBe(404);
    });
  });

  describe('GET /textures/:hash', () => {
    it('serves a stored texture with year-long immutable caching, also with .png, and 304 to its ETag', async () => {
      const hash = hashOf(capeUrl);
      for (const urlPath of [`/textures/${hash}`, `/textures/${hash}.png`]) {
        const response = await get(urlPath);
        expect(response.status, urlPath).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
        const cacheControl = response.headers.get('cache-control') ?? '';
        for (const directive of ['public', 'max-age=31536000', 'immutable']) expect(cacheControl).toContain(directive);
        expect(sha256Hex(Buffer.from(await response.arrayBuffer()))).toBe(hash);
      }
      const etag = (await get(`/textures/${hash}`)).headers.get('etag');
      expect(etag).toBeTruthy();
      expect((await get(`/textures/${hash}`, { 'if-none-match': etag! })).status).toBe(304);
    });

    it('stops serving a texture the moment it is released, though it was just served from memory', async () => {
      const { jar } = await loginNewUser(suite.server);
      const url = await upload(jar, 'cape', capes[7]!);
      for (let i = 0; i < 2; i++) expect((await get(new URL(url).pathname)).status).toBe(200);
      await jar.request('DELETE', '/api/upload-cape');
      await emptyWardrobe(jar);
      const response = await get(new URL(url).pathname);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found' });
    });

    it('answers 404 to bad hashes and unknown ones', async () => {
      const hash = hashOf(capeUrl);
      for (const bad of [
        'abc',
        hash.toUpperCase(),
        hash.slice(1),
        `${hash}0`,
        `${hash.slice(0, 63)}g`,
        '..%2F..%2Fetc%2Fpasswd',
        `${hash}.gif`,
        sha256Hex(Buffer.from('nothing stored')),
      ]) {
        const response = await get(`/textures/${bad}`);
        expect(response.status, bad).toBe(404);
      }
    });
  });

  describe('maintenance mode', () => {
    it('keeps /profile and /textures answering while the site API answers 503', async () => {
      const maintenance = await startServer(suite.database.url, {
        MAINTENANCE: 'true',
        DATA_DIR: suite.server.config.dataDir,
      });
      try {
        expect((await fetch(`${maintenance.url}/api/home`)).status).toBe(503);
        const profile = await fetch(`${maintenance.url}/profile/${player.username}`);
        expect(profile.status).toBe(200);
        expect(((await profile.json()) as { cape_url: string }).cape_url).toBe(capeUrl);
        const texture = await fetch(`${maintenance.url}${new URL(capeUrl).pathname}`);
        expect(texture.status).toBe(200);
        expect(texture.headers.get('content-type')).toBe('image/png');
        expect((await fetch(`${maintenance.url}/profile/${player.uuid}/cape`)).status).toBe(200);
        expect((await fetch(`${maintenance.url}/profile/${randomUuid()}`)).status).toBe(404);
      } finally {
        await maintenance.close();
      }
    });
  });
});
