// API tests for deleting gallery items, and for account deletion removing the gallery items of the account.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { animatedGif, sha256Hex } from '../../../support/textures.ts';
import { galleryForm, gallerySuite, TEXTURE_URL, UNKNOWN_HASH, type Item } from '../../helpers/gallery.ts';
import { emptyWardrobe } from '../../helpers/wardrobe.ts';
import { loginNewUser, newBrowser } from '../../helpers/server.ts';

describe.each(backends)('gallery on $name', (backend) => {
  const { suite, nextColour, freshCape, freshEars, upload, getItem, total, fetchTexture, rows, expectRefused } =
    gallerySuite(backend);

  describe('POST /api/gallery/delete', () => {
    it('lets the author delete: the item, its rows, listing and counters go, and the texture is released', async () => {
      const author = await loginNewUser(suite.server);
      const fan = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Short lived', ['holidays']);
      await fan.jar.post('/api/gallery/like', { hash });
      expect((await fan.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
      const all = await total(author.jar);
      const capes = await total(author.jar, { type: ['cape'] });
      const holidays = await total(author.jar, { tags: ['holidays'] });

      const response = await author.jar.post('/api/gallery/delete', { hash });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      expect((await author.jar.get(`/api/gallery/${hash}`)).status).toBe(404);
      expect(await total(author.jar)).toBe(all - 1);
      expect(await total(author.jar, { type: ['cape'] })).toBe(capes - 1);
      expect(await total(author.jar, { tags: ['holidays'] })).toBe(holidays - 1);
      const listing = (await (await author.jar.get(`/api/gallery/get?user=${author.uuid}`)).json()) as {
        data: Item[];
        total: number;
      };
      expect(listing).toMatchObject({ data: [], total: 0 });
      for (const table of ['gallery_tags', 'gallery_likes', 'gallery_reports', 'textures'] as const)
        expect(await rows(table, hash), table).toBe(0);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(404);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status, 'deleting again').toBe(404);
    });

    it('lets the same image be uploaded again after its item was deleted', async () => {
      const author = await loginNewUser(suite.server);
      const file = await freshCape();
      const hash = await upload(author.jar, file, 'Second life', ['cute']);
      await author.jar.post('/api/gallery/like', { hash });
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      expect(await upload(author.jar, file, 'Second life', ['cute'])).toBe(hash);
      expect(await getItem(author.jar, hash)).toMatchObject({ total_user_likes: 0, user_liked: false, downloads: 0 });
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(200);
    });

    it('never serves rendered previews under /textures, and removes them from the store with the item', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Rendered then gone', ['cute']);
      expect((await author.jar.get(`/api/gallery/${hash}/preview`)).status).toBe(200);
      expect((await author.jar.get(`/api/gallery/${hash}/preview/map`)).status).toBe(200);
      // Renders are kept in the blob store under sha256("{variant}:v1:{hash}"); /textures serves registered textures
      // only.
      const keys = ['preview', 'map'].map((variant) => sha256Hex(Buffer.from(`${variant}:v1:${hash}`)));
      const files = keys.map((key) =>
        path.join(suite.server.config.dataDir, 'textures', key.slice(0, 2), `${key}.png`),
      );
      for (const file of files) expect(fs.existsSync(file), `${file} rendered`).toBe(true);
      for (const key of keys) expect((await fetchTexture(`/textures/${key}`)).status, `/textures/${key}`).toBe(404);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      for (const file of files) expect(fs.existsSync(file), `${file} after the delete`).toBe(false);
    });

    it('releases the strip of an animated item', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(
        author.jar,
        await animatedGif(64, 32, [nextColour(), nextColour()]),
        'Animated bye',
        ['cute'],
        'image/gif',
      );
      const strip = (await getItem(author.jar, hash)).animated_texture!;
      expect((await fetchTexture(strip)).status).toBe(200);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(404);
      expect((await fetchTexture(strip)).status).toBe(404);
    });

    it('refuses another user with 403 and lets a moderator delete for a reason, removing the picture', async () => {
      const author = await loginNewUser(suite.server);
      const other = await loginNewUser(suite.server);
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      const file = await freshCape();
      const hash = await upload(author.jar, file, 'Keep me', ['cute']);
      await expectRefused(
        await other.jar.post('/api/gallery/delete', { hash }),
        403,
        'You can only delete your own textures.',
      );
      expect((await getItem(author.jar, hash)).title).toBe('Keep me');
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(200);
      // A moderator's Delete of someone else's item asks why, as a report's Remove does.
      await expectRefused(await admin.jar.post('/api/gallery/delete', { hash }), 422, 'Choose a reason.');
      await expectRefused(
        await admin.jar.post('/api/gallery/delete', { hash, reason: 'no-such-reason' }),
        422,
        'Choose a reason.',
      );
      expect((await getItem(author.jar, hash)).title, 'nothing changed').toBe('Keep me');
      expect((await admin.jar.post('/api/gallery/delete', { hash, reason: 'nsfw' })).status).toBe(200);
      expect((await author.jar.get(`/api/gallery/${hash}`)).status).toBe(404);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(404);
      const again = await author.jar.sendForm(
        'POST',
        '/api/gallery/new',
        galleryForm({ title: 'Again', tags: ['cute'], file }),
      );
      expect(again.status, 'the picture is on the blocklist').toBe(422);
      const audit = (await (await admin.jar.get('/api/admin/audit')).json()) as {
        data: Array<{ action: string; target_hash: string | null; reason: string | null; detail: string | null }>;
      };
      expect(audit.data.find((row) => row.target_hash === hash)).toMatchObject({
        action: 'GALLERY_DELETE',
        reason: 'NSFW or NSFL image',
        detail: '0 players lost it',
      });
    });

    it('keeps the texture while someone wears the same image as their cape, or keeps it in their wardrobe', async () => {
      const author = await loginNewUser(suite.server);
      const file = await freshCape();
      const capeResponse = await author.jar.upload('/api/upload-cape', file);
      const capeUrl = ((await capeResponse.json()) as { cape: string }).cape;
      const hash = await upload(author.jar, file, 'Worn cape', ['cute']);
      expect(TEXTURE_URL.exec(capeUrl)?.[1], 'the gallery and the cape share the texture').toBe(hash);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(200);
      expect(await rows('textures', hash)).toBe(1);
      await author.jar.request('DELETE', '/api/upload-cape');
      expect((await fetchTexture(`/textures/${hash}`)).status, 'kept in the wardrobe').toBe(200);
      await emptyWardrobe(author.jar);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(404);
    });

    it('answers 401 for visitors and 404 for an unknown hash', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Visitor proof', ['cute']);
      const visitor = await newBrowser(suite.server);
      expect((await visitor.post('/api/gallery/delete', { hash })).status).toBe(401);
      expect((await author.jar.post('/api/gallery/delete', { hash: UNKNOWN_HASH })).status).toBe(404);
      expect((await getItem(author.jar, hash)).hash).toBe(hash);
    });
  });

  it('account deletion removes the gallery items and likes of the account and releases its textures', async () => {
    const leaving = await loginNewUser(suite.server);
    const staying = await loginNewUser(suite.server);
    const stayingItem = await upload(staying.jar, await freshCape(), 'Staying item', ['logos']);
    const sharedFile = await freshCape();
    const leavingCape = await upload(leaving.jar, sharedFile, 'Leaving cape', ['logos']);
    const leavingAnimated = await upload(
      leaving.jar,
      await animatedGif(64, 32, [nextColour(), nextColour()]),
      'Leaving anim',
      ['logos'],
      'image/gif',
    );
    const strip = (await getItem(leaving.jar, leavingAnimated)).animated_texture!;
    const leavingEars = await upload(leaving.jar, await freshEars(), 'Leaving ears', ['cute']);
    // The staying user wears the same image as a cape, so that texture must stay.
    expect(
      TEXTURE_URL.exec(
        ((await (await staying.jar.upload('/api/upload-cape', sharedFile)).json()) as { cape: string }).cape,
      )?.[1],
    ).toBe(leavingCape);
    await leaving.jar.post('/api/gallery/like', { hash: stayingItem });
    await leaving.jar.post('/api/gallery/like', { hash: leavingEars });
    await staying.jar.post('/api/gallery/like', { hash: leavingCape });
    expect((await getItem(staying.jar, stayingItem)).total_user_likes).toBe(1);

    const all = await total(staying.jar);
    const logos = await total(staying.jar, { tags: ['logos'] });
    const animatedTotal = await total(staying.jar, { type: ['animated'] });

    const response = await leaving.jar.post('/api/account/delete', { confirm: true });
    expect(response.status).toBe(200);

    for (const hash of [leavingCape, leavingAnimated, leavingEars])
      expect((await staying.jar.get(`/api/gallery/${hash}`)).status).toBe(404);
    expect(await total(staying.jar)).toBe(all - 3);
    expect(await total(staying.jar, { tags: ['logos'] })).toBe(logos - 2);
    expect(await total(staying.jar, { type: ['animated'] })).toBe(animatedTotal - 1);
    expect(await getItem(staying.jar, stayingItem)).toMatchObject({ total_user_likes: 0, user_liked: false });
    expect(
      await suite.server.db.selectFrom('gallery_likes').select('hash').where('user_uuid', '=', leaving.uuid).execute(),
    ).toEqual([]);
    expect(
      await suite.server.db
        .selectFrom('gallery_items')
        .select('hash')
        .where('author_uuid', '=', leaving.uuid)
        .execute(),
    ).toEqual([]);
    expect((await staying.jar.get(`/api/gallery/user/${leaving.uuid}`)).status).toBe(404);

    expect((await fetchTexture(`/textures/${leavingAnimated}`)).status).toBe(404);
    expect((await fetchTexture(strip)).status).toBe(404);
    expect((await fetchTexture(`/textures/${leavingEars}`)).status).toBe(404);
    expect((await fetchTexture(`/textures/${leavingCape}`)).status, 'still worn as a cape by another player').toBe(200);
    expect((await fetchTexture(`/textures/${stayingItem}`)).status).toBe(200);
  });
});
