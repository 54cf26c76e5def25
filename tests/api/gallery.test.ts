// API tests for the gallery calls besides the listing: tags, new (rules, dedup, 429), items, images, like, delete, edit, report, account deletion.
import sharp from 'sharp';
import fs from 'node:fs';
import path from 'node:path';
import type { GalleryItem } from '../../src/lib/types.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../src/lib/gallery-rules.ts';
import { textureMessages } from '../../src/lib/texture-rules.ts';
import { DEFAULT_TAGS } from '../../server/db/migrations/seed-rows.ts';
import { backends } from '../../support/backends.ts';
import type { CookieJar } from '../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser, serverForSuite, startServer } from '../helpers/server.ts';
import { animatedGif, frameColour, padPng, PNG_SIGNATURE, rgbaPixels, sha256Hex, solidGif, solidPng, type Rgba } from '../../support/textures.ts';

const UNKNOWN_HASH = 'f'.repeat(64);
const TEXTURE_URL = /^https?:\/\/[^/]+\/textures\/([0-9a-f]{64})$/;

type User = Awaited<ReturnType<typeof loginNewUser>>;

type Item = GalleryItem;

/** Fixed images for the rejection cases, made once. */
const images: Record<string, Buffer> = {};

beforeAll(async () => {
  Object.assign(images, {
    tooBig: padPng(await solidPng(64, 32, [1, 1, 1, 255]), 500_001),
    maxBytes: padPng(await solidPng(64, 32, [2, 2, 2, 255]), 500_000),
    text: Buffer.from('Not an image at all.\n'.repeat(20)),
    jpeg: await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .jpeg()
      .toBuffer(),
    invalidPng: (await solidPng(128, 64)).subarray(0, 60),
    wrongRatio: await solidPng(64, 33),
    square: await solidPng(64, 64),
    squareGif: await solidGif(64, 64),
    tooLarge: await solidPng(4096, 2048),
    notMultiple: await solidPng(66, 33),
    ears14x10: await solidPng(14, 10),
    ears15x7: await solidPng(15, 7),
    bombGif: await animatedGif(64, 32, 65),
  });
});

/** The error text of a refusal: `{error}` or `{message, errors}`. */
function errorText(body: Record<string, unknown>): unknown {
  return body.error ?? body.message;
}

