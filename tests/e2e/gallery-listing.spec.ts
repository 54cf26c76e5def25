// The gallery listing: title search, tags, type and sort in the URL, infinite scroll, and likes on the cards.
import { expect, test } from '@playwright/test';
import { gallerySentinel, watchGallerySentinel } from '../helpers/e2e/gallery-sentinel';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';
import { card, cardTitles, chip, seedTexture, uniqueWord } from '../helpers/e2e/gallery';

// Each test logs in through the CLI (a few seconds) and some render the 3D preview in software WebGL: allow more than
// the default.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('the title search (filtered, debounced), tags, type and sort change the listing and stay in the URL', async ({
  page,
}) => {
  await logIn(page, uniqueName('Search'));
  const word = uniqueWord();
  await seedTexture(page, `${word} apple`, ['food']);
  await seedTexture(page, `${word} cherry`, ['space']);
  await seedTexture(page, `${word} banana`, ['food']);

  await page.goto('/gallery');
  const search = page.getByLabel('Search titles');
  await search.fill(`${word}!?`);
  await expect(search).toHaveValue(word);
  await expect(page.getByTestId('gallery-card')).toHaveCount(3);
  await expect(page.getByTestId('gallery-count')).toHaveText('3 textures');
  // A real texture's card shows its rendered 320 × 180 preview, not the placeholder.
  await expect
    .poll(() =>
      card(page, `${word} apple`)
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(320);
  await expect(card(page, `${word} apple`).getByTestId('card-preview-missing')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`[?&]title=${word}`));

  const sort = page.getByLabel('Sort by');
  await expect(sort.locator('option')).toHaveText([
    'Most liked',
    'Least liked',
    'Most downloaded',
    'Least downloaded',
    'Name A–Z',
    'Name Z–A',
    'Newest',
    'Oldest',
  ]);
  await sort.selectOption({ label: 'Name A–Z' });
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} banana`, `${word} cherry`]);
  await sort.selectOption({ label: 'Name Z–A' });
  await expect.poll(() => cardTitles(page)).toEqual([`${word} cherry`, `${word} banana`, `${word} apple`]);
  await sort.selectOption({ label: 'Oldest' });
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} cherry`, `${word} banana`]);

  await chip(page, 'Food').click();
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} banana`]);
  await expect(page).toHaveURL(/[?&]tags=food/);

  // A reload keeps every filter.
  await page.reload();
  await expect(page.getByLabel('Search titles')).toHaveValue(word);
  await expect(page.getByLabel('Sort by')).toHaveValue('uploaded_asc');
  await expect(chip(page, 'Food').getByRole('checkbox')).toBeChecked();
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} banana`]);

  // Ears only: nothing matches; Clear filters keeps the sort and drops the rest.
  await page.getByRole('checkbox', { name: 'Ears' }).check();
  await expect(page.getByTestId('gallery-empty')).toContainText('No textures match');
  await page.getByTestId('gallery-empty').getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('Search titles')).toHaveValue('');
  await expect(page.getByRole('checkbox', { name: 'Ears' })).not.toBeChecked();
  await expect(page).toHaveURL(/\/gallery\?sort=uploaded_asc$/);
  await expect(page.getByTestId('gallery-card').first()).toBeVisible();
});

test('infinite scroll loads the next page near the bottom, after a delete too, and stops at the total', async ({
  page,
}) => {
  await logIn(page, uniqueName('Scroll'));
  const word = uniqueWord();
  for (let index = 0; index < 26; index++) await seedTexture(page, `${word} ${String(index).padStart(2, '0')}`);

  const pages: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/gallery/get')) pages.push(new URL(request.url()).searchParams.get('page') ?? '');
  });
  // A short window: the first page's bottom is well out of reach until the player scrolls.
  await page.setViewportSize({ width: 1280, height: 400 });
  await watchGallerySentinel(page);
  await page.goto(`/gallery?title=${word}&sort=name_asc`);
  await expect(page.getByTestId('gallery-card')).toHaveCount(24);
  await expect(page.getByTestId('gallery-count')).toHaveText('26 textures');
  // The next page is asked for only when the sentinel's observer finds it near the screen: once it has looked, it has
  // decided.
  await expect.poll(async () => (await gallerySentinel(page)).checks.length).toBeGreaterThan(0);
  expect((await gallerySentinel(page)).checks).not.toContain(true);
  expect(pages).toEqual(['1']);

  // Deleting shifts the server's pages by one: the next request starts where the list really ends.
  await card(page, `${word} 00`)
    .getByRole('button', { name: `Delete ${word} 00` })
    .click();
  await card(page, `${word} 00`).getByTestId('delete-confirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('gallery-card')).toHaveCount(23);
  await expect(page.getByTestId('gallery-count')).toHaveText('25 textures');

  await page.keyboard.press('End');
  await expect(page.getByTestId('gallery-end')).toHaveText("That's all 25 textures.");
  const titles = await cardTitles(page);
  expect(titles).toEqual(Array.from({ length: 25 }, (_, index) => `${word} ${String(index + 1).padStart(2, '0')}`));
  await page.keyboard.press('End');
  // At the end nothing watches the sentinel any more, so scrolling there again asks for nothing.
  await expect
    .poll(() =>
      page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight),
    )
    .toBe(true);
  expect((await gallerySentinel(page)).watchers).toBe(0);
  expect(pages).toEqual(['1', '1', '2']);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test('a like toggles at once, survives a reload, and rolls back when the call fails', async ({ page }) => {
  await logIn(page, uniqueName('Liker'));
  const title = `${uniqueWord()} liked`;
  await seedTexture(page, title);
  await page.goto(`/gallery?title=${encodeURIComponent(title)}`);
  const like = card(page, title).getByTestId('like-button');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.getByTestId('like-count')).toHaveText('1');

  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.getByTestId('like-count')).toHaveText('1');

  // A failed call puts the like back and says why.
  await page.route('**/api/gallery/like', (route) =>
    route.fulfill({ status: 500, json: { error: 'Something went wrong' } }),
  );
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.getByTestId('like-count')).toHaveText('1');
  await expect(card(page, title).getByTestId('like-notice')).toContainText('Something went wrong');
  await page.unroute('**/api/gallery/like');

  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like.getByTestId('like-count')).toHaveText('0');
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like.getByTestId('like-count')).toHaveText('0');
});
