// A gallery texture's page: the author edits and deletes, another player downloads, a player reports.
import { expect, test } from '@playwright/test';
import { galleryMessages } from '../../src/lib/gallery-rules';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';
import { card, chip, seedTexture, uniqueWord } from '../helpers/e2e/gallery';

// Each test logs in through the CLI (a few seconds) and some render the 3D preview in software WebGL: allow more than
// the default.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('the author edits the title and tags; Save returns to waiting with the reloaded texture', async ({ page }) => {
  await logIn(page, uniqueName('Editor'));
  const word = uniqueWord();
  const hash = await seedTexture(page, `${word} before`, ['minimal']);
  await page.goto(`/gallery/${hash}`);
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} before`);

  await page.getByRole('button', { name: 'Edit' }).click();
  const title = page.getByLabel('Title');
  await title.fill('gone');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} before`);

  await page.getByRole('button', { name: 'Edit' }).click();
  await chip(page, 'Minimal').click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toHaveText(`Error: ${galleryMessages.missingFields}`);

  await title.fill(`${word} after<3`);
  await expect(title).toHaveValue(`${word} after3`);
  await chip(page, 'Dark').click();
  await chip(page, 'Space').click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('texture-page')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} after3`);
  await expect(page.getByTestId('texture-tags').getByRole('listitem')).toHaveText(['Dark', 'Space']);

  await page.reload();
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} after3`);
  await expect(page.getByTestId('texture-tags').getByRole('listitem')).toHaveText(['Dark', 'Space']);
});

test('another player sees no Edit or Delete, and downloading counts', async ({ page, browser, baseURL }) => {
  await logIn(page, uniqueName('Owner'));
  const hash = await seedTexture(page, `${uniqueWord()} shared`);
  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL!);
  const other = await context.newPage();
  await logIn(other, uniqueName('Visitor'));
  await other.goto(`/gallery/${hash}`);
  await expect(other.getByTestId('texture-title')).toBeVisible();
  await expect(other.getByRole('button', { name: 'Report' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  const download = other.waitForEvent('download');
  await other.getByTestId('download-link').click();
  expect((await download).suggestedFilename()).toMatch(/shared\.png$/);
  await expect(other.getByTestId('download-count')).toHaveText('1');
  await other.reload();
  await expect(other.getByTestId('download-count')).toHaveText('1');
  await context.close();
});

test('delete asks first, then removes the card at once', async ({ page }) => {
  await logIn(page, uniqueName('Deleter'));
  const word = uniqueWord();
  await seedTexture(page, `${word} keep`);
  await seedTexture(page, `${word} drop`);
  await page.goto(`/gallery?title=${word}`);
  await expect(page.getByTestId('gallery-card')).toHaveCount(2);

  const doomed = card(page, `${word} drop`);
  await doomed.getByRole('button', { name: `Delete ${word} drop` }).click();
  await expect(doomed).toHaveAttribute('data-state', 'delete');
  await doomed.getByRole('button', { name: 'Cancel' }).click();
  await expect(doomed).toHaveAttribute('data-state', 'waiting');

  await doomed.getByRole('button', { name: `Delete ${word} drop` }).click();
  await doomed.getByTestId('delete-confirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('gallery-card')).toHaveCount(1);
  await expect(page.getByTestId('gallery-count')).toHaveText('1 texture');
  await page.reload();
  await expect(page.getByTestId('gallery-card')).toHaveCount(1);
  await expect(card(page, `${word} keep`)).toBeVisible();
});

test('report needs a reason and the terms box and removes the card; a texture marked safe cannot be reported', async ({
  page,
  browser,
  baseURL,
}) => {
  await logIn(page, uniqueName('Author'));
  const word = uniqueWord();
  await seedTexture(page, `${word} rude`);
  await seedTexture(page, `${word} safe`);

  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL!);
  const reporter = await context.newPage();
  await logIn(reporter, uniqueName('Reporter'));
  // Staff approval has no page yet: mark one texture safe in the listing's answer.
  await reporter.route('**/api/gallery/get**', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Array<{ title: string; whitelisted: boolean }> };
    for (const item of body.data) if (item.title === `${word} safe`) item.whitelisted = true;
    await route.fulfill({ response, json: body });
  });
  await reporter.goto(`/gallery?title=${word}`);
  await expect(reporter.getByTestId('gallery-card')).toHaveCount(2);

  const safe = card(reporter, `${word} safe`);
  await safe.getByRole('button', { name: `Report ${word} safe` }).click();
  await expect(safe).toHaveAttribute('data-state', 'report_whitelisted');
  await expect(safe.getByTestId('report-whitelisted')).toContainText('This texture was marked safe by staff');
  await safe.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(safe).toHaveAttribute('data-state', 'waiting');

  const rude = card(reporter, `${word} rude`);
  await rude.getByRole('button', { name: `Report ${word} rude` }).click();
  await expect(rude).toHaveAttribute('data-state', 'report');
  const send = rude.getByTestId('report-confirm').getByRole('button', { name: 'Report' });
  await expect(send).toBeDisabled();
  await rude.getByRole('checkbox').check();
  await expect(send).toBeDisabled();
  await rude.getByLabel('Reason').selectOption({ label: 'Promotes drugs' });
  await send.click();
  await expect(reporter.getByTestId('gallery-card')).toHaveCount(1);
  await expect(card(reporter, `${word} safe`)).toBeVisible();
  await context.close();
});
