// API tests for the gallery upload call and the tag list: new items of each type, dedup, refusals, limits.
import { beforeAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { textureMessages, wrongCapeSizeMessage } from '../../../src/lib/texture-rules.ts';
import { DEFAULT_TAGS } from '../../../server/db/migrations/seed-rows.ts';
import { backends } from '../../../support/backends.ts';
import {
  animatedGif,
  frameColour,
  rgbaPixels,
  sha256Hex,
  solidGif,
  solidPng,
  type Rgba,
} from '../../../support/textures.ts';
import { gallerySuite, makeRefusalImages } from '../../helpers/gallery.ts';
import { loginNewUser, newBrowser, startServer } from '../../helpers/server.ts';

/** Fixed images for the rejection cases, made once. */
const images: Record<string, Buffer> = {};

beforeAll(async () => {
  Object.assign(images, await makeRefusalImages());
});

describe.each(backends)('gallery on $name', (backend) => {
  const {
    suite,
    nextColour,
    freshCape,
    freshEars,
    sendNew,
    upload,
    getItem,
    fetchTexture,
    rows,
    snapshot,
    expectRefused,
  } = gallerySuite(backend);

  it('GET /api/gallery/tags lists the default tags as [{tag_key, name}]', async () => {
    const response = await fetch(`${suite.server.url}/api/gallery/tags`);
    expect(response.status).toBe(200);
    const tags = (await response.json()) as Array<Record<string, string>>;
    for (const tag of tags) expect(Object.keys(tag).sort()).toEqual(['name', 'tag_key']);
    expect([...tags].sort((a, b) => (a.tag_key! < b.tag_key! ? -1 : 1))).toEqual(
      [...DEFAULT_TAGS].sort((a, b) => (a.tag_key < b.tag_key ? -1 : 1)),
    );
  });

  describe('POST /api/gallery/new', () => {
    it('stores a cape PNG as type 0 (201) and the item page shows it', async () => {
      const user = await loginNewUser(suite.server);
      const file = await freshCape();
      const before = Date.now();
      const hash = await upload(user.jar, file, 'Cool cape 1', ['space', 'abstract', 'space']);
      const item = await getItem(user.jar, hash);
      expect(item).toEqual({
        hash,
        title: 'Cool cape 1',
        author: user.uuid,
        author_name: user.username,
        type: 0,
        animated: false,
        texture: `/textures/${hash}`,
        animated_texture: null,
        tags: [
          { tag_key: 'abstract', name: 'Abstract' },
          { tag_key: 'space', name: 'Space' },
        ],
        whitelisted: false,
        user_liked: false,
        user_wears: false,
        total_user_likes: 0,
        downloads: 0,
        wears: 0,
        createdAt: expect.any(String),
      });
      expect(Date.parse(item.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(item.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);
      const texture = await fetchTexture(item.texture);
      expect(texture.status).toBe(200);
      const bytes = Buffer.from(await texture.arrayBuffer());
      expect(sha256Hex(bytes)).toBe(hash);
      expect(await rgbaPixels(bytes)).toMatchObject({ width: 64, height: 32 });
      expect(await rows('gallery_tags', hash)).toBe(2);
    });

    it('stores 14 x 7 ears as type 1', async () => {
      const user = await loginNewUser(suite.server);
      const hash = await upload(user.jar, await freshEars(), 'Bunny ears', ['animals']);
      expect(await getItem(user.jar, hash)).toMatchObject({ type: 1, animated: false, animated_texture: null });
      expect(
        await rgbaPixels(Buffer.from(await (await fetchTexture(`/textures/${hash}`)).arrayBuffer())),
      ).toMatchObject({ width: 14, height: 7 });
    });

    it('stores an animated GIF as type 2 keyed by its strip (texture and animated_texture); a one-frame GIF is a type 0 cape', async () => {
      const user = await loginNewUser(suite.server);
      const frames: Rgba[] = [nextColour(), nextColour(), nextColour()];
      const hash = await upload(user.jar, await animatedGif(64, 32, frames), 'Flashing', ['colourful'], 'image/gif');
      const item = await getItem(user.jar, hash);
      expect(item).toMatchObject({
        type: 2,
        animated: true,
        texture: `/textures/${hash}`,
        animated_texture: `/textures/${hash}`,
      });
      const strip = await rgbaPixels(Buffer.from(await (await fetchTexture(item.animated_texture!)).arrayBuffer()));
      expect([strip.width, strip.height]).toEqual([64, 96]);

      const still = await upload(
        user.jar,
        await solidGif(64, 32, nextColour()),
        'Still gif',
        ['colourful'],
        'image/gif',
      );
      expect(await getItem(user.jar, still)).toMatchObject({ type: 0, animated: false, animated_texture: null });
    });

    it('accepts a file of exactly 500,000 bytes and a title of exactly 20 characters', async () => {
      const user = await loginNewUser(suite.server);
      const hash = await upload(user.jar, images.maxBytes!, 'Abcdefghij_klmn 1234', ['minimal']);
      expect((await getItem(user.jar, hash)).title).toBe('Abcdefghij_klmn 1234');
    });

    it('answers the same image again, from its author or another user, with 200 {existing: true} and the same hash', async () => {
      const first = await loginNewUser(suite.server);
      const second = await loginNewUser(suite.server);
      const file = await freshCape();
      const hash = await upload(first.jar, file, 'Original', ['cute']);
      const before = await snapshot();
      for (const [jar, title] of [
        [first.jar, 'Again'],
        [second.jar, 'Copied'],
      ] as const) {
        const response = await sendNew(jar, { title, tags: ['dark'], file });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ success: true, hash, existing: true });
      }
      expect(await snapshot()).toEqual(before);
      expect(await getItem(second.jar, hash)).toMatchObject({
        title: 'Original',
        author: first.uuid,
        tags: [{ tag_key: 'cute', name: 'Cute' }],
      });
    });

    it('keeps an animated GIF whose first frame matches a still item as an item of its own, in both orders', async () => {
      const user = await loginNewUser(suite.server);
      for (const order of ['still first', 'GIF first'] as const) {
        const frames: Rgba[] = [nextColour(), nextColour()];
        const still = await solidPng(64, 32, frames[0]);
        const gif = await animatedGif(64, 32, frames);
        const uploads = order === 'still first' ? [still, gif] : [gif, still];
        const hashes = [];
        for (const file of uploads)
          hashes.push(await upload(user.jar, file, 'Twins', ['cute'], file === gif ? 'image/gif' : 'image/png'));
        const [stillHash, gifHash] = order === 'still first' ? hashes : [hashes[1]!, hashes[0]!];
        expect(gifHash, order).not.toBe(stillHash);
        expect(await getItem(user.jar, stillHash!), order).toMatchObject({
          type: 0,
          animated: false,
          animated_texture: null,
        });
        const animatedItem = await getItem(user.jar, gifHash!);
        expect(animatedItem, order).toMatchObject({
          type: 2,
          animated: true,
          animated_texture: `/textures/${gifHash}`,
        });
        const strip = await rgbaPixels(
          Buffer.from(await (await fetchTexture(animatedItem.animated_texture!)).arrayBuffer()),
        );
        expect([strip.width, strip.height], order).toEqual([64, 64]);
      }
    });

    it('keeps two animations that share a first frame apart, and answers the same animation again as existing', async () => {
      const user = await loginNewUser(suite.server);
      const first = nextColour();
      const one = await animatedGif(64, 32, [first, nextColour()]);
      const two = await animatedGif(64, 32, [first, nextColour()]);
      const oneHash = await upload(user.jar, one, 'One', ['cute'], 'image/gif');
      const twoHash = await upload(user.jar, two, 'Two', ['cute'], 'image/gif');
      expect(twoHash).not.toBe(oneHash);
      const again = await sendNew(user.jar, { title: 'One again', tags: ['cute'], file: one, type: 'image/gif' });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ success: true, hash: oneHash, existing: true });
    });

    it('says in its answer when an animation was scaled down to fit the strip budget', async () => {
      const user = await loginNewUser(suite.server);
      const frames = Array.from({ length: 17 }, () => nextColour());
      const response = await sendNew(user.jar, {
        title: 'Big animation',
        tags: ['cute'],
        file: await animatedGif(1024, 512, frames),
        type: 'image/gif',
      });
      const body = (await response.json()) as { hash: string; notice?: string };
      expect(response.status, JSON.stringify(body)).toBe(201);
      expect(body.notice).toBe('The animation was scaled to 512 × 256 a frame to fit.');
      const strip = await rgbaPixels(
        Buffer.from(await (await fetchTexture((await getItem(user.jar, body.hash)).animated_texture!)).arrayBuffer()),
      );
      expect([strip.width, strip.height]).toEqual([512, 256 * 17]);
    });

    describe('refusals store nothing', () => {
      it.each([
        ['no title', { tags: ['cute'], file: 'cape' }, galleryMessages.missingFields],
        ['an empty title', { title: '', tags: ['cute'], file: 'cape' }, galleryMessages.missingFields],
        ['a blank title', { title: '   ', tags: ['cute'], file: 'cape' }, galleryMessages.missingFields],
        ['no tags', { title: 'Nice', file: 'cape' }, galleryMessages.missingFields],
        ['an empty tag list', { title: 'Nice', tags: [], file: 'cape' }, galleryMessages.missingFields],
        ['no file', { title: 'Nice', tags: ['cute'] }, galleryMessages.missingFields],
        ['nothing', {}, galleryMessages.missingFields],
        [
          'a 21-character title',
          { title: 'Abcdefghij_klmn 12345', tags: ['cute'], file: 'cape' },
          galleryMessages.titleTooLong,
        ],
        [
          'a title with a hyphen',
          { title: 'Cool-cape', tags: ['cute'], file: 'cape' },
          galleryMessages.titleCharacters,
        ],
        [
          'a title with an emoji',
          { title: 'Cape \u{1F600}', tags: ['cute'], file: 'cape' },
          galleryMessages.titleCharacters,
        ],
        ['a title with HTML', { title: '<b>x</b>', tags: ['cute'], file: 'cape' }, galleryMessages.titleCharacters],
        ['an unknown tag', { title: 'Nice', tags: ['cute', 'no-such-tag'], file: 'cape' }, galleryMessages.unknownTag],
        ['tags that are not JSON', { title: 'Nice', tags: 'cute', file: 'cape' }, galleryMessages.unknownTag],
        [
          'tags that are not a list',
          { title: 'Nice', tags: '{"cute":true}', file: 'cape' },
          galleryMessages.unknownTag,
        ],
        ['a text file', { title: 'Nice', tags: ['cute'], file: 'text', type: 'text/plain' }, galleryMessages.fileType],
        ['a text file sent as image/png', { title: 'Nice', tags: ['cute'], file: 'text' }, galleryMessages.fileType],
        ['a JPEG', { title: 'Nice', tags: ['cute'], file: 'jpeg', type: 'image/jpeg' }, galleryMessages.fileType],
        ['a broken PNG', { title: 'Nice', tags: ['cute'], file: 'invalidPng' }, textureMessages.invalidImage],
        [
          'a 64 x 33 cape',
          { title: 'Nice', tags: ['cute'], file: 'wrongRatio' },
          wrongCapeSizeMessage({ width: 64, height: 33 }),
        ],
        [
          'a 64 x 64 cape',
          { title: 'Nice', tags: ['cute'], file: 'square' },
          wrongCapeSizeMessage({ width: 64, height: 64 }),
        ],
        [
          'a square GIF',
          { title: 'Nice', tags: ['cute'], file: 'squareGif', type: 'image/gif' },
          wrongCapeSizeMessage({ width: 64, height: 64 }),
        ],
        ['a 4096 x 2048 cape', { title: 'Nice', tags: ['cute'], file: 'tooLarge' }, textureMessages.capeTooLarge],
        [
          '14 x 10 (not ears, not a cape)',
          { title: 'Nice', tags: ['cute'], file: 'ears14x10' },
          wrongCapeSizeMessage({ width: 14, height: 10 }),
        ],
        [
          '15 x 7 (not ears, not a cape)',
          { title: 'Nice', tags: ['cute'], file: 'ears15x7' },
          wrongCapeSizeMessage({ width: 15, height: 7 }),
        ],
        [
          'a 65-frame GIF',
          { title: 'Nice', tags: ['cute'], file: 'bombGif', type: 'image/gif' },
          textureMessages.capeTooManyFrames,
        ],
      ] as Array<[string, { title?: string; tags?: string[] | string; file?: string; type?: string }, string]>)(
        'refuses %s with 422 and its message',
        async (_name, fields, message) => {
          const { jar } = await loginNewUser(suite.server);
          const file = fields.file === 'cape' ? await freshCape() : fields.file ? images[fields.file] : undefined;
          const before = await snapshot();
          await expectRefused(await sendNew(jar, { ...fields, file }), 422, message);
          expect(await snapshot()).toEqual(before);
        },
      );

      it('refuses a file of 500,001 bytes with 413 and its message, even without the other fields', async () => {
        const { jar } = await loginNewUser(suite.server);
        const before = await snapshot();
        await expectRefused(
          await sendNew(jar, { title: 'Nice', tags: ['cute'], file: images.tooBig }),
          413,
          galleryMessages.fileTooBig,
        );
        await expectRefused(await sendNew(jar, { file: images.tooBig }), 413, galleryMessages.fileTooBig);
        expect(await snapshot()).toEqual(before);
      });
    });

    it('answers 401 without a session and 419 without the XSRF header, storing nothing', async () => {
      const visitor = await newBrowser(suite.server);
      const { jar } = await loginNewUser(suite.server);
      const file = await freshCape();
      const before = await snapshot();
      expect((await sendNew(visitor, { title: 'Nice', tags: ['cute'], file })).status).toBe(401);
      expect((await sendNew(jar, { title: 'Nice', tags: ['cute'], file }, { xsrf: false })).status).toBe(419);
      expect(await snapshot()).toEqual(before);
    });

    it('answers the third upload within 10 minutes with 429 and the too-many-uploads message when the limit is 2', async () => {
      const limitedDb = await backend.createDatabase();
      const limited = await startServer(limitedDb.url, { GALLERY_UPLOADS_PER_10_MINUTES: '2' });
      try {
        const { jar } = await loginNewUser(limited);
        for (let i = 0; i < 2; i++) {
          const response = await sendNew(jar, {
            title: `Upload ${i}`,
            tags: ['cute'],
            file: await solidPng(64, 32, frameColour(i)),
          });
          expect(response.status).toBe(201);
        }
        const third = await sendNew(jar, {
          title: 'Upload 3',
          tags: ['cute'],
          file: await solidPng(64, 32, frameColour(3)),
        });
        expect(third.status).toBe(429);
        expect(await third.json()).toEqual({ error: galleryMessages.tooManyUploads });
        expect(
          Number(
            (
              await limited.db
                .selectFrom('gallery_items')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ).toBe(2);
        const other = await loginNewUser(limited);
        expect(
          (
            await sendNew(other.jar, {
              title: 'Other user',
              tags: ['cute'],
              file: await solidPng(64, 32, frameColour(4)),
            })
          ).status,
          'the limit is per user',
        ).toBe(201);
      } finally {
        await limited.close();
        await limitedDb.drop();
      }
    });
  });
});
