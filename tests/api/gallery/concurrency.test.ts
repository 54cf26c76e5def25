// API tests for concurrent likes, deletes and edits of gallery items keeping likes and counters right.
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { gallerySuite } from '../../helpers/gallery.ts';
import { loginNewUser } from '../../helpers/server.ts';

describe.each(backends)('gallery on $name', (backend) => {
  const { suite, freshCape, upload, getItem, total, rows } = gallerySuite(backend);

  describe('concurrent requests keep likes and counters right', () => {
    async function counted(): Promise<number> {
      return rows('gallery_items');
    }

    it('two likes at once by one user answer without a server error and leave a consistent count', async () => {
      const author = await loginNewUser(suite.server);
      const fan = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Double click', ['cute']);
      for (let round = 0; round < 5; round++) {
        const responses = await Promise.all([
          fan.jar.post('/api/gallery/like', { hash }),
          fan.jar.post('/api/gallery/like', { hash }),
        ]);
        for (const response of responses)
          expect(response.status, `round ${round}: ${await response.clone().text()}`).toBeLessThan(500);
        const item = await getItem(fan.jar, hash);
        expect(item.total_user_likes, `round ${round}`).toBe(await rows('gallery_likes', hash));
      }
    });

    it('two deletes of one item at once (its author’s and a moderator’s removal) move the counters once', async () => {
      const author = await loginNewUser(suite.server);
      const admin = await loginNewUser(suite.server, undefined, { admin: true });
      for (let round = 0; round < 5; round++) {
        const hash = await upload(author.jar, await freshCape(), `Race ${round}`, ['cute']);
        const responses = await Promise.all([
          author.jar.post('/api/gallery/delete', { hash }),
          admin.jar.post('/api/gallery/delete', { hash, reason: 'other' }),
        ]);
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
        const expected = {
          [from]: (await total(author.jar, { tags: [from] })) - 1,
          [to]: (await total(author.jar, { tags: [to] })) + 1,
        };
        const responses = await Promise.all([
          author.jar.post('/api/gallery/edit', { hash, title: 'Edit race', tags: JSON.stringify([to]) }),
          author.jar.post('/api/gallery/edit', { hash, title: 'Edit race', tags: JSON.stringify([to]) }),
        ]);
        for (const response of responses) expect(response.status).toBeLessThan(500);
        expect(
          { [from]: await total(author.jar, { tags: [from] }), [to]: await total(author.jar, { tags: [to] }) },
          `round ${round}`,
        ).toEqual(expected);
      }
    });
  });
});
