// A gallery texture's page: the author edits and deletes, another player downloads, a player reports, a moderator
// deletes another player's texture for a reason and it leaves the players wearing it.
import { expect, test } from '@playwright/test';
import { adminMessages } from '../../src/lib/admin-rules';
import { galleryMessages } from '../../src/lib/gallery-rules';
import { logIn, skipServerAdvert, uniqueName, xsrf } from '../helpers/e2e/session';
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
  await expect(doomed.getByTestId('delete-confirm')).toContainText(
    "It leaves the gallery for everyone. This can't be undone.",
  );
  await expect(doomed.getByLabel('Reason')).toHaveCount(0);
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

test("a moderator deletes another player's worn texture for a reason: it leaves the gallery and the player wearing it", async ({
  page,
  browser,
  baseURL,
}) => {
  const word = uniqueWord();
  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL!);
  const player = await context.newPage();
  await logIn(player, uniqueName('Wearer'));
  const hash = await seedTexture(player, `${word} worn`);
  const wear = await player.request.post('/api/gallery/wear', { headers: await xsrf(player), data: { hash } });
  expect(wear.status(), await wear.text()).toBe(200);
  const wearer = ((await (await player.request.get('/api/user')).json()) as { uuid: string }).uuid;
  await context.close();
  expect((await page.request.get(`/profile/${wearer}`)).status()).toBe(200);

  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto(`/gallery?title=${word}`);
  const worn = card(page, `${word} worn`);
  const open = worn.getByRole('button', { name: `Delete ${word} worn` });
  await open.click();
  const step = worn.getByTestId('delete-confirm');
  await expect(step.getByTestId('wearer-count')).toHaveText('1 player wears it now and will lose it.');
  const reason = step.getByLabel('Reason');
  await expect(reason).toBeFocused();
  const remove = step.getByRole('button', { name: 'Delete', exact: true });
  await expect(remove).toBeDisabled();
  // Escape leaves the step, and the focus goes back to the card's Delete button.
  await page.keyboard.press('Escape');
  await expect(worn).toHaveAttribute('data-state', 'waiting');
  await expect(open).toBeFocused();

  // The keyboard alone: open the step, choose a reason, reach Delete.
  await page.keyboard.press('Enter');
  await expect(reason).toBeFocused();
  await reason.selectOption({ label: 'Promotes drugs' });
  await expect(remove).toBeEnabled();
  // A refusal of the reason is said by the field, and the step stays open with the reason kept.
  await page.route(
    '**/api/gallery/delete',
    (route) =>
      route.fulfill({
        status: 422,
        json: { message: adminMessages.chooseReason, errors: { reason: [adminMessages.chooseReason] } },
      }),
    { times: 1 },
  );
  await page.keyboard.press('Tab');
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(step.getByTestId('reason-error')).toHaveText(adminMessages.chooseReason);
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await expect(reason).toBeFocused();
  await expect(reason.locator('option:checked')).toHaveText('Promotes drugs');

  await remove.click();
  await expect(page.getByTestId('gallery-card')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
  await expect(page.getByTestId('gallery-card')).toHaveCount(0);
  await expect.poll(async () => (await page.request.get(`/profile/${wearer}`)).status()).toBe(404);
});

test("a moderator's Delete of their own texture asks as an author's does: no reason, no wearer count", async ({
  page,
}) => {
  await logIn(page, uniqueName('ModAuthor'), { admin: true });
  const hash = await seedTexture(page, `${uniqueWord()} mine`);
  await page.goto(`/gallery/${hash}`);
  const open = page.getByRole('button', { name: 'Delete' });
  await open.click();
  const step = page.getByTestId('delete-confirm');
  await expect(step).toContainText("It leaves the gallery for everyone. This can't be undone.");
  await expect(step.getByLabel('Reason')).toHaveCount(0);
  await expect(step.getByTestId('wearer-count')).toHaveCount(0);
  await expect(step.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await step.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('texture-page')).toHaveAttribute('data-state', 'waiting');
  await expect(open).toBeFocused();
});
