// API tests for gallery items and their images: item answers, previews, downloads and the kept animated GIF.
import sharp from 'sharp';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { backends } from '../../../support/backends.ts';
import {
  animatedGif,
  frameColour,
  PNG_SIGNATURE,
  rgbaPixels,
  sha256Hex,
  solidPng,
  type Rgba,
} from '../../../support/textures.ts';
import { gallerySuite, UNKNOWN_HASH, type User } from '../../helpers/gallery.ts';
import { loginNewUser, newBrowser, startServer } from '../../helpers/server.ts';

describe.each(backends)('gallery on $name', (backend) => {
  const { suite, nextColour, freshCape, freshEars, sendNew, upload, getItem, fetchTexture, expectRefused } =
    gallerySuite(backend);

  describe('items and their images', () => {
    let author: User;
    let cape: string;
    let ears: string;
    let animated: string;
    let animatedFrames: Rgba[];

    beforeAll(async () => {
      author = await loginNewUser(suite.server);
      cape = await upload(author.jar, await freshCape(), 'Download me', ['food']);
      ears = await upload(author.jar, await freshEars(), 'Ears preview', ['food']);
      animatedFrames = [nextColour(), nextColour()];
      animated = await upload(author.jar, await animatedGif(64, 32, animatedFrames), 'Moving', ['food'], 'image/gif');
    });

    it('GET /api/gallery/{hash} answers 404 for an unknown hash and 401 for visitors', async () => {
      await expectRefused(await author.jar.get(`/api/gallery/${UNKNOWN_HASH}`), 404, 'That texture does not exist.');
      expect((await author.jar.get('/api/gallery/not-a-hash')).status).toBe(404);
      const visitor = await newBrowser(suite.server);
      for (const path of [
        `/api/gallery/${cape}`,
        `/api/gallery/${cape}/preview`,
        `/api/gallery/${cape}/preview/map`,
        `/api/gallery/${cape}/download`,
      ]) {
        expect((await visitor.get(path)).status, path).toBe(401);
      }
      expect((await getItem(author.jar, cape)).downloads, 'a refused download is not counted').toBe(0);
    });

    it('/preview is a 320 x 180 PNG for capes and ears; /preview/map is a PNG; unknown hashes 404', async () => {
      for (const hash of [cape, ears, animated]) {
        const preview = await author.jar.get(`/api/gallery/${hash}/preview`);
        expect(preview.status).toBe(200);
        expect(preview.headers.get('content-type')).toBe('image/png');
        const pixels = await rgbaPixels(Buffer.from(await preview.arrayBuffer()));
        expect([pixels.width, pixels.height]).toEqual([320, 180]);
        const map = await author.jar.get(`/api/gallery/${hash}/preview/map`);
        expect(map.status).toBe(200);
        expect(map.headers.get('content-type')).toBe('image/png');
        expect(
          Buffer.from(await map.arrayBuffer())
            .subarray(0, 8)
            .equals(PNG_SIGNATURE),
        ).toBe(true);
      }
      for (const suffix of ['preview', 'preview/map', 'download']) {
        expect((await author.jar.get(`/api/gallery/${UNKNOWN_HASH}/${suffix}`)).status, suffix).toBe(404);
      }
    });

    it('/download sends the PNG as an attachment and counts each download', async () => {
      const viewer = await loginNewUser(suite.server);
      for (let n = 1; n <= 2; n++) {
        const response = await viewer.jar.get(`/api/gallery/${cape}/download`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect(response.headers.get('content-disposition')).toBe('attachment; filename="Download me.png"');
        expect(sha256Hex(Buffer.from(await response.arrayBuffer()))).toBe(cape);
        expect((await getItem(viewer.jar, cape)).downloads).toBe(n);
      }
    });

    it('/download of an animated item sends a GIF with its frames', async () => {
      const response = await author.jar.get(`/api/gallery/${animated}/download`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/gif');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="Moving.gif"');
      const gif = Buffer.from(await response.arrayBuffer());
      expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a');
      const meta = await sharp(gif, { pages: -1 }).metadata();
      expect([meta.width, meta.pageHeight, meta.pages]).toEqual([64, 32, 2]);
      const { data, info } = await sharp(gif, { pages: -1 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const frameTops = animatedFrames.map((_, frame) => [
        ...data.subarray(frame * 32 * info.width * 4, frame * 32 * info.width * 4 + 4),
      ]);
      expect(frameTops).toEqual(animatedFrames);
      expect((await getItem(author.jar, animated)).downloads).toBe(1);
    });
  });

  describe('animated downloads', () => {
    it('builds the GIF once, keeps it in the blob store beside the strip and removes it with the item', async () => {
      const author = await loginNewUser(suite.server);
      const frames = [nextColour(), nextColour(), nextColour()];
      const hash = await upload(author.jar, await animatedGif(64, 32, frames), 'Kept gif', ['cute'], 'image/gif');
      const key = sha256Hex(Buffer.from(`gif:v1:${hash}`));
      const file = path.join(suite.server.config.dataDir, 'textures', key.slice(0, 2), `${key}.png`);
      expect(fs.existsSync(file), 'no GIF before the first download').toBe(false);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => author.jar.get(`/api/gallery/${hash}/download`)),
      );
      const bodies = await Promise.all(answers.map(async (response) => Buffer.from(await response.arrayBuffer())));
      expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      for (const body of bodies) expect(body.equals(bodies[0]!)).toBe(true);
      expect(fs.existsSync(file), 'the GIF is kept').toBe(true);
      expect(fs.readFileSync(file).equals(bodies[0]!)).toBe(true);
      expect((await getItem(author.jar, hash)).downloads).toBe(5);
      expect((await fetchTexture(`/textures/${key}`)).status, 'never served as a texture').toBe(404);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      expect(fs.existsSync(file), 'gone with the item').toBe(false);
    });

    it('answers 429 with a clear message past the per-user download limit, and counts nothing more', async () => {
      const limitedDb = await backend.createDatabase();
      const limited = await startServer(limitedDb.url, { GALLERY_DOWNLOADS_PER_MINUTE: '2' });
      try {
        const { jar } = await loginNewUser(limited);
        const created = (await (
          await sendNew(jar, { title: 'Limited', tags: ['cute'], file: await solidPng(64, 32, frameColour(7)) })
        ).json()) as {
          hash: string;
        };
        for (let i = 0; i < 2; i++) expect((await jar.get(`/api/gallery/${created.hash}/download`)).status).toBe(200);
        const third = await jar.get(`/api/gallery/${created.hash}/download`);
        expect(third.status).toBe(429);
        expect(await third.json()).toEqual({ error: galleryMessages.tooManyDownloads });
        const other = await loginNewUser(limited);
        expect((await other.jar.get(`/api/gallery/${created.hash}/download`)).status, 'the limit is per user').toBe(
          200,
        );
        const row = await limited.db
          .selectFrom('gallery_items')
          .select('downloads')
          .where('hash', '=', created.hash)
          .executeTakeFirstOrThrow();
        expect(row.downloads).toBe(3);
      } finally {
        await limited.close();
        await limitedDb.drop();
      }
    });
  });
});
