// API tests for POST/DELETE /api/upload-cape and /api/upload-ears: file rule rejections, storage, dedup, release and the profile.
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_FILE_MESSAGE, textureMessages } from '../../src/lib/texture-rules.ts';
import { backends } from '../../support/backends.ts';
import { loginNewUser, newBrowser, serverForSuite, startServer } from '../helpers/server.ts';
import { animatedGif, frameColour, padPng, PNG_SIGNATURE, pngHeaderOnly, rgbaPixels, sha256Hex, solidGif, solidPng } from '../../support/textures.ts';

const TEXTURE_URL = /^https?:\/\/[^/]+\/textures\/([0-9a-f]{64})$/;

/** Every image the tests upload, made once for the file. */
const images: Record<string, Buffer> = {};
/** Distinct valid capes (64 x 32, one colour each), so tests on one server never share textures by accident. */
const capes: Buffer[] = [];
/** Distinct valid ears (14 x 7). */
const ears: Buffer[] = [];

beforeAll(async () => {
  for (let i = 0; i < 12; i++) capes.push(await solidPng(64, 32, frameColour(100 + i)));
  for (let i = 0; i < 8; i++) ears.push(await solidPng(14, 7, frameColour(200 + i)));
  Object.assign(images, {
    capeTooBig: padPng(await solidPng(64, 32, [1, 1, 1, 255]), 500_001),
    capeMaxBytes: padPng(await solidPng(64, 32, [2, 2, 2, 255]), 500_000),
    text: Buffer.from('This is a text file pretending to be a cape.\n'.repeat(20)),
    invalidPng: (await solidPng(128, 64)).subarray(0, 60),
    wrongDimensions: await solidPng(64, 33),
    squareGif: await solidGif(64, 64),
    tooLarge: await solidPng(4096, 2048),
    tooLargeHeaderOnly: pngHeaderOnly(4096, 2048, Buffer.alloc(1000)),
    bombGif: await animatedGif(64, 32, 65),
    animated: await animatedGif(64, 32, 3),
    hdCape: await solidPng(192, 96, frameColour(300)),
    overBudget: await animatedGif(1024, 512, 17),
    earsTooBig: padPng(await solidPng(14, 7, [3, 3, 3, 255]), 10_001),
    earsMaxBytes: padPng(await solidPng(14, 7, [4, 4, 4, 255]), 10_000),
    earsGif: await solidGif(14, 7),
    ears14x10: await solidPng(14, 10),
    ears15x7: await solidPng(15, 7),
    earsInvalid: (await solidPng(14, 7)).subarray(0, 40),
  });
});

