// API tests for the gallery listing totals past the count cap: capped search totals that still page to the end, exact
// counts below it.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_COUNT_CAP, GALLERY_SORTS } from '../../../src/lib/gallery-rules.ts';
import { createGalleryItem } from '../../../server/gallery/items.ts';
import { backends } from '../../../support/backends.ts';
import { ordered, query, type Page, type Params, type Seed } from '../../helpers/gallery-listing.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

describe.each(backends)('gallery search totals past the count cap on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let viewer: Awaited<ReturnType<typeof loginNewUser>>;
  let author: Awaited<ReturnType<typeof loginNewUser>>;
  const seeds: Seed[] = [];
  const COUNT = GALLERY_COUNT_CAP + 30;

  beforeAll(async () => {
    viewer = await loginNewUser(suite.server, 'CapViewer');
    author = await loginNewUser(suite.server, 'CapAuthor');
    const base = Date.UTC(2024, 0, 1);
    for (let i = 0; i < COUNT; i++) {
      const seed: Seed = {
        hash: randomBytes(32).toString('hex'),
        title: `Many${i}`,
        author: author.uuid,
        type: 0,
        tags: ['animals', 'nature'],
        likes: (i * 7) % 13,
        downloads: 0,
        createdAt: base + i * 1000,
      };
      await createGalleryItem(
        suite.server.db,
        { hash: seed.hash, stripHash: null, title: seed.title, authorUuid: seed.author, type: 0, tags: seed.tags },
        seed.createdAt,
      );
      if (seed.likes > 0)
        await suite.server.db
          .updateTable('gallery_items')
          .set({ likes: seed.likes })
          .where('hash', '=', seed.hash)
          .execute();
      seeds.push(seed);
    }
  }, 120_000);

  async function getPage(params: Params): Promise<Page> {
    const response = await viewer.jar.get(`/api/gallery/get${query(params)}`);
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body as Page;
  }

  it.each([
    ['a title', { title: 'many' }],
    ['two tags', { tags: ['animals', 'nature'] }],
    ['a title and a type', { title: 'many', type: ['cape'] }],
  ])(
    '%s matching more than the cap answers the cap with total_capped and still pages to the last match',
    async (_name, params) => {
      const expected = ordered(seeds, 'likes_desc');
      const first = await getPage({ ...params });
      expect(first).toMatchObject({ total: GALLERY_COUNT_CAP, total_capped: true });
      expect(first.data.map((item) => item.hash)).toEqual(expected.slice(0, 24));
      const lastPage = Math.ceil(COUNT / 24);
      const last = await getPage({ ...params, page: lastPage });
      expect(last).toMatchObject({ total: GALLERY_COUNT_CAP, total_capped: true });
      expect(last.data.map((item) => item.hash)).toEqual(expected.slice((lastPage - 1) * 24));
    },
  );

  it.each(GALLERY_SORTS)(
    'a title with fewer matches than the cap is counted exactly and sorted by %s',
    async (sortBy) => {
      // Many1, Many10–19, Many100–199, Many1000–1029.
      const expected = ordered(
        seeds.filter((seed) => seed.title.startsWith('Many1')),
        sortBy,
      );
      expect(expected).toHaveLength(141);
      const hashes: string[] = [];
      for (let page = 1; page <= 6; page++) {
        const body = await getPage({ title: 'many1', sortBy, page });
        expect(body).toMatchObject({ total: 141, total_capped: false });
        hashes.push(...body.data.map((item) => item.hash));
      }
      expect(hashes).toEqual(expected);
    },
  );

  it('listings without a search count exactly past the cap: everything, a type, one tag, an author', async () => {
    for (const params of [{}, { type: ['cape'] }, { tags: ['animals'] }, { user: author.uuid }]) {
      expect(await getPage(params), JSON.stringify(params)).toMatchObject({ total: COUNT, total_capped: false });
    }
    const response = await viewer.jar.get(`/api/gallery/user/${author.uuid}`);
    expect(((await response.json()) as { gallery: Page }).gallery).toMatchObject({ total: COUNT, total_capped: false });
  });
});
