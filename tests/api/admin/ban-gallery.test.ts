// API tests for a ban's effect on the gallery, on both databases: a ban hides the player's items from the listing (and
// its totals: per type, per tag, title search), the user gallery, the item and its images, download, like and report,
// at once; other authors' items stay; moderators still see a hidden item in the report queue; an unban brings every
// item back with its likes, tags and downloads. The maintained counters and title counts stay equal to a recount
// throughout.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GalleryItem } from '../../../src/lib/schemas/types.ts';
import { isPostgres } from '../../../server/db/dialect.ts';
import { deleteGalleryItems, itemsByAuthor } from '../../../server/gallery/items.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';

type User = Awaited<ReturnType<typeof loginNewUser>>;

const UNKNOWN_HASH = 'e'.repeat(64);

/** The listings whose totals a ban moves: every filter kind the counters, the title counts and the searches serve. */
const LISTINGS: Array<Record<string, string | string[]>> = [
  {},
  { type: ['cape'] },
  { type: ['ears'] },
  { type: ['cape', 'animated'] },
  { tags: ['space'] },
  { tags: ['cute'] },
  { tags: ['space'], type: ['ears'] },
  { tags: ['cute', 'space'] },
  { title: 'quokka' },
  { title: 'qu' },
  { title: 'Quokka', type: ['cape'] },
];

