// API tests for POST/DELETE /api/upload-cape and /api/upload-ears storing: the answer, storage, dedup, release and the
// profile.
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, startServer } from '../../helpers/server.ts';
import { animatedGif, frameColour, PNG_SIGNATURE, rgbaPixels, sha256Hex, solidPng } from '../../../support/textures.ts';
import { uploadImagesForFile, uploadSuite } from '../../helpers/upload.ts';
import { emptyWardrobe } from '../../helpers/wardrobe.ts';
import { TEXTURE_URL } from '../../helpers/gallery.ts';

const { images, capes, ears } = uploadImagesForFile();

describe.each(backends)('cape and ears upload on $name', (backend) => {
  const { suite, fetchTexture, profile, textureRows, uploadOk } = uploadSuite(backend);

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
    it('stores an image two players upload once, and keeps it while either still wears it or keeps it', async () => {
      const first = await loginNewUser(suite.server);
      const second = await loginNewUser(suite.server);
      const url = await uploadOk(first.jar, 'cape', capes[6]!);
      expect(await uploadOk(second.jar, 'cape', capes[6]!)).toBe(url);
      const hash = TEXTURE_URL.exec(url)![1]!;
      expect(await textureRows(hash)).toBe(1);

      expect(await (await first.jar.request('DELETE', '/api/upload-cape')).json()).toEqual({
        success: true,
        cape: null,
      });
      expect((await profile(first.uuid)).cape_url).toBeNull();
      expect((await fetchTexture(url)).status, 'still used by the second player').toBe(200);
      expect((await profile(second.uuid)).cape_url).toBe(url);
      expect(await textureRows(hash)).toBe(1);

      await second.jar.request('DELETE', '/api/upload-cape');
      await emptyWardrobe(first.jar);
      expect((await fetchTexture(url)).status, 'still in the second player’s wardrobe').toBe(200);
      await emptyWardrobe(second.jar);
      expect((await fetchTexture(url)).status).toBe(404);
      expect(await textureRows(hash)).toBe(0);
    });

    it('keeps the old cape in the wardrobe when a new one replaces it, and removes it with the wardrobe', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const oldUrl = await uploadOk(jar, 'cape', capes[7]!);
      expect(await uploadOk(jar, 'cape', capes[7]!), 'the same image again keeps its texture').toBe(oldUrl);
      expect((await fetchTexture(oldUrl)).status).toBe(200);
      const newUrl = await uploadOk(jar, 'cape', capes[8]!);
      expect(newUrl).not.toBe(oldUrl);
      expect((await fetchTexture(oldUrl)).status, 'kept in the wardrobe').toBe(200);
      expect((await profile(uuid)).cape_url).toBe(newUrl);
      await emptyWardrobe(jar);
      expect((await fetchTexture(oldUrl)).status).toBe(404);
      expect((await fetchTexture(newUrl)).status, 'the worn one came off with it').toBe(404);
      expect(await textureRows(TEXTURE_URL.exec(oldUrl)![1])).toBe(0);
      expect((await profile(uuid)).cape_url).toBeNull();
    });

    it('keeps replaced ears in the wardrobe, and removes them with it', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const oldUrl = await uploadOk(jar, 'ears', ears[4]!);
      const newUrl = await uploadOk(jar, 'ears', ears[5]!);
      expect((await fetchTexture(oldUrl)).status).toBe(200);
      expect((await profile(uuid)).ear_url).toBe(newUrl);
      await emptyWardrobe(jar);
      expect((await fetchTexture(oldUrl)).status).toBe(404);
    });

    it('DELETE takes the cape and the ears off the profile; the wardrobe keeps their textures until emptied', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const capeUrl = await uploadOk(jar, 'cape', capes[9]!);
      const earsUrl = await uploadOk(jar, 'ears', ears[6]!);
      expect(await profile(uuid)).toMatchObject({ cape_url: capeUrl, ear_url: earsUrl });

      const deleted = await jar.request('DELETE', '/api/upload-cape');
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toEqual({ success: true, cape: null });
      expect(await profile(uuid)).toMatchObject({ cape_url: null, animated_cape_url: null, ear_url: earsUrl });
      expect((await fetchTexture(capeUrl)).status).toBe(200);

      const deletedEars = await jar.request('DELETE', '/api/upload-ears');
      expect(deletedEars.status).toBe(200);
      expect(await deletedEars.json()).toEqual({ success: true, ears: null });
      expect((await profile(uuid)).ear_url).toBeNull();
      expect((await jar.request('DELETE', '/api/upload-cape')).status, 'deleting again is harmless').toBe(200);
      await emptyWardrobe(jar);
      expect((await fetchTexture(capeUrl)).status).toBe(404);
      expect((await fetchTexture(earsUrl)).status).toBe(404);
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
      expect((await fetchTexture(withoutPremium.animated_cape_url as string)).status, 'in the wardrobe').toBe(200);
      await emptyWardrobe(jar);
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
      const response = await jar.upload('/api/upload-cape', images.overBudget!, {
        type: 'image/gif',
        filename: 'cape.gif',
      });
      const body = (await response.json()) as Record<string, string>;
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(body).toEqual({
        success: true,
        cape: expect.stringMatching(TEXTURE_URL),
        notice: 'The animation was scaled to 512 × 256 a frame to fit.',
      });
      const strip = await rgbaPixels(
        Buffer.from(await (await fetchTexture((await profile(uuid)).animated_cape_url as string)).arrayBuffer()),
      );
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
      expect((await fetchTexture(stripUrl)).status, 'the strip stays in the wardrobe').toBe(200);
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
        const row = await limited.db
          .selectFrom('users')
          .select('cape_hash')
          .where('uuid', '=', uuid)
          .executeTakeFirstOrThrow();
        expect(row.cape_hash, 'the refused upload changed nothing').toBe(TEXTURE_URL.exec(kept.cape)![1]);
        const earsToo = await send(ears[1]!, 'ears');
        expect(earsToo.status, 'ears share the budget of every texture change').toBe(429);
        expect(await earsToo.json()).toEqual({ error: 'Too many ears uploads. Try again in 10 minutes.' });
        const other = await loginNewUser(limited);
        expect(
          (await other.jar.upload('/api/upload-cape', capes[1]!, { type: 'image/png', filename: 'cape.png' })).status,
          'the limit is per user',
        ).toBe(200);
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
