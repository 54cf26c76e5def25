// API tests for the title search totals following item writes: shared titles, edits, deletes, bulk writes and account
// deletion.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_COUNT_CAP } from '../../../src/lib/gallery-rules.ts';
import { createGalleryItem, deleteGalleryItems, editGalleryItem } from '../../../server/gallery/items.ts';
import { backends } from '../../../support/backends.ts';
import { query, type Page } from '../../helpers/gallery-listing.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

describe.each(backends)('title search totals after writes on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  let viewer: Awaited<ReturnType<typeof loginNewUser>>;

  beforeAll(async () => {
    viewer = await loginNewUser(suite.server, 'TitleViewer');
  });

  /** The total of a title search (the whole listing is checked elsewhere). */
  async function titleTotal(title: string): Promise<{ total: number; total_capped: boolean }> {
    const response = await viewer.jar.get(`/api/gallery/get${query({ title })}`);
    const body = (await response.json()) as Page;
    expect(response.status, JSON.stringify(body)).toBe(200);
    return { total: body.total, total_capped: body.total_capped };
  }

  /** PostgreSQL: gallery_title_counts (0006) holds exactly the items per title; SQLite has no such table. */
  async function expectTitleCountsInStep(): Promise<void> {
    if (backend.name !== 'postgres') return;
    const db = suite.server.db;
    const { rows: kept } = await sql<{ title_lower: string; items: number }>`
      select title_lower, items from gallery_title_counts order by title_lower`.execute(db);
    const { rows: actual } = await sql<{ title_lower: string; items: number }>`
      select title_lower, count(*)::int as items from gallery_items group by title_lower order by title_lower`.execute(
      db,
    );
    expect(kept).toEqual(actual);
  }

  it('counts titles shared by several items, and follows edits, deletes, bulk writes and account deletion', async () => {
    const db = suite.server.db;
    const author = await loginNewUser(suite.server, 'TitleAuthor');
    const hashes = Array.from({ length: 5 }, () => randomBytes(32).toString('hex'));
    const titles = ['Twin Star', 'TWIN STAR', 'twin star', 'Lone Star', 'Moon'];
    for (const [i, hash] of hashes.entries()) {
      await createGalleryItem(db, {
        hash,
        stripHash: null,
        title: titles[i]!,
        authorUuid: author.uuid,
        type: 0,
        tags: ['space'],
      });
    }
    // The same hash again adds nothing.
    expect(
      await createGalleryItem(db, {
        hash: hashes[0]!,
        stripHash: null,
        title: 'Moon',
        authorUuid: author.uuid,
        type: 0,
        tags: [],
      }),
    ).toBe(false);
    expect(await titleTotal('twin star')).toEqual({ total: 3, total_capped: false });
    expect(await titleTotal('star')).toEqual({ total: 4, total_capped: false });
    expect(await titleTotal('moon')).toEqual({ total: 1, total_capped: false });
    await expectTitleCountsInStep();

    // Edits move items between titles (the last of a title included); an edit of the tags alone changes no total.
    await editGalleryItem(db, hashes[1]!, 'Moon', ['space']);
    await editGalleryItem(db, hashes[3]!, 'Sun', ['space']);
    await editGalleryItem(db, hashes[4]!, 'Moon', ['nature']);
    expect(await titleTotal('twin star')).toEqual({ total: 2, total_capped: false });
    expect(await titleTotal('lone')).toEqual({ total: 0, total_capped: false });
    expect(await titleTotal('moon')).toEqual({ total: 2, total_capped: false });
    await expectTitleCountsInStep();

    // Deleting the last item of a title removes it; deleting one of two leaves the other.
    await deleteGalleryItems(db, [hashes[3]!, hashes[4]!]);
    expect(await titleTotal('sun')).toEqual({ total: 0, total_capped: false });
    expect(await titleTotal('moon')).toEqual({ total: 1, total_capped: false });
    expect(await titleTotal('star')).toEqual({ total: 2, total_capped: false });
    await expectTitleCountsInStep();

    // One statement writing more items of one title than the cap, then one deleting them.
    const crowd = Array.from({ length: GALLERY_COUNT_CAP + 5 }, (_, i) => ({
      hash: randomBytes(32).toString('hex'),
      title: i % 2 ? 'Crowd' : 'CROWD',
      title_lower: 'crowd',
      author_uuid: author.uuid,
      type: 0,
      created_at: Date.now(),
    }));
    await db.insertInto('gallery_items').values(crowd).execute();
    expect(await titleTotal('crowd')).toEqual({ total: GALLERY_COUNT_CAP, total_capped: true });
    await expectTitleCountsInStep();
    await db
      .deleteFrom('gallery_items')
      .where(
        'hash',
        'in',
        crowd.slice(10).map((item) => item.hash),
      )
      .execute();
    expect(await titleTotal('crowd')).toEqual({ total: 10, total_capped: false });
    await expectTitleCountsInStep();

    // Deleting the account removes its items through the foreign key.
    await db.deleteFrom('users').where('uuid', '=', author.uuid).execute();
    for (const title of ['crowd', 'star', 'moon'])
      expect(await titleTotal(title)).toEqual({ total: 0, total_capped: false });
    await expectTitleCountsInStep();
  });
});
