// API tests for editing the title and tags of gallery items.
import { describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { backends } from '../../../support/backends.ts';
import { gallerySuite, UNKNOWN_HASH, type Item } from '../../helpers/gallery.ts';
import { loginNewUser, newBrowser } from '../../helpers/server.ts';

describe.each(backends)('gallery on $name', (backend) => {
  const { suite, freshCape, upload, getItem, total, expectRefused } = gallerySuite(backend);

  describe('POST /api/gallery/edit', () => {
    it('lets the author change title and tags; tags are replaced and the tag totals move', async () => {
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Before edit', ['sports', 'memes']);
      const sports = await total(author.jar, { tags: ['sports'] });
      const memes = await total(author.jar, { tags: ['memes'] });
      const games = await total(author.jar, { tags: ['games'] });
      const all = await total(author.jar);

      const response = await author.jar.post('/api/gallery/edit', {
        hash,
        title: 'After edit',
        tags: JSON.stringify(['games', 'memes', 'games']),
      });
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
        (
          (await (
            await author.jar.get(`/api/gallery/get?user=${author.uuid}&title=${encodeURIComponent(title)}`)
          ).json()) as { data: Item[] }
        ).data.map((item) => item.hash);
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
      expect(await getItem(author.jar, hash)).toMatchObject({
        title: 'Stable',
        tags: [{ tag_key: 'nature', name: 'Nature' }],
      });
    });

    it('refuses another user with 403, lets an admin edit, 404 for an unknown hash and 401 for visitors', async () => {
      const author = await loginNewUser(suite.server);
      const other = await loginNewUser(suite.server);
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      const hash = await upload(author.jar, await freshCape(), 'Owned', ['flags']);
      await expectRefused(
        await other.jar.post('/api/gallery/edit', { hash, title: 'Stolen', tags: '["flags"]' }),
        403,
        'You can only edit your own textures.',
      );
      expect(
        (
          await (
            await newBrowser(suite.server)
          ).post('/api/gallery/edit', { hash, title: 'Visitor', tags: '["flags"]' })
        ).status,
      ).toBe(401);
      expect(
        (await author.jar.post('/api/gallery/edit', { hash: UNKNOWN_HASH, title: 'Gone', tags: '["flags"]' })).status,
      ).toBe(404);
      expect((await getItem(author.jar, hash)).title).toBe('Owned');
      const response = await admin.jar.post('/api/gallery/edit', { hash, title: 'Moderated', tags: '["pride"]' });
      expect(response.status).toBe(200);
      expect(await getItem(author.jar, hash)).toMatchObject({
        title: 'Moderated',
        author: author.uuid,
        tags: [{ tag_key: 'pride', name: 'Pride' }],
      });
    });
  });
});