describe.each(backends)('a ban and the gallery on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', GALLERY_UPLOADS_PER_10_MINUTES: '1000' });
  let admin: User;
  let fan: User;
  let other: User;
  let colour = 200;

  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
    fan = await loginNewUser(suite.server);
    other = await loginNewUser(suite.server);
  });

  /** Uploads a new cape (or 14 x 7 ears) with a title and tags; returns its hash. */
  async function upload(jar: CookieJar, title: string, tags: string[], ears = false): Promise<string> {
    const form = new FormData();
    form.append('title', title);
    form.append('tags', JSON.stringify(tags));
    const png = ears ? await solidPng(14, 7, frameColour(colour++)) : await solidPng(64, 32, frameColour(colour++));
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'texture.png');
    const response = await jar.sendForm('POST', '/api/gallery/new', form);
    const body = (await response.json()) as { hash: string };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body.hash;
  }

  /** Every hash of a listing (all pages) and its total. */
  async function listing(
    params: Record<string, string | string[] | number>,
  ): Promise<{ hashes: string[]; total: number }> {
    const hashes: string[] = [];
    let total = 0;
    for (let page = 1; page < 20; page++) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries({ ...params, page }))
        search.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
      const response = await fan.jar.get(`/api/gallery/get?${search}`);
      const body = (await response.json()) as { data: GalleryItem[]; total: number };
      expect(response.status, JSON.stringify(body)).toBe(200);
      hashes.push(...body.data.map((item) => item.hash));
      total = body.total;
      if (body.data.length < 24) break;
    }
    return { hashes, total };
  }

  /** The totals of every listing in LISTINGS. */
  async function totals(): Promise<number[]> {
    return Promise.all(LISTINGS.map(async (params) => (await listing(params)).total));
  }

  /** A player's gallery page: its hashes and total. */
  async function userGallery(uuid: string): Promise<{ hashes: string[]; total: number }> {
    const response = await fan.jar.get(`/api/gallery/user/${uuid}`);
    const body = (await response.json()) as { gallery: { data: GalleryItem[]; total: number } };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return { hashes: body.gallery.data.map((item) => item.hash), total: body.gallery.total };
  }

  /** Status and body of a call, to compare a hidden item's answers with an unknown hash's. */
  async function answer(response: Promise<Response>): Promise<{ status: number; body: string }> {
    const done = await response;
    return { status: done.status, body: await done.text() };
  }

  /** What each item call answers for a hash (the item, its images, download, like and report). */
  async function itemCalls(jar: CookieJar, hash: string) {
    return {
      item: await answer(jar.get(`/api/gallery/${hash}`)),
      preview: (await jar.get(`/api/gallery/${hash}/preview`)).status,
      map: (await jar.get(`/api/gallery/${hash}/preview/map`)).status,
      download: await answer(jar.get(`/api/gallery/${hash}/download`)),
      like: await answer(jar.post('/api/gallery/like', { hash })),
      report: await answer(jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })),
    };
  }

  async function item(hash: string): Promise<GalleryItem> {
    const response = await fan.jar.get(`/api/gallery/${hash}`);
    expect(response.status).toBe(200);
    return (await response.json()) as GalleryItem;
  }

  const ban = async (uuid: string) =>
    expect((await admin.jar.post('/api/admin/user/ban', { uuid, confirm: true, reason: 'nsfw' })).status).toBe(200);
  const unban = async (uuid: string) =>
    expect((await admin.jar.post('/api/admin/bans/user/delete', { uuid })).status).toBe(200);

  /** The maintained counters and (PostgreSQL) title counts equal a recount of the listed items. */
  async function expectCountsMatchItems(): Promise<void> {
    const db = suite.server.db;
    const counters = await db
      .selectFrom('gallery_counts')
      .select(['key', 'n'])
      .where('n', '<>', 0)
      .orderBy('key')
      .execute();
    const recount = await sql<{ key: string; n: number }>`
      SELECT key, n FROM (
        SELECT 'type:' || type AS key, count(*) AS n FROM gallery_items WHERE hidden = 0 GROUP BY type
        UNION ALL
        SELECT 'tag:' || t.tag_key || ':type:' || g.type AS key, count(*) AS n
        FROM gallery_tags t JOIN gallery_items g ON g.hash = t.hash WHERE g.hidden = 0 GROUP BY t.tag_key, g.type
      ) counts ORDER BY key`.execute(db);
    expect(counters.map((row) => [row.key, Number(row.n)])).toEqual(
      recount.rows.map((row) => [row.key, Number(row.n)]),
    );
    if (!isPostgres(db)) return;
    const titles = await sql<{
      title_lower: string;
      items: number;
    }>`SELECT title_lower, items FROM gallery_title_counts ORDER BY title_lower`.execute(db);
    const listed = await sql<{ title_lower: string; items: number }>`
      SELECT title_lower, count(*) AS items FROM gallery_items WHERE hidden = 0 GROUP BY title_lower ORDER BY title_lower`.execute(
      db,
    );
    expect(titles.rows.map((row) => [row.title_lower, Number(row.items)])).toEqual(
      listed.rows.map((row) => [row.title_lower, Number(row.items)]),
    );
  }

  it('hides every item of a banned player at once, everywhere in the gallery, and the unban brings them back intact', async () => {
    const target = await loginNewUser(suite.server);
    const cape = await upload(target.jar, 'Quokka cape', ['cute', 'space']);
    const ears = await upload(target.jar, 'Quokka ears', ['space'], true);
    const kept = await upload(other.jar, 'Quokka kept', ['cute', 'space']);
    const keptEars = await upload(other.jar, 'Other ears', ['space'], true);
    expect((await fan.jar.post('/api/gallery/like', { hash: cape })).status).toBe(200);
    expect((await fan.jar.post('/api/gallery/like', { hash: kept })).status).toBe(200);
    expect((await fan.jar.get(`/api/gallery/${cape}/download`)).status).toBe(200);
    const before = { cape: await item(cape), ears: await item(ears), kept: await item(kept), totals: await totals() };
    const unknown = await itemCalls(fan.jar, UNKNOWN_HASH);
    expect(unknown.item.status).toBe(404);
    await expectCountsMatchItems();

    await ban(target.uuid);

    // The listing: gone from every sort and filter; each total drops by the player's items it counted.
    const drops = [2, 1, 1, 1, 2, 1, 1, 1, 2, 2, 1];
    expect(await totals()).toEqual(before.totals.map((total, i) => total - drops[i]!));
    for (const sortBy of ['likes_desc', 'downloads_asc', 'name_asc', 'uploaded_desc']) {
      for (const params of LISTINGS) {
        const { hashes, total } = await listing({ ...params, sortBy });
        expect(hashes, `${sortBy} ${JSON.stringify(params)}`).not.toContain(cape);
        expect(hashes, `${sortBy} ${JSON.stringify(params)}`).not.toContain(ears);
        expect(hashes.length, `${sortBy} ${JSON.stringify(params)}`).toBe(total);
      }
    }
    expect((await listing({ tags: ['space'] })).hashes).toEqual(expect.arrayContaining([kept, keptEars]));
    expect(await userGallery(target.uuid)).toEqual({ hashes: [], total: 0 });

    // Each item call answers as for an unknown hash, and changes nothing.
    const hidden = await itemCalls(fan.jar, cape);
    expect(hidden).toEqual(unknown);
    expect(await itemCalls(fan.jar, ears)).toEqual(unknown);
    const stored = await suite.server.db
      .selectFrom('gallery_items')
      .select(['likes', 'downloads'])
      .where('hash', '=', cape)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ likes: 1, downloads: 1 });
    expect(await suite.server.db.selectFrom('gallery_reports').select('id').where('hash', '=', cape).execute()).toEqual(
      [],
    );

    // Other authors' items are untouched.
    expect(await item(kept)).toEqual(before.kept);
    expect(await userGallery(other.uuid)).toMatchObject({ total: 2 });
    await expectCountsMatchItems();

    await unban(target.uuid);

    expect(await totals()).toEqual(before.totals);
    expect(await item(cape)).toEqual(before.cape);
    expect(await item(ears)).toEqual(before.ears);
    expect(before.cape).toMatchObject({ user_liked: true, total_user_likes: 1, downloads: 1 });
    expect((await userGallery(target.uuid)).hashes.sort()).toEqual([cape, ears].sort());
    expect((await listing({ title: 'quokka' })).hashes).toEqual(expect.arrayContaining([cape, ears, kept]));
    expect((await fan.jar.get(`/api/gallery/${cape}/preview`)).status).toBe(200);
    await expectCountsMatchItems();
  });

  it('lets moderators still see and answer a report of a hidden item', async () => {
    const target = await loginNewUser(suite.server);
    const hash = await upload(target.jar, 'Reported quokka', ['cute']);
    expect((await fan.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
    await ban(target.uuid);

    expect((await fan.jar.get(`/api/gallery/${hash}/preview`)).status).toBe(404);
    expect((await admin.jar.get(`/api/gallery/${hash}/preview`)).status).toBe(200);
    expect((await admin.jar.get(`/api/gallery/${hash}/preview/map`)).status).toBe(200);
    const queue = (await (await admin.jar.get('/api/admin/reports/gallery?page=1')).json()) as {
      data: Array<{ id: number; hash: string; title: string }>;
    };
    const report = queue.data.find((row) => row.hash === hash);
    expect(report).toMatchObject({ title: 'Reported quokka' });
    expect((await admin.jar.post('/api/admin/reports/gallery', { id: report!.id, action: 'IGNORE' })).status).toBe(200);

    await unban(target.uuid);
    expect((await item(hash)).title).toBe('Reported quokka');
    await expectCountsMatchItems();
  });

  it('a BAN answer to a report hides the author’s other items and removes the reported one; the unban brings the others back', async () => {
    const target = await loginNewUser(suite.server);
    const reported = await upload(target.jar, 'Banworthy', ['dark']);
    const others = [
      await upload(target.jar, 'Harmless one', ['dark', 'nature']),
      await upload(target.jar, 'Harmless two', ['nature'], true),
    ];
    const before = await listing({ tags: ['nature'] });
    expect(before.hashes).toEqual(expect.arrayContaining(others));
    expect((await fan.jar.post('/api/gallery/report', { hash: reported, tac: true, reason: 'nsfw' })).status).toBe(200);
    const { id } = await suite.server.db
      .selectFrom('gallery_reports')
      .select('id')
      .where('hash', '=', reported)
      .executeTakeFirstOrThrow();

    expect((await admin.jar.post('/api/admin/reports/gallery', { id, action: 'BAN', reason: 'nsfw' })).status).toBe(
      200,
    );
    expect(
      await suite.server.db.selectFrom('gallery_items').select('hash').where('hash', '=', reported).execute(),
    ).toEqual([]);
    expect(await listing({ tags: ['nature'] })).toEqual({
      hashes: before.hashes.filter((hash) => !others.includes(hash)),
      total: before.total - 2,
    });
    await expectCountsMatchItems();

    await unban(target.uuid);
    expect(await listing({ tags: ['nature'] })).toEqual(before);
    expect((await userGallery(target.uuid)).hashes.sort()).toEqual([...others].sort());
    await expectCountsMatchItems();
  });

  it('deleting a hidden item (as the account deletion does) leaves the counters and title counts right', async () => {
    const target = await loginNewUser(suite.server);
    const hash = await upload(target.jar, 'Short lived', ['food']);
    await ban(target.uuid);
    expect(await deleteGalleryItems(suite.server.db, await itemsByAuthor(suite.server.db, target.uuid))).toEqual([
      hash,
    ]);
    await expectCountsMatchItems();
    await unban(target.uuid);
    expect(await userGallery(target.uuid)).toEqual({ hashes: [], total: 0 });
    await expectCountsMatchItems();
  });
});
