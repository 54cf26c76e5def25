// API tests for liking gallery items.
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { gallerySuite, UNKNOWN_HASH } from '../../helpers/gallery.ts';
import { loginNewUser, newBrowser } from '../../helpers/server.ts';

describe.each(backends)('gallery on $name', (backend) => {
  const { suite, freshCape, upload, getItem, rows, expectRefused } = gallerySuite(backend);

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
      await expectRefused(
        await jar.post('/api/gallery/like', { hash: UNKNOWN_HASH }),
        404,
        'That texture does not exist.',
      );
      expect((await jar.post('/api/gallery/like', { hash: 'abc' })).status).toBe(422);
      expect((await jar.post('/api/gallery/like', {})).status).toBe(422);
      const author = await loginNewUser(suite.server);
      const hash = await upload(author.jar, await freshCape(), 'Not for visitors', ['cute']);
      const visitor = await newBrowser(suite.server);
      expect((await visitor.post('/api/gallery/like', { hash })).status).toBe(401);
      expect((await getItem(author.jar, hash)).total_user_likes).toBe(0);
    });
  });
});
