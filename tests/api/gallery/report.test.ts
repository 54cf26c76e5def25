// API tests for reporting gallery items.
import { describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { gallerySuite, UNKNOWN_HASH } from '../../helpers/gallery.ts';
import { loginNewUser, newBrowser } from '../../helpers/server.ts';

describe.each(backends)('gallery on $name', (backend) => {
  const { suite, freshCape, upload, getItem, rows, expectRefused } = gallerySuite(backend);

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
      await expectRefused(
        await author.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' }),
        422,
        'You cannot report your own texture.',
      );
      expect(await rows('gallery_reports', hash)).toBe(0);

      const response = await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
      await expectRefused(
        await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' }),
        422,
        'You have already reported this texture.',
      );
      const reports = await suite.server.db
        .selectFrom('gallery_reports')
        .select(['hash', 'reporter_uuid'])
        .where('hash', '=', hash)
        .execute();
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
      expect(
        (await reporter.jar.post('/api/gallery/report', { hash: UNKNOWN_HASH, tac: true, reason: 'nsfw' })).status,
      ).toBe(404);
      expect(
        (await (await newBrowser(suite.server)).post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' }))
          .status,
      ).toBe(401);
      expect(await rows('gallery_reports', hash)).toBe(0);
    });
  });
});