describe.each(backends)('cape and ears upload on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });

  /** The texture URL's path fetched from the test server (URLs carry the configured public origin). */
  function fetchTexture(url: string): Promise<Response> {
    return fetch(new URL(new URL(url).pathname, suite.server.url));
  }

  async function profile(uuid: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${suite.server.url}/profile/${uuid}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  async function textureRows(hash?: string): Promise<number> {
    let query = suite.server.db.selectFrom('textures').select('hash');
    if (hash) query = query.where('hash', '=', hash);
    return (await query.execute()).length;
  }

  async function expectRefused(response: Response, msg: string, status = 422): Promise<void> {
    expect(response.status, msg).toBe(status);
    expect(await response.json()).toEqual({ success: false, msg });
  }

  async function uploadOk(jar: Awaited<ReturnType<typeof loginNewUser>>['jar'], kind: 'cape' | 'ears', bytes: Buffer, type = 'image/png'): Promise<string> {
    const response = await jar.upload(`/api/upload-${kind}`, bytes, { type, filename: type === 'image/gif' ? 'cape.gif' : `${kind}.png` });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['success', kind].sort());
    expect(body.success).toBe(true);
    expect(body[kind]).toMatch(TEXTURE_URL);
    return body[kind] as string;
  }

  describe('rejections', () => {
    it.each([
      ['a text file as cape', 'cape', 'text', 'text/plain', textureMessages.capeType],
      ['a text file sent as image/png', 'cape', 'text', 'image/png', textureMessages.capeType],
      ['a broken PNG', 'cape', 'invalidPng', 'image/png', textureMessages.invalidImage],
      ['a 64 x 33 cape', 'cape', 'wrongDimensions', 'image/png', textureMessages.capeDimensions],
      ['a square GIF cape', 'cape', 'squareGif', 'image/gif', textureMessages.capeDimensions],
      ['a 4096 x 2048 cape', 'cape', 'tooLarge', 'image/png', textureMessages.capeTooLarge],
      ['a PNG header claiming 4096 x 2048', 'cape', 'tooLargeHeaderOnly', 'image/png', textureMessages.capeTooLarge],
      ['a 65-frame GIF', 'cape', 'bombGif', 'image/gif', textureMessages.capeTooManyFrames],
      ['GIF ears', 'ears', 'earsGif', 'image/gif', textureMessages.earsType],
      ['text ears', 'ears', 'text', 'image/png', textureMessages.earsType],
      ['14 x 10 ears', 'ears', 'ears14x10', 'image/png', textureMessages.earsDimensions],
      ['15 x 7 ears', 'ears', 'ears15x7', 'image/png', textureMessages.earsDimensions],
      ['broken PNG ears', 'ears', 'earsInvalid', 'image/png', textureMessages.invalidImage],
    ])('refuses %s with 422 and the exact message, storing nothing', async (_name, kind, image, type, msg) => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const rowsBefore = await textureRows();
      await expectRefused(await jar.upload(`/api/upload-${kind}`, images[image]!, { type }), msg);
      expect(await textureRows()).toBe(rowsBefore);
      expect(await profile(uuid)).toMatchObject({ cape_url: null, animated_cape_url: null, ear_url: null });
    });

    it.each([
      ['a cape of 500,001 bytes', 'cape', 'capeTooBig', textureMessages.capeTooBig],
      ['ears of 10,001 bytes', 'ears', 'earsTooBig', textureMessages.earsTooBig],
    ])('refuses %s with 413 and the exact message, storing nothing', async (_name, kind, image, msg) => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const rowsBefore = await textureRows();
      await expectRefused(await jar.upload(`/api/upload-${kind}`, images[image]!), msg, 413);
      expect(await textureRows()).toBe(rowsBefore);
      expect(await profile(uuid)).toMatchObject({ cape_url: null, animated_cape_url: null, ear_url: null });
    });

    it('keeps the current cape when a later upload is refused', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', capes[0]!);
      await expectRefused(await jar.upload('/api/upload-cape', images.bombGif!, { type: 'image/gif' }), textureMessages.capeTooManyFrames);
      expect((await profile(uuid)).cape_url).toBe(url);
      expect((await fetchTexture(url)).status).toBe(200);
    });

    it('refuses a request without a file field with 422', async () => {
      const { jar } = await loginNewUser(suite.server);
      const fieldsOnly = new FormData();
      fieldsOnly.append('title', 'no file here');
      for (const response of [
        await jar.sendForm('POST', '/api/upload-cape', fieldsOnly),
        await jar.sendForm('POST', '/api/upload-cape', new FormData()),
        await jar.upload('/api/upload-cape', capes[1]!, { field: 'image' }),
        await jar.upload('/api/upload-ears', ears[0]!, { field: 'cape' }),
      ]) {
        await expectRefused(response, NO_FILE_MESSAGE);
      }
    });

    it('refuses a body that is not multipart with a clear 4xx, never a 500', async () => {
      const { jar } = await loginNewUser(suite.server);
      const json = await jar.post('/api/upload-cape', { file: 'data:image/png;base64,AAAA' });
      await expectRefused(json, NO_FILE_MESSAGE);
      const raw = await jar.request('POST', '/api/upload-ears', undefined, { 'content-type': 'image/png' });
      expect([406, 415, 422]).toContain(raw.status);
      const body = (await raw.json()) as { msg?: string; error?: string };
      expect(body.msg ?? body.error).toBeTruthy();
    });

    it('refuses a malformed multipart body with a 4xx, never a 500', async () => {
      const { jar } = await loginNewUser(suite.server);
      const cases = {
        'no boundary': { type: 'multipart/form-data', body: 'garbage' },
        'boundary never found': { type: 'multipart/form-data; boundary=XYZ', body: 'garbage without a boundary' },
        'cut inside the file part': {
          type: 'multipart/form-data; boundary=XYZ',
          body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="cape.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
        },
      };
      for (const [name, { type, body }] of Object.entries(cases)) {
        const sent = await fetch(`${suite.server.url}/api/upload-cape`, {
          method: 'POST',
          headers: {
            'content-type': type,
            cookie: `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}; session=${jar.cookie('session')}`,
            'x-xsrf-token': decodeURIComponent(jar.cookie('XSRF-TOKEN')!),
          },
          body,
        });
        expect(sent.status, `${name}: ${await sent.text()}`).toBeGreaterThanOrEqual(400);
        expect(sent.status, name).toBeLessThan(500);
      }
    });
  });

  describe('authentication', () => {
    it('answers 401 without a session and stores nothing', async () => {
      const jar = await newBrowser(suite.server);
      const rowsBefore = await textureRows();
      expect((await jar.upload('/api/upload-cape', capes[2]!)).status).toBe(401);
      expect((await jar.upload('/api/upload-ears', ears[1]!)).status).toBe(401);
      expect((await jar.request('DELETE', '/api/upload-cape')).status).toBe(401);
      expect((await jar.request('DELETE', '/api/upload-ears')).status).toBe(401);
      expect(await textureRows()).toBe(rowsBefore);
    });

    it('answers 419 without the x-xsrf-token header or with a wrong one, and changes nothing', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', capes[3]!);
      const rowsBefore = await textureRows();
      expect((await jar.upload('/api/upload-cape', capes[4]!, { xsrf: false })).status).toBe(419);
      expect((await jar.upload('/api/upload-cape', capes[4]!, { headers: { 'x-xsrf-token': 'wrong' } })).status).toBe(419);
      expect((await jar.upload('/api/upload-ears', ears[2]!, { xsrf: false })).status).toBe(419);
      const cookie = `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}; session=${jar.cookie('session')}`;
      expect((await fetch(`${suite.server.url}/api/upload-cape`, { method: 'DELETE', headers: { cookie } })).status).toBe(419);
      expect((await fetch(`${suite.server.url}/api/upload-ears`, { method: 'DELETE', headers: { cookie } })).status).toBe(419);
      expect(await textureRows()).toBe(rowsBefore);
      expect((await profile(uuid)).cape_url).toBe(url);
    });
  });

  describe('success', () => {
    it('answers {success, cape} and serves the stored PNG forever-cacheable under its SHA-256', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', capes[5]!);
      const response = await fetchTexture(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const cacheControl = response.headers.get('cache-control') ?? '';
      for (const directive of ['public', 'max-age=31536000', 'immutable']) expect(cacheControl).toContain(directive);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(sha256Hex(bytes)).toBe(TEXTURE_URL.exec(url)![1]);
      const pixels = await rgbaPixels(bytes);
      expect([pixels.width, pixels.height]).toEqual([64, 32]);
      expect(await profile(uuid)).toMatchObject({ cape_url: url, animated_cape_url: null, animatedCape: false });
    });

    it('accepts a cape of exactly 500,000 bytes and ears of exactly 10,000 bytes, stored re-encoded', async () => {
      const { jar } = await loginNewUser(suite.server);
      const cape = await (await fetchTexture(await uploadOk(jar, 'cape', images.capeMaxBytes!))).arrayBuffer();
      expect(cape.byteLength).toBeLessThan(10_000);
      const earsBytes = await (await fetchTexture(await uploadOk(jar, 'ears', images.earsMaxBytes!))).arrayBuffer();
      expect(earsBytes.byteLength).toBeLessThan(2_000);
    });

    it('answers {success, ears} for 14 x 7 ears and shows them in the profile', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'ears', ears[3]!);
      const response = await fetchTexture(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const pixels = await rgbaPixels(Buffer.from(await response.arrayBuffer()));
      expect([pixels.width, pixels.height]).toEqual([14, 7]);
      expect((await profile(uuid)).ear_url).toBe(url);
    });
  });

  describe('storage', () => {
    it('stores an image two players upload once, and keeps it while either still uses it', async () => {
      const first = await loginNewUser(suite.server);
      const second = await loginNewUser(suite.server);
      const url = await uploadOk(first.jar, 'cape', capes[6]!);
      expect(await uploadOk(second.jar, 'cape', capes[6]!)).toBe(url);
      const hash = TEXTURE_URL.exec(url)![1]!;
      expect(await textureRows(hash)).toBe(1);

      expect(await (await first.jar.request('DELETE', '/api/upload-cape')).json()).toEqual({ success: true, cape: null });
      expect((await profile(first.uuid)).cape_url).toBeNull();
      expect((await fetchTexture(url)).status, 'still used by the second player').toBe(200);
      expect((await profile(second.uuid)).cape_url).toBe(url);
      expect(await textureRows(hash)).toBe(1);

      await second.jar.request('DELETE', '/api/upload-cape');
      expect((await fetchTexture(url)).status).toBe(404);
      expect(await textureRows(hash)).toBe(0);
    });

    it('removes the old cape when a new one replaces it and no one else uses it', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const oldUrl = await uploadOk(jar, 'cape', capes[7]!);
      expect(await uploadOk(jar, 'cape', capes[7]!), 'the same image again keeps its texture').toBe(oldUrl);
      expect((await fetchTexture(oldUrl)).status).toBe(200);
      const newUrl = await uploadOk(jar, 'cape', capes[8]!);
      expect(newUrl).not.toBe(oldUrl);
      expect((await fetchTexture(oldUrl)).status).toBe(404);
      expect((await fetchTexture(newUrl)).status).toBe(200);
      expect(await textureRows(TEXTURE_URL.exec(oldUrl)![1])).toBe(0);
      expect((await profile(uuid)).cape_url).toBe(newUrl);
    });

    it('removes replaced ears when no one else uses them', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const oldUrl = await uploadOk(jar, 'ears', ears[4]!);
      const newUrl = await uploadOk(jar, 'ears', ears[5]!);
      expect((await fetchTexture(oldUrl)).status).toBe(404);
      expect((await profile(uuid)).ear_url).toBe(newUrl);
    });

    it('DELETE removes the cape and the ears from the profile and their unshared textures', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const capeUrl = await uploadOk(jar, 'cape', capes[9]!);
      const earsUrl = await uploadOk(jar, 'ears', ears[6]!);
      expect(await profile(uuid)).toMatchObject({ cape_url: capeUrl, ear_url: earsUrl });

      const deleted = await jar.request('DELETE', '/api/upload-cape');
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toEqual({ success: true, cape: null });
      expect(await profile(uuid)).toMatchObject({ cape_url: null, animated_cape_url: null, ear_url: earsUrl });
      expect((await fetchTexture(capeUrl)).status).toBe(404);

      const deletedEars = await jar.request('DELETE', '/api/upload-ears');
      expect(deletedEars.status).toBe(200);
      expect(await deletedEars.json()).toEqual({ success: true, ears: null });
      expect((await profile(uuid)).ear_url).toBeNull();
      expect((await fetchTexture(earsUrl)).status).toBe(404);
      expect((await jar.request('DELETE', '/api/upload-cape')).status, 'deleting again is harmless').toBe(200);
    });

    it('an animated GIF gives a strip of its frames; animatedCape needs the animated premium feature', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', images.animated!, 'image/gif');
      const withoutPremium = await profile(uuid);
      expect(withoutPremium).toMatchObject({ cape_url: url, animatedCape: false });
      expect(withoutPremium.animated_cape_url).toMatch(TEXTURE_URL);
      expect(withoutPremium.animated_cape_url).not.toBe(url);

      const strip = await fetchTexture(withoutPremium.animated_cape_url as string);
      expect(strip.status).toBe(200);
      expect(strip.headers.get('content-type')).toBe('image/png');
      const pixels = await rgbaPixels(Buffer.from(await strip.arrayBuffer()));
      expect([pixels.width, pixels.height]).toEqual([64, 96]);
      const still = await rgbaPixels(Buffer.from(await (await fetchTexture(url)).arrayBuffer()));
      expect([still.width, still.height]).toEqual([64, 32]);

      await suite.server.db.insertInto('premium').values({ user_uuid: uuid, animated: 1 }).execute();
      // A direct database write is not a change notice; uploading again (as the site would after a purchase) is.
      expect(await uploadOk(jar, 'cape', images.animated!, 'image/gif')).toBe(url);
      // The mod reads only cape_url: with the animation on it is the strip, which the mod plays frame by frame.
      expect(await profile(uuid)).toMatchObject({
        cape_url: withoutPremium.animated_cape_url,
        animated_cape_url: withoutPremium.animated_cape_url,
        animatedCape: true,
      });

      const staticUrl = await uploadOk(jar, 'cape', capes[10]!);
      expect(await profile(uuid), 'a still cape is not animated even with the feature').toMatchObject({
        cape_url: staticUrl,
        animated_cape_url: null,
        animatedCape: false,
      });
      expect((await fetchTexture(withoutPremium.animated_cape_url as string)).status).toBe(404);
      expect((await fetchTexture(url)).status).toBe(404);
    });

    it('stores an HD cape that is not 64·2ⁿ wide at the next such width, as the mod draws it (192 x 96 → 256 x 128)', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', images.hdCape!);
      expect((await profile(uuid)).cape_url).toBe(url);
      const stored = await rgbaPixels(Buffer.from(await (await fetchTexture(url)).arrayBuffer()));
      expect([stored.width, stored.height]).toEqual([256, 128]);
    });

    it('answers a notice when the animation was scaled down to fit, and keeps the still at full size', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const response = await jar.upload('/api/upload-cape', images.overBudget!, { type: 'image/gif', filename: 'cape.gif' });
      const body = (await response.json()) as Record<string, string>;
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(body).toEqual({ success: true, cape: expect.stringMatching(TEXTURE_URL), notice: 'The animation was scaled to 512 × 256 a frame to fit.' });
      const strip = await rgbaPixels(Buffer.from(await (await fetchTexture((await profile(uuid)).animated_cape_url as string)).arrayBuffer()));
      expect([strip.width, strip.height]).toEqual([512, 256 * 17]);
      const still = await rgbaPixels(Buffer.from(await (await fetchTexture(body.cape!)).arrayBuffer()));
      expect([still.width, still.height]).toEqual([1024, 512]);
    });

    it('keeps the animation of a GIF whose first frame is the current still cape, and drops it again for the still, in both orders', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const first = frameColour(310);
      const still = await solidPng(64, 32, first);
      const gif = await animatedGif(64, 32, [first, frameColour(311)]);
      const stillUrl = await uploadOk(jar, 'cape', still);
      expect(await uploadOk(jar, 'cape', gif, 'image/gif'), 'the same still').toBe(stillUrl);
      const stripUrl = (await profile(uuid)).animated_cape_url as string;
      expect(stripUrl).toMatch(TEXTURE_URL);
      expect(stripUrl).not.toBe(stillUrl);
      expect((await fetchTexture(stripUrl)).status).toBe(200);

      expect(await uploadOk(jar, 'cape', still)).toBe(stillUrl);
      expect(await profile(uuid)).toMatchObject({ cape_url: stillUrl, animated_cape_url: null });
      expect((await fetchTexture(stripUrl)).status, 'the strip no one uses is released').toBe(404);
      expect((await fetchTexture(stillUrl)).status).toBe(200);

      expect(await uploadOk(jar, 'cape', gif, 'image/gif')).toBe(stillUrl);
      expect((await profile(uuid)).animated_cape_url).toBe(stripUrl);
      expect((await fetchTexture(stripUrl)).status).toBe(200);
    });

    it('answers 429 with a clear message past the per-user cape upload limit, changing nothing', async () => {
      const limitedDb = await backend.createDatabase();
      const limited = await startServer(limitedDb.url, { TEXTURE_UPLOADS_PER_10_MINUTES: '2' });
      try {
        const { jar, uuid } = await loginNewUser(limited);
        const send = (bytes: Buffer, kind: 'cape' | 'ears' = 'cape') =>
          jar.upload(`/api/upload-${kind}`, bytes, { type: 'image/png', filename: `${kind}.png` });
        expect((await send(capes[2]!)).status).toBe(200);
        const kept = (await (await send(capes[0]!)).json()) as { cape: string };
        const third = await send(capes[1]!);
        expect(third.status).toBe(429);
        expect(await third.json()).toEqual({ error: 'Too many cape uploads. Try again in 10 minutes.' });
        const row = await limited.db.selectFrom('users').select('cape_hash').where('uuid', '=', uuid).executeTakeFirstOrThrow();
        expect(row.cape_hash, 'the refused upload changed nothing').toBe(TEXTURE_URL.exec(kept.cape)![1]);
        expect((await send(ears[1]!, 'ears')).status, 'ears have a limit of their own').toBe(200);
        const other = await loginNewUser(limited);
        expect((await other.jar.upload('/api/upload-cape', capes[1]!, { type: 'image/png', filename: 'cape.png' })).status, 'the limit is per user').toBe(200);
      } finally {
        await limited.close();
        await limitedDb.drop();
      }
    });

    it('account deletion releases the textures only that player used', async () => {
      const leaving = await loginNewUser(suite.server);
      const staying = await loginNewUser(suite.server);
      const capeUrl = await uploadOk(leaving.jar, 'cape', images.animated!, 'image/gif');
      const stripUrl = (await profile(leaving.uuid)).animated_cape_url as string;
      const earsUrl = await uploadOk(leaving.jar, 'ears', ears[0]!);
      const sharedUrl = await uploadOk(staying.jar, 'ears', ears[0]!);
      expect(sharedUrl).toBe(earsUrl);

      const response = await leaving.jar.post('/api/account/delete', { confirm: true });
      expect(response.status).toBe(200);
      expect((await fetchTexture(capeUrl)).status).toBe(404);
      expect((await fetchTexture(stripUrl)).status).toBe(404);
      expect((await fetchTexture(earsUrl)).status, 'still used by another player').toBe(200);
      expect((await fetch(`${suite.server.url}/profile/${leaving.uuid}`)).status).toBe(404);
      expect((await profile(staying.uuid)).ear_url).toBe(sharedUrl);
    });
  });
});
