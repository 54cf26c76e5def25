// API tests for GET /api/gallery/get and /api/gallery/user/{uuid}: shape, the 8 sorts, title/type/tag/user filters,
// pages and totals.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_SORTS, galleryMessages, type GallerySort } from '../../../src/lib/gallery-rules.ts';
import { DEFAULT_TAGS } from '../../../server/db/migrations/seed-rows.ts';
import { createGalleryItem } from '../../../server/gallery/items.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import {
  compare,
  getAll,
  getPage,
  ITEM_FIELDS,
  ordered,
  query,
  type Page,
  type Seed,
} from '../../helpers/gallery-listing.ts';
import { loginNewUser, newBrowser, randomUuid, serverForSuite } from '../../helpers/server.ts';

const TAG_NAMES = new Map(DEFAULT_TAGS.map((tag) => [tag.tag_key, tag.name]));
const TYPE_CODES = { cape: 0, ears: 1, animated: 2 } as const;

describe.each(backends)('gallery listing on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let alice: Awaited<ReturnType<typeof loginNewUser>>;
  let bob: Awaited<ReturnType<typeof loginNewUser>>;
  let carol: Awaited<ReturnType<typeof loginNewUser>>;
  const seeds: Seed[] = [];
  const names = new Map<string, string>();

  beforeAll(async () => {
    alice = await loginNewUser(suite.server, 'AliceList');
    bob = await loginNewUser(suite.server, 'BobList');
    carol = await loginNewUser(suite.server, 'CarolList');
    for (const user of [alice, bob, carol]) names.set(user.uuid, user.username);

    const base = Date.UTC(2024, 0, 1);
    const special: Array<Omit<Seed, 'hash' | 'createdAt' | 'likes' | 'downloads'>> = [
      { title: 'Red_Dragon', author: bob.uuid, type: 0, tags: ['animals', 'dark'] },
      { title: 'RedXdragon', author: bob.uuid, type: 0, tags: ['animals'] },
      { title: 'Blue Dragon', author: carol.uuid, type: 2, tags: ['animals', 'cute'] },
      { title: 'Qzebra', author: carol.uuid, type: 1, tags: ['cute'] },
    ];
    const fillers = Array.from({ length: 48 }, (_, i) => ({
      title: `Item${String(i).padStart(2, '0')}`,
      author: [alice.uuid, bob.uuid, carol.uuid][i % 3]!,
      type: i % 3,
      tags: [i % 2 === 0 ? 'animals' : 'nature', ...(i % 3 === 0 ? ['cute'] : []), ...(i % 5 === 0 ? ['space'] : [])],
    }));
    // Creation times are shuffled against the titles so the name and uploaded sorts differ.
    const all = [...special, ...fillers];
    for (const [i, item] of all.entries()) {
      const seed: Seed = {
        ...item,
        hash: randomBytes(32).toString('hex'),
        likes: (i * 7) % 13,
        downloads: (i * 5) % 11,
        createdAt: base + ((i * 17) % all.length) * 60_000,
      };
      expect(
        await createGalleryItem(
          suite.server.db,
          {
            hash: seed.hash,
            stripHash: null,
            title: seed.title,
            authorUuid: seed.author,
            type: seed.type,
            tags: seed.tags,
          },
          seed.createdAt,
        ),
      ).toBe(true);
      await suite.server.db
        .updateTable('gallery_items')
        .set({ likes: seed.likes, downloads: seed.downloads })
        .where('hash', '=', seed.hash)
        .execute();
      seeds.push(seed);
    }
  });

  async function expectStatus(jar: CookieJar, path: string, status: number): Promise<Record<string, unknown>> {
    const response = await jar.get(path);
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, `${path}: ${JSON.stringify(body)}`).toBe(status);
    return body;
  }

  const matching = (test: (seed: Seed) => boolean, sort: GallerySort = 'likes_desc') =>
    ordered(seeds.filter(test), sort);

  it('answers {data, total, total_capped, per_page: 24, current_page} with exactly the item fields', async () => {
    const body = await getPage(alice.jar);
    expect(Object.keys(body).sort()).toEqual(['current_page', 'data', 'per_page', 'total', 'total_capped']);
    expect(body).toMatchObject({ total: seeds.length, total_capped: false, per_page: 24, current_page: 1 });
    expect(body.data).toHaveLength(24);
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual(ITEM_FIELDS);
      const seed = seeds.find((s) => s.hash === item.hash)!;
      expect(item).toEqual({
        hash: seed.hash,
        title: seed.title,
        author: seed.author,
        author_name: names.get(seed.author),
        type: seed.type,
        animated: seed.type === 2,
        texture: `/textures/${seed.hash}`,
        animated_texture: null,
        tags: seed.tags
          .map((key) => ({ tag_key: key, name: TAG_NAMES.get(key)! }))
          .sort((a, b) => compare(a.name, b.name)),
        whitelisted: false,
        user_liked: false,
        user_wears: false,
        total_user_likes: seed.likes,
        downloads: seed.downloads,
        wears: 0,
        createdAt: new Date(seed.createdAt).toISOString(),
      });
    }
  });

  it('defaults to likes_desc and orders every one of the 8 sorts across all pages', async () => {
    expect((await getAll(alice.jar)).hashes).toEqual(ordered(seeds, 'likes_desc'));
    for (const sortBy of GALLERY_SORTS) {
      const { hashes, total } = await getAll(alice.jar, { sortBy });
      expect(total, sortBy).toBe(seeds.length);
      expect(hashes, sortBy).toEqual(ordered(seeds, sortBy));
    }
  });

  it('refuses an unknown sortBy, a bad page and a bad type list with 422', async () => {
    for (const params of [
      { sortBy: 'random' },
      { sortBy: 'likes' },
      { page: 0 },
      { page: 'two' },
      { type: ['hat'] },
      { type: 'cape' },
      { tags: 'animals' },
      { user: 'not-a-uuid' },
    ]) {
      await expectStatus(alice.jar, `/api/gallery/get${query(params)}`, 422);
    }
  });

  it('page 2 gives the next 24 and a page past the end is empty with the same total', async () => {
    const all = ordered(seeds, 'uploaded_desc');
    const second = await getPage(alice.jar, { sortBy: 'uploaded_desc', page: 2 });
    expect(second.data.map((item) => item.hash)).toEqual(all.slice(24, 48));
    expect(second).toMatchObject({ total: seeds.length, current_page: 2 });
    const third = await getPage(alice.jar, { sortBy: 'uploaded_desc', page: 3 });
    expect(third.data.map((item) => item.hash)).toEqual(all.slice(48));
    const past = await getPage(alice.jar, { sortBy: 'uploaded_desc', page: 4 });
    expect(past).toMatchObject({ data: [], total: seeds.length, current_page: 4 });
  });

  describe('title search', () => {
    it.each([
      ['dragon', (t: string) => t.includes('dragon')],
      ['DRAGON', (t: string) => t.includes('dragon')],
      ['e dr', (t: string) => t.includes('e dr')],
      ['  dragon  ', (t: string) => t.includes('dragon')],
      ['qz', (t: string) => t.includes('qz')],
      ['x', (t: string) => t.includes('x')],
      ['d_d', (t: string) => t.includes('d_d')],
      ['_', (t: string) => t.includes('_')],
      ['item4', (t: string) => t.includes('item4')],
      ['nothing', () => false],
    ])('%j matches titles containing it, case-insensitively, with no wildcards', async (title, test) => {
      const expected = matching((seed) => test(seed.title.toLowerCase()));
      const { hashes, total } = await getAll(alice.jar, { title });
      expect(hashes).toEqual(expected);
      expect(total).toBe(expected.length);
    });

    it('"d_d" finds Red_Dragon but not RedXdragon (the underscore is no wildcard)', async () => {
      for (const title of ['d_d', '_']) {
        const page = await getPage(alice.jar, { title });
        expect(page.data.map((item) => item.title)).toEqual(['Red_Dragon']);
      }
    });

    it('pages a search with more than 24 matches, with the counted total', async () => {
      const expected = matching((seed) => seed.title.startsWith('Item'), 'name_asc');
      expect(expected).toHaveLength(48);
      const first = await getPage(alice.jar, { title: 'item', sortBy: 'name_asc' });
      const second = await getPage(alice.jar, { title: 'item', sortBy: 'name_asc', page: 2 });
      expect(first.total).toBe(48);
      expect(second.total).toBe(48);
      expect(first.data.map((item) => item.hash)).toEqual(expected.slice(0, 24));
      expect(second.data.map((item) => item.hash)).toEqual(expected.slice(24));
    });

    it('refuses a title with a forbidden character with 422 and the title message', async () => {
      for (const title of ['drag%', 'red-dragon', "o'neil", 'a*']) {
        const body = await expectStatus(alice.jar, `/api/gallery/get${query({ title })}`, 422);
        expect(body.message ?? body.error, title).toBe(galleryMessages.titleCharacters);
      }
    });
  });

  describe('type, tag and user filters', () => {
    it.each([
      [['ears']],
      [['cape']],
      [['animated']],
      [['cape', 'animated']],
      [['cape', 'ears']],
      [['cape', 'ears', 'animated']],
      [[]],
    ])('type %j gives exactly those types with the right total', async (types) => {
      const codes = (types as Array<keyof typeof TYPE_CODES>).map((name) => TYPE_CODES[name]);
      const expected = matching((seed) => codes.length === 0 || codes.includes(seed.type as 0 | 1 | 2));
      const { hashes, total } = await getAll(alice.jar, { type: types });
      expect(hashes).toEqual(expected);
      expect(total).toBe(expected.length);
    });

    it('a type listed more than once filters the same as listed once', async () => {
      for (const types of [
        ['ears', 'ears'],
        ['ears', 'ears', 'ears'],
        ['cape', 'cape', 'animated'],
      ]) {
        const codes = types.map((name) => TYPE_CODES[name as keyof typeof TYPE_CODES]);
        const expected = matching((seed) => codes.includes(seed.type as 0 | 1 | 2));
        expect(await getAll(alice.jar, { type: types }), JSON.stringify(types)).toEqual({
          hashes: expected,
          total: expected.length,
        });
      }
    });

    it.each([
      [['animals']],
      [['cute']],
      [['dark']],
      [['animals', 'cute']],
      [['animals', 'cute', 'space']],
      [['pride']],
      [['no-such-tag']],
      [['animals', 'no-such-tag']],
    ])('tags %j require every listed tag, with the right total', async (tags) => {
      const expected = matching((seed) => tags.every((tag) => seed.tags.includes(tag)));
      const { hashes, total } = await getAll(alice.jar, { tags });
      expect(hashes).toEqual(expected);
      expect(total).toBe(expected.length);
    });

    it('combines a type with one tag (counters) and a title with two tags (counted)', async () => {
      const earsWithCute = matching((seed) => seed.type === 1 && seed.tags.includes('cute'));
      expect(earsWithCute.length).toBeGreaterThan(0);
      expect(await getAll(alice.jar, { type: ['ears'], tags: ['cute'] })).toEqual({
        hashes: earsWithCute,
        total: earsWithCute.length,
      });

      const capesAnimals = matching((seed) => [0, 2].includes(seed.type) && seed.tags.includes('animals'));
      expect(await getAll(alice.jar, { type: ['cape', 'animated'], tags: ['animals'] })).toEqual({
        hashes: capesAnimals,
        total: capesAnimals.length,
      });

      const searched = matching(
        (seed) =>
          seed.title.toLowerCase().includes('item') && seed.tags.includes('animals') && seed.tags.includes('cute'),
      );
      expect(searched.length).toBeGreaterThan(0);
      expect(await getAll(alice.jar, { title: 'item', tags: ['animals', 'cute'] })).toEqual({
        hashes: searched,
        total: searched.length,
      });

      const dragons = matching((seed) => seed.title.toLowerCase().includes('dragon') && seed.type === 0);
      expect(await getAll(alice.jar, { title: 'dragon', type: ['cape'] })).toEqual({ hashes: dragons, total: 2 });
    });

    it('user gives only that author, alone and with other filters', async () => {
      const bobs = matching((seed) => seed.author === bob.uuid);
      expect(await getAll(alice.jar, { user: bob.uuid })).toEqual({ hashes: bobs, total: bobs.length });
      const bobsDragons = matching(
        (seed) => seed.author === bob.uuid && seed.title.toLowerCase().includes('dragon'),
        'name_desc',
      );
      expect(await getAll(alice.jar, { user: bob.uuid, title: 'dragon', sortBy: 'name_desc' })).toEqual({
        hashes: bobsDragons,
        total: 2,
      });
      const carolsAnimated = matching(
        (seed) => seed.author === carol.uuid && seed.type === 2 && seed.tags.includes('animals'),
      );
      expect(await getAll(alice.jar, { user: carol.uuid, type: ['animated'], tags: ['animals'] })).toEqual({
        hashes: carolsAnimated,
        total: carolsAnimated.length,
      });
      expect(await getAll(alice.jar, { user: randomUuid() })).toEqual({ hashes: [], total: 0 });
      expect(await getAll(alice.jar, { user: '' })).toEqual({
        hashes: ordered(seeds, 'likes_desc'),
        total: seeds.length,
      });
    });
  });

  it('user_liked reflects the viewer and total_user_likes the likes', async () => {
    const target = seeds.find((seed) => seed.title === 'Qzebra')!;
    const like = await alice.jar.post('/api/gallery/like', { hash: target.hash });
    expect(await like.json()).toEqual({ liked: true, total_user_likes: target.likes + 1 });
    try {
      const [forAlice] = (await getPage(alice.jar, { title: 'qzebra' })).data;
      const [forBob] = (await getPage(bob.jar, { title: 'qzebra' })).data;
      expect(forAlice).toMatchObject({ hash: target.hash, user_liked: true, total_user_likes: target.likes + 1 });
      expect(forBob).toMatchObject({ hash: target.hash, user_liked: false, total_user_likes: target.likes + 1 });
      const others = (await getPage(alice.jar, { title: 'item' })).data;
      expect(others.every((item) => !item.user_liked)).toBe(true);
    } finally {
      const unlike = await alice.jar.post('/api/gallery/like', { hash: target.hash });
      expect(await unlike.json()).toEqual({ liked: false, total_user_likes: target.likes });
    }
    expect((await getPage(alice.jar, { title: 'qzebra' })).data[0]).toMatchObject({
      user_liked: false,
      total_user_likes: target.likes,
    });
  });

  it('answers 401 to visitors', async () => {
    const visitor = await newBrowser(suite.server);
    expect((await visitor.get('/api/gallery/get')).status).toBe(401);
    expect((await visitor.get(`/api/gallery/user/${bob.uuid}`)).status).toBe(401);
  });

  describe('GET /api/gallery/user/{uuid}', () => {
    it('answers {user: {username, uuid}, gallery} with the newest of that author first', async () => {
      const response = await alice.jar.get(`/api/gallery/user/${carol.uuid}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { user: unknown; gallery: Page };
      expect(Object.keys(body).sort()).toEqual(['gallery', 'user']);
      expect(body.user).toEqual({ username: carol.username, uuid: carol.uuid });
      const carols = matching((seed) => seed.author === carol.uuid, 'uploaded_desc');
      expect(body.gallery).toMatchObject({ total: carols.length, per_page: 24, current_page: 1 });
      expect(body.gallery.data.map((item) => item.hash)).toEqual(carols.slice(0, 24));
      for (const item of body.gallery.data) expect(Object.keys(item).sort()).toEqual(ITEM_FIELDS);
    });

    it('answers an author without items with an empty gallery', async () => {
      const nobody = await loginNewUser(suite.server);
      const body = (await (await alice.jar.get(`/api/gallery/user/${nobody.uuid}`)).json()) as {
        user: unknown;
        gallery: Page;
      };
      expect(body).toEqual({
        user: { username: nobody.username, uuid: nobody.uuid },
        gallery: { data: [], total: 0, total_capped: false, per_page: 24, current_page: 1 },
      });
    });

    it('answers 404 for an unknown uuid', async () => {
      await expectStatus(alice.jar, `/api/gallery/user/${randomUuid()}`, 404);
      await expectStatus(alice.jar, '/api/gallery/user/nobody', 404);
    });
  });
});