describe.each(backends)('gallery on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', GALLERY_UPLOADS_PER_10_MINUTES: '1000' });
  let colour = 0;

  /** A 64 x 32 cape in a colour no other test on this server uses. */
  function freshCape(): Promise<Buffer> {
    return solidPng(64, 32, frameColour(colour++));
  }

  /** 14 x 7 ears in a colour no other test on this server uses. */
  function freshEars(): Promise<Buffer> {
    return solidPng(14, 7, frameColour(colour++));
  }

  /** Sends the gallery upload form; any of title, tags (sent as JSON unless a string) and file may be left out. */
  function sendNew(jar: CookieJar, fields: { title?: string; tags?: string[] | string; file?: Buffer; type?: string }, options: { xsrf?: boolean } = {}) {
    const form = new FormData();
    if (fields.title !== undefined) form.append('title', fields.title);
    if (fields.tags !== undefined) form.append('tags', typeof fields.tags === 'string' ? fields.tags : JSON.stringify(fields.tags));
    if (fields.file) {
      const type = fields.type ?? 'image/png';
      form.append('file', new Blob([new Uint8Array(fields.file)], { type }), type === 'image/gif' ? 'texture.gif' : 'texture.png');
    }
    return jar.sendForm('POST', '/api/gallery/new', form, options);
  }

  /** Uploads a texture that must be accepted as new (201); returns its hash. */
  async function upload(jar: CookieJar, file: Buffer, title = 'My texture', tags: string[] = ['cute'], type?: string): Promise<string> {
    const response = await sendNew(jar, { title, tags, file, type });
    const body = (await response.json()) as { success: boolean; hash: string; existing: boolean };
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body).toEqual({ success: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/), existing: false });
    return body.hash;
  }

  async function getItem(jar: CookieJar, hash: string): Promise<Item> {
    const response = await jar.get(`/api/gallery/${hash}`);
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body as Item;
  }

  async function total(jar: CookieJar, params: Record<string, string[]> = {}): Promise<number> {
    const search = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)]));
    const response = await jar.get(`/api/gallery/get?${search}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { total: number }).total;
  }

  function fetchTexture(path: string): Promise<Response> {
    return fetch(new URL(path, suite.server.url));
  }

  async function rows(table: 'gallery_items' | 'textures' | 'gallery_tags' | 'gallery_likes' | 'gallery_reports', hash?: string): Promise<number> {
    let query = suite.server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (hash) query = query.where('hash', '=', hash);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  async function snapshot() {
    return { items: await rows('gallery_items'), textures: await rows('textures'), tags: await rows('gallery_tags') };
  }

  async function expectRefused(response: Response, status: number, message: string): Promise<void> {
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(status);
    expect(errorText(body)).toBe(message);
  }

  it('GET /api/gallery/tags lists the default tags as [{tag_key, name}]', async () => {
    const response = await fetch(`${suite.server.url}/api/gallery/tags`);
    expect(response.status).toBe(200);
    const tags = (await response.json()) as Array<Record<string, string>>;
    for (const tag of tags) expect(Object.keys(tag).sort()).toEqual(['name', 'tag_key']);
    expect([...tags].sort((a, b) => (a.tag_key! < b.tag_key! ? -1 : 1))).toEqual([...DEFAULT_TAGS].sort((a, b) => (a.tag_key < b.tag_key ? -1 : 1)));
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
        total_user_likes: 0,
        downloads: 0,
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
      expect(await rgbaPixels(Buffer.from(await (await fetchTexture(`/textures/${hash}`)).arrayBuffer()))).toMatchObject({ width: 14, height: 7 });
    });

    it('stores an animated GIF as type 2 keyed by its strip (texture and animated_texture); a one-frame GIF is a type 0 cape', async () => {
      const user = await loginNewUser(suite.server);
      const frames: Rgba[] = [frameColour(colour++), frameColour(colour++), frameColour(colour++)];
      const hash = await upload(user.jar, await animatedGif(64, 32, frames), 'Flashing', ['colourful'], 'image/gif');
      const item = await getItem(user.jar, hash);
      expect(item).toMatchObject({ type: 2, animated: true, texture: `/textures/${hash}`, animated_texture: `/textures/${hash}` });
      const strip = await rgbaPixels(Buffer.from(await (await fetchTexture(item.animated_texture!)).arrayBuffer()));
      expect([strip.width, strip.height]).toEqual([64, 96]);

      const still = await upload(user.jar, await solidGif(64, 32, frameColour(colour++)), 'Still gif', ['colourful'], 'image/gif');
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
      expect(await getItem(second.jar, hash)).toMatchObject({ title: 'Original', author: first.uuid, tags: [{ tag_key: 'cute', name: 'Cute' }] });
    });

    it('keeps an animated GIF whose first frame matches a still item as an item of its own, in both orders', async () => {
      const user = await loginNewUser(suite.server);
      for (const order of ['still first', 'GIF first'] as const) {
        const frames: Rgba[] = [frameColour(colour++), frameColour(colour++)];
        const still = await solidPng(64, 32, frames[0]);
        const gif = await animatedGif(64, 32, frames);
        const uploads = order === 'still first' ? [still, gif] : [gif, still];
        const hashes = [];
        for (const file of uploads) hashes.push(await upload(user.jar, file, 'Twins', ['cute'], file === gif ? 'image/gif' : 'image/png'));
        const [stillHash, gifHash] = order === 'still first' ? hashes : [hashes[1]!, hashes[0]!];
        expect(gifHash, order).not.toBe(stillHash);
        expect(await getItem(user.jar, stillHash!), order).toMatchObject({ type: 0, animated: false, animated_texture: null });
        const animatedItem = await getItem(user.jar, gifHash!);
        expect(animatedItem, order).toMatchObject({ type: 2, animated: true, animated_texture: `/textures/${gifHash}` });
        const strip = await rgbaPixels(Buffer.from(await (await fetchTexture(animatedItem.animated_texture!)).arrayBuffer()));
        expect([strip.width, strip.height], order).toEqual([64, 64]);
      }
    });

    it('keeps two animations that share a first frame apart, and answers the same animation again as existing', async () => {
      const user = await loginNewUser(suite.server);
      const first = frameColour(colour++);
      const one = await animatedGif(64, 32, [first, frameColour(colour++)]);
      const two = await animatedGif(64, 32, [first, frameColour(colour++)]);
      const oneHash = await upload(user.jar, one, 'One', ['cute'], 'image/gif');
      const twoHash = await upload(user.jar, two, 'Two', ['cute'], 'image/gif');
      expect(twoHash).not.toBe(oneHash);
      const again = await sendNew(user.jar, { title: 'One again', tags: ['cute'], file: one, type: 'image/gif' });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ success: true, hash: oneHash, existing: true });
    });

    it('says in its answer when an animation was scaled down to fit the strip budget', async () => {
      const user = await loginNewUser(suite.server);
      const frames = Array.from({ length: 17 }, () => frameColour(colour++));
      const response = await sendNew(user.jar, { title: 'Big animation', tags: ['cute'], file: await animatedGif(1024, 512, frames), type: 'image/gif' });
      const body = (await response.json()) as { hash: string; notice?: string };
      expect(response.status, JSON.stringify(body)).toBe(201);
      expect(body.notice).toBe('The animation was scaled to 512 × 256 a frame to fit.');
      const strip = await rgbaPixels(Buffer.from(await (await fetchTexture((await getItem(user.jar, body.hash)).animated_texture!)).arrayBuffer()));
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
        ['a 21-character title', { title: 'Abcdefghij_klmn 12345', tags: ['cute'], file: 'cape' }, galleryMessages.titleTooLong],
        ['a title with a hyphen', { title: 'Cool-cape', tags: ['cute'], file: 'cape' }, galleryMessages.titleCharacters],
        ['a title with an emoji', { title: 'Cape \u{1F600}', tags: ['cute'], file: 'cape' }, galleryMessages.titleCharacters],
        ['a title with HTML', { title: '<b>x</b>', tags: ['cute'], file: 'cape' }, galleryMessages.titleCharacters],
        ['an unknown tag', { title: 'Nice', tags: ['cute', 'no-such-tag'], file: 'cape' }, galleryMessages.unknownTag],
        ['tags that are not JSON', { title: 'Nice', tags: 'cute', file: 'cape' }, galleryMessages.unknownTag],
        ['tags that are not a list', { title: 'Nice', tags: '{"cute":true}', file: 'cape' }, galleryMessages.unknownTag],
        ['a text file', { title: 'Nice', tags: ['cute'], file: 'text', type: 'text/plain' }, galleryMessages.fileType],
        ['a text file sent as image/png', { title: 'Nice', tags: ['cute'], file: 'text' }, galleryMessages.fileType],
        ['a JPEG', { title: 'Nice', tags: ['cute'], file: 'jpeg', type: 'image/jpeg' }, galleryMessages.fileType],
        ['a broken PNG', { title: 'Nice', tags: ['cute'], file: 'invalidPng' }, textureMessages.invalidImage],
        ['a 64 x 33 cape', { title: 'Nice', tags: ['cute'], file: 'wrongRatio' }, textureMessages.capeDimensions],
        ['a 64 x 64 cape', { title: 'Nice', tags: ['cute'], file: 'square' }, textureMessages.capeDimensions],
        ['a square GIF', { title: 'Nice', tags: ['cute'], file: 'squareGif', type: 'image/gif' }, textureMessages.capeDimensions],
        ['a 4096 x 2048 cape', { title: 'Nice', tags: ['cute'], file: 'tooLarge' }, textureMessages.capeTooLarge],
        ['14 x 10 (not ears, not a cape)', { title: 'Nice', tags: ['cute'], file: 'ears14x10' }, textureMessages.capeDimensions],
        ['15 x 7 (not ears, not a cape)', { title: 'Nice', tags: ['cute'], file: 'ears15x7' }, textureMessages.capeDimensions],
        ['a 65-frame GIF', { title: 'Nice', tags: ['cute'], file: 'bombGif', type: 'image/gif' }, textureMessages.capeTooManyFrames],
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
        await expectRefused(await sendNew(jar, { title: 'Nice', tags: ['cute'], file: images.tooBig }), 413, galleryMessages.fileTooBig);
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
          const response = await sendNew(jar, { title: `Upload ${i}`, tags: ['cute'], file: await solidPng(64, 32, frameColour(i)) });
          expect(response.status).toBe(201);
        }
        const third = await sendNew(jar, { title: 'Upload 3', tags: ['cute'], file: await solidPng(64, 32, frameColour(3)) });
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
          (await sendNew(other.jar, { title: 'Other user', tags: ['cute'], file: await solidPng(64, 32, frameColour(4)) })).status,
          'the limit is per user',
        ).toBe(201);
      } finally {
        await limited.close();
        await limitedDb.drop();
      }
    });
  });

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
      animatedFrames = [frameColour(colour++), frameColour(colour++)];
      animated = await upload(author.jar, await animatedGif(64, 32, animatedFrames), 'Moving', ['food'], 'image/gif');
    });

    it('GET /api/gallery/{hash} answers 404 for an unknown hash and 401 for visitors', async () => {
      await expectRefused(await author.jar.get(`/api/gallery/${UNKNOWN_HASH}`), 404, 'That texture does not exist.');
      expect((await author.jar.get('/api/gallery/not-a-hash')).status).toBe(404);
      const visitor = await newBrowser(suite.server);
      for (const path of [`/api/gallery/${cape}`, `/api/gallery/${cape}/preview`, `/api/gallery/${cape}/preview/map`, `/api/gallery/${cape}/download`]) {
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
      const frameTops = animatedFrames.map((_, frame) => [...data.subarray(frame * 32 * info.width * 4, frame * 32 * info.width * 4 + 4)]);
      expect(frameTops).toEqual(animatedFrames);
      expect((await getItem(author.jar, animated)).downloads).toBe(1);
    });
  });

  describe('animated downloads', () => {
    it('builds the GIF once, keeps it in the blob store beside the strip and removes it with the item', async () => {
      const author = await loginNewUser(suite.server);
      const frames = [frameColour(colour++), frameColour(colour++), frameColour(colour++)];
      const hash = await upload(author.jar, await animatedGif(64, 32, frames), 'Kept gif', ['cute'], 'image/gif');
      const key = sha256Hex(Buffer.from(`gif:v1:${hash}`));
      const file = path.join(suite.server.config.dataDir, 'textures', key.slice(0, 2), `${key}.png`);
      expect(fs.existsSync(file), 'no GIF before the first download').toBe(false);
      const answers = await Promise.all(Array.from({ length: 5 }, () => author.jar.get(`/api/gallery/${hash}/download`)));
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
        const created = (await (await sendNew(jar, { title: 'Limited', tags: ['cute'], file: await solidPng(64, 32, frameColour(7)) })).json()) as {
          hash: string;
        };
        for (let i = 0; i < 2; i++) expect((await jar.get(`/api/gallery/${created.hash}/download`)).status).toBe(200);
        const third = await jar.get(`/api/gallery/${created.hash}/download`);
        expect(third.status).toBe(429);
        expect(await third.json()).toEqual({ error: galleryMessages.tooManyDownloads });
        const other = await loginNewUser(limited);
        expect((await other.jar.get(`/api/gallery/${created.hash}/download`)).status, 'the limit is per user').toBe(200);
        const row = await limited.db.selectFrom('gallery_items').select('downloads').where('hash', '=', created.hash).executeTakeFirstOrThrow();
        expect(row.downloads).toBe(3);
      } finally {
        await limited.close();
        await limitedDb.drop();
      }
    });
  });

  describe('POST /api/gallery/like', () => {
    it('toggles the like, keeps total_user_likes right and survives a re-fetch', async () => {
      const author = await loginNewUser(suite.server);
      const first = await loginNewUser(suite.server);
      const second = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Likeable', ['cute']);

      const like = async (jar: CookieJar) => {
        const response = await jar.post('/api/gallery/like', { hash });
        expect(response.status).toBe(200);
        return response.json();
      };
      expect(await like(first.jar)).toEqual({ liked: true, total_user_likes: 1 });
      expect(await like(second.jar)).toEqual({ liked: true, total_user_likes: 2 });
      expect(await getItem(first.jar, hash)).toMatchObject({ user_liked: true, total_user_likes: 2 });
      expect(await getItem(author.jar, hash)).toMatchObject({ user_liked: false, total_user_likes: 2 });
      expect(await like(first.jar)).toEqual({ liked: false, total_user_likes: 1 });
      expect(await getItem(first.jar, hash)).toMatchObject({ user_liked: false, total_user_likes: 1 });
      expect(await getItem(second.jar, hash)).toMatchObject({ user_liked: true, total_user_likes: 1 });
      expect(await rows('gallery_likes', hash)).toBe(1);
      expect(await like(first.jar)).toEqual({ liked: true, total_user_likes: 2 });
    });

    it('answers 404 for an unknown hash, 422 for a malformed one and 401 for visitors', async () => {
      const { jar } = await loginNewUser(suite.server);
      await expectRefused(await jar.post('/api/gallery/like', { hash: UNKNOWN_HASH }), 404, 'That texture does not exist.');
      expect((await jar.post('/api/gallery/like', { hash: 'abc' })).status).toBe(422);
      expect((await jar.post('/api/gallery/like', {})).status).toBe(422);
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Not for visitors', ['cute']);
      const visitor = await newBrowser(suite.server);
      expect((await visitor.post('/api/gallery/like', { hash })).status).toBe(401);
      expect((await getItem(author.jar, hash)).total_user_likes).toBe(0);
    });
  });

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
      const listing = (await (await author.jar.get(`/api/gallery/get?user=${author.uuid}`)).json()) as { data: Item[]; total: number };
      expect(listing).toMatchObject({ data: [], total: 0 });
      for (const table of ['gallery_tags', 'gallery_likes', 'gallery_reports', 'textures'] as const) expect(await rows(table, hash), table).toBe(0);
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
      // Renders are kept in the blob store under sha256("{variant}:v1:{hash}"); /textures serves registered textures only.
      const keys = ['preview', 'map'].map((variant) => sha256Hex(Buffer.from(`${variant}:v1:${hash}`)));
      const files = keys.map((key) => path.join(suite.server.config.dataDir, 'textures', key.slice(0, 2), `${key}.png`));
      for (const file of files) expect(fs.existsSync(file), `${file} rendered`).toBe(true);
      for (const key of keys) expect((await fetchTexture(`/textures/${key}`)).status, `/textures/${key}`).toBe(404);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      for (const file of files) expect(fs.existsSync(file), `${file} after the delete`).toBe(false);
    });

    it('releases the strip of an animated item', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await animatedGif(64, 32, [frameColour(colour++), frameColour(colour++)]), 'Animated bye', ['cute'], 'image/gif');
      const strip = (await getItem(author.jar, hash)).animated_texture!;
      expect((await fetchTexture(strip)).status).toBe(200);
      expect((await author.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(404);
      expect((await fetchTexture(strip)).status).toBe(404);
    });

    it('refuses another user with 403 and lets an admin delete', async () => {
      const author = await loginNewUser(suite.server);
      const other = await loginNewUser(suite.server);
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      const hash = await upload(author.jar, await freshCape(), 'Keep me', ['cute']);
      await expectRefused(await other.jar.post('/api/gallery/delete', { hash }), 403, 'You can only delete your own textures.');
      expect((await getItem(author.jar, hash)).title).toBe('Keep me');
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(200);
      expect((await admin.jar.post('/api/gallery/delete', { hash })).status).toBe(200);
      expect((await author.jar.get(`/api/gallery/${hash}`)).status).toBe(404);
      expect((await fetchTexture(`/textures/${hash}`)).status).toBe(404);
    });

    it('keeps the texture while someone wears the same image as their cape', async () => {
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

  describe('POST /api/gallery/edit', () => {
    it('lets the author change title and tags; tags are replaced and the tag totals move', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Before edit', ['sports', 'memes']);
      const sports = await total(author.jar, { tags: ['sports'] });
      const memes = await total(author.jar, { tags: ['memes'] });
      const games = await total(author.jar, { tags: ['games'] });
      const all = await total(author.jar);

      const response = await author.jar.post('/api/gallery/edit', { hash, title: 'After edit', tags: JSON.stringify(['games', 'memes', 'games']) });
      const body = (await response.json()) as { success: boolean; item: Item };
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(body.success).toBe(true);
      expect(body.item).toMatchObject({
        hash,
        title: 'After edit',
        tags: [
          { tag_key: 'games', name: 'Games' },
          { tag_key: 'memes', name: 'Memes' },
        ],
      });
      expect(await getItem(author.jar, hash)).toMatchObject({
        title: 'After edit',
        tags: [
          { tag_key: 'games', name: 'Games' },
          { tag_key: 'memes', name: 'Memes' },
        ],
      });

      expect(await total(author.jar, { tags: ['sports'] })).toBe(sports - 1);
      expect(await total(author.jar, { tags: ['memes'] })).toBe(memes);
      expect(await total(author.jar, { tags: ['games'] })).toBe(games + 1);
      expect(await total(author.jar)).toBe(all);
      expect(await total(author.jar, { tags: ['games', 'memes'] })).toBeGreaterThanOrEqual(1);

      const byTitle = async (title: string) =>
        ((await (await author.jar.get(`/api/gallery/get?user=${author.uuid}&title=${encodeURIComponent(title)}`)).json()) as { data: Item[] }).data.map(
          (item) => item.hash,
        );
      expect(await byTitle('after edit')).toEqual([hash]);
      expect(await byTitle('before')).toEqual([]);
      expect(await byTitle('af')).toEqual([hash]);
    });

    it('refuses a bad title or tags with the upload messages, changing nothing', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Stable', ['nature']);
      for (const [fields, message] of [
        [{ title: 'Abcdefghij_klmn 12345', tags: '["nature"]' }, galleryMessages.titleTooLong],
        [{ title: 'bad/title', tags: '["nature"]' }, galleryMessages.titleCharacters],
        [{ title: '', tags: '["nature"]' }, galleryMessages.missingFields],
        [{ title: '  ', tags: '["nature"]' }, galleryMessages.missingFields],
        [{ tags: '["nature"]' }, galleryMessages.missingFields],
        [{ title: 'Fine', tags: '[]' }, galleryMessages.missingFields],
        [{ title: 'Fine', tags: '["nature","no-such-tag"]' }, galleryMessages.unknownTag],
        [{ title: 'Fine', tags: 'nature' }, galleryMessages.unknownTag],
      ] as Array<[Record<string, string>, string]>) {
        await expectRefused(await author.jar.post('/api/gallery/edit', { hash, ...fields }), 422, message);
      }
      expect(await getItem(author.jar, hash)).toMatchObject({ title: 'Stable', tags: [{ tag_key: 'nature', name: 'Nature' }] });
    });

    it('refuses another user with 403, lets an admin edit, 404 for an unknown hash and 401 for visitors', async () => {
      const author = await loginNewUser(suite.server);
      const other = await loginNewUser(suite.server);
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      const hash = await upload(author.jar, await freshCape(), 'Owned', ['flags']);
      await expectRefused(await other.jar.post('/api/gallery/edit', { hash, title: 'Stolen', tags: '["flags"]' }), 403, 'You can only edit your own textures.');
      expect((await (await newBrowser(suite.server)).post('/api/gallery/edit', { hash, title: 'Visitor', tags: '["flags"]' })).status).toBe(401);
      expect((await author.jar.post('/api/gallery/edit', { hash: UNKNOWN_HASH, title: 'Gone', tags: '["flags"]' })).status).toBe(404);
      expect((await getItem(author.jar, hash)).title).toBe('Owned');
      const response = await admin.jar.post('/api/gallery/edit', { hash, title: 'Moderated', tags: '["pride"]' });
      expect(response.status).toBe(200);
      expect(await getItem(author.jar, hash)).toMatchObject({ title: 'Moderated', author: author.uuid, tags: [{ tag_key: 'pride', name: 'Pride' }] });
    });
  });

  describe('POST /api/gallery/report', () => {
    it('files one report per user, refusing missing terms, own items, whitelisted items and a second report', async () => {
      const author = await loginNewUser(suite.server);
      const reporter = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Reportable', ['text']);

      for (const body of [{ hash }, { hash, tac: false }, { hash, tac: 'no' }]) {
        const response = await reporter.jar.post('/api/gallery/report', body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(((await response.json()) as { errors: Record<string, string[]> }).errors.tac).toBeDefined();
      }
      await expectRefused(await author.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' }), 422, 'You cannot report your own texture.');
      expect(await rows('gallery_reports', hash)).toBe(0);

      const response = await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      await expectRefused(await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' }), 422, 'You have already reported this texture.');
      const reports = await suite.server.db.selectFrom('gallery_reports').select(['hash', 'reporter_uuid']).where('hash', '=', hash).execute();
      expect(reports).toEqual([{ hash, reporter_uuid: reporter.uuid }]);
    });

    it('refuses a whitelisted item with its message, 404 for an unknown hash and 401 for visitors', async () => {
      const author = await loginNewUser(suite.server);
      const reporter = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Staff approved', ['text']);
      await suite.server.db.updateTable('gallery_items').set({ whitelisted: 1 }).where('hash', '=', hash).execute();
      expect((await getItem(reporter.jar, hash)).whitelisted).toBe(true);
      await expectRefused(
        await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' }),
        422,
        'This texture was marked safe by staff and cannot be reported.',
      );
      expect((await reporter.jar.post('/api/gallery/report', { hash: UNKNOWN_HASH, tac: true, reason: 'nsfw' })).status).toBe(404);
      expect((await (await newBrowser(suite.server)).post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(401);
      expect(await rows('gallery_reports', hash)).toBe(0);
    });
  });

  describe('concurrent requests keep likes and counters right', () => {
    async function counted(): Promise<number> {
      return rows('gallery_items');
    }

    it('two likes at once by one user answer without a server error and leave a consistent count', async () => {
      const author = await loginNewUser(suite.server);
      const fan = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Double click', ['cute']);
      for (let round = 0; round < 5; round++) {
        const responses = await Promise.all([fan.jar.post('/api/gallery/like', { hash }), fan.jar.post('/api/gallery/like', { hash })]);
        for (const response of responses) expect(response.status, `round ${round}: ${await response.clone().text()}`).toBeLessThan(500);
        const item = await getItem(fan.jar, hash);
        expect(item.total_user_likes, `round ${round}`).toBe(await rows('gallery_likes', hash));
      }
    });

    it('two deletes of one item at once move the counters once', async () => {
      const author = await loginNewUser(suite.server);
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      for (let round = 0; round < 5; round++) {
        const hash = await upload(author.jar, await freshCape(), `Race ${round}`, ['cute']);
        const responses = await Promise.all([author.jar.post('/api/gallery/delete', { hash }), admin.jar.post('/api/gallery/delete', { hash })]);
        const statuses = responses.map((response) => response.status);
        expect(statuses, `round ${round}`).toContain(200);
        for (const status of statuses) expect([200, 404], `round ${round}`).toContain(status);
        expect(await total(author.jar), `round ${round}: the counted total`).toBe(await counted());
      }
    });

    it('two identical edits at once move the tag counters once', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Edit race', ['nature']);
      for (let round = 0; round < 5; round++) {
        const [from, to] = round % 2 === 0 ? ['nature', 'space'] : ['space', 'nature'];
        const expected = { [from]: (await total(author.jar, { tags: [from] })) - 1, [to]: (await total(author.jar, { tags: [to] })) + 1 };
        const responses = await Promise.all([
          author.jar.post('/api/gallery/edit', { hash, title: 'Edit race', tags: JSON.stringify([to]) }),
          author.jar.post('/api/gallery/edit', { hash, title: 'Edit race', tags: JSON.stringify([to]) }),
        ]);
        for (const response of responses) expect(response.status).toBeLessThan(500);
        expect({ [from]: await total(author.jar, { tags: [from] }), [to]: await total(author.jar, { tags: [to] }) }, `round ${round}`).toEqual(expected);
      }
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
      await animatedGif(64, 32, [frameColour(colour++), frameColour(colour++)]),
      'Leaving anim',
      ['logos'],
      'image/gif',
    );
    const strip = (await getItem(leaving.jar, leavingAnimated)).animated_texture!;
    const leavingEars = await upload(leaving.jar, await freshEars(), 'Leaving ears', ['cute']);
    // The staying user wears the same image as a cape, so that texture must stay.
    expect(TEXTURE_URL.exec(((await (await staying.jar.upload('/api/upload-cape', sharedFile)).json()) as { cape: string }).cape)?.[1]).toBe(leavingCape);
    await leaving.jar.post('/api/gallery/like', { hash: stayingItem });
    await leaving.jar.post('/api/gallery/like', { hash: leavingEars });
    await staying.jar.post('/api/gallery/like', { hash: leavingCape });
    expect((await getItem(staying.jar, stayingItem)).total_user_likes).toBe(1);

    const all = await total(staying.jar);
    const logos = await total(staying.jar, { tags: ['logos'] });
    const animatedTotal = await total(staying.jar, { type: ['animated'] });

    const response = await leaving.jar.post('/api/account/delete', { confirm: true });
    expect(response.status).toBe(200);

    for (const hash of [leavingCape, leavingAnimated, leavingEars]) expect((await staying.jar.get(`/api/gallery/${hash}`)).status).toBe(404);
    expect(await total(staying.jar)).toBe(all - 3);
    expect(await total(staying.jar, { tags: ['logos'] })).toBe(logos - 2);
    expect(await total(staying.jar, { type: ['animated'] })).toBe(animatedTotal - 1);
    expect(await getItem(staying.jar, stayingItem)).toMatchObject({ total_user_likes: 0, user_liked: false });
    expect(await suite.server.db.selectFrom('gallery_likes').select('hash').where('user_uuid', '=', leaving.uuid).execute()).toEqual([]);
    expect(await suite.server.db.selectFrom('gallery_items').select('hash').where('author_uuid', '=', leaving.uuid).execute()).toEqual([]);
    expect((await staying.jar.get(`/api/gallery/user/${leaving.uuid}`)).status).toBe(404);

    expect((await fetchTexture(`/textures/${leavingAnimated}`)).status).toBe(404);
    expect((await fetchTexture(strip)).status).toBe(404);
    expect((await fetchTexture(`/textures/${leavingEars}`)).status).toBe(404);
    expect((await fetchTexture(`/textures/${leavingCape}`)).status, 'still worn as a cape by another player').toBe(200);
    expect((await fetchTexture(`/textures/${stayingItem}`)).status).toBe(200);
  });
});
