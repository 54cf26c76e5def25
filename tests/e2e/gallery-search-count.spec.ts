// A gallery search with more matches than the server counts: "1,000+", scrolling on past the thousand, and the exact
// number at the end.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { openDatabase } from '../../server/db/database';
import { createGalleryItem } from '../../server/gallery/items';
import { GALLERY_COUNT_CAP } from '../../src/lib/gallery-rules';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';

// The trace recorder snapshots the whole page on every action: with a thousand cards that alone takes most of a minute.
test.use({ trace: 'off' });
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('a search with more matches than are counted says "1,000+" and scrolls on to the last match', async ({ page }) => {
  const name = uniqueName('Many');
  await logIn(page, name);
  const word = uniqueName('w').toLowerCase();
  // More textures than a search counts, written straight into the server's database (uploading them would take
  // minutes).
  const db = openDatabase(`sqlite:${path.join(E2E_DATA_DIR, 'cloakroom.db')}`);
  try {
    const author = await db.selectFrom('users').select('uuid').where('username', '=', name).executeTakeFirstOrThrow();
    const now = Date.now();
    for (let index = 0; index < GALLERY_COUNT_CAP + 30; index++) {
      const item = {
        hash: randomBytes(32).toString('hex'),
        stripHash: null,
        title: `${word} ${index}`,
        authorUuid: author.uuid,
        type: 0,
        tags: ['minimal'],
      };
      expect(await createGalleryItem(db, item, now + index)).toBe(true);
    }
  } finally {
    await db.destroy();
  }

  await page.goto(`/gallery?title=${word}&sort=uploaded_asc`);
  await expect(page.getByTestId('gallery-count')).toHaveText('1,000+ textures');
  await expect(page.getByTestId('gallery-card')).toHaveCount(24);
  // These rows have no image behind them: their cards say so instead of showing a broken image.
  await expect(page.getByTestId('gallery-card').first().getByTestId('card-preview-missing')).toHaveText('No preview');
  // Past the counted thousand the listing keeps loading until the server runs out, then knows the real number.
  // One DOM query per check: locators re-walk the thousand cards on every poll.
  const listing = () =>
    page.evaluate(() => ({
      cards: document.querySelectorAll('[data-testid="gallery-card"]').length,
      ended: document.querySelector('[data-testid="gallery-end"]') !== null,
    }));
  // Straight to the bottom each time (the End key scrolls smoothly, and a press during that glide lands short).
  for (let shown = 24, ended = false; !ended; { cards: shown, ended } = await listing()) {
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    await expect.poll(async () => ((state) => state.ended || state.cards > shown)(await listing())).toBe(true);
  }
  await expect(page.getByTestId('gallery-end')).toHaveText("That's all 1,030 textures.");
  await expect(page.getByTestId('gallery-count')).toHaveText('1,030 textures');
  await expect(page.getByTestId('card-title').last()).toHaveText(`${word} 1029`);

  // A narrower search is counted exactly: "<word> 10", "<word> 100" to "<word> 109" and "<word> 1000" to "<word> 1029".
  await page.goto(`/gallery?title=${encodeURIComponent(`${word} 10`)}`);
  await expect(page.getByTestId('gallery-count')).toHaveText('41 textures');
});
