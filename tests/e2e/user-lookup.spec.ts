// Player lookup and report: search a player and see their card and cape, a failed search, one's own profile, and a
// report.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { logIn, skipServerAdvert, uniqueName, xsrf } from '../helpers/e2e/session';

// Each test logs in through the CLI and some render the 3D preview in software WebGL: allow more than the default.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** Logs a new player in on a page and gives them a cape through the API; returns their name and uuid. */
async function playerWithCape(page: Page): Promise<{ username: string; uuid: string }> {
  const username = uniqueName('Caped');
  await logIn(page, username);
  const raw = randomBytes(64 * 32 * 4);
  for (let offset = 3; offset < raw.length; offset += 4) raw[offset] = 255;
  const cape = await sharp(raw, { raw: { width: 64, height: 32, channels: 4 } })
    .png()
    .toBuffer();
  const upload = await page.request.post('/api/upload-cape', {
    headers: await xsrf(page),
    multipart: { file: { name: 'cape.png', mimeType: 'image/png', buffer: cape } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const user = (await (await page.request.get('/api/user')).json()) as { uuid: string };
  return { username, uuid: user.uuid };
}

test('a player looks up another by name, sees their card and cape, and reports them', async ({ browser, page }) => {
  const targetPage = await browser.newPage();
  await skipServerAdvert(targetPage.context(), test.info().project.use.baseURL!);
  const target = await playerWithCape(targetPage);
  await targetPage.close();

  await logIn(page, uniqueName('Looker'));
  await page.goto('/user');
  await expect(page.getByRole('heading', { name: 'Grab a user' })).toBeVisible();
  const search = page.getByRole('button', { name: 'Search' });
  await expect(search).toBeDisabled();
  await page.getByLabel('Username').fill(target.username.toLowerCase());
  await search.click();

  const card = page.getByTestId('player-card');
  await expect(card.getByRole('heading', { name: target.username })).toBeVisible();
  await expect(page).toHaveURL(`/user/${target.uuid}`);
  await expect(card.getByRole('row', { name: /UUID/ })).toContainText(target.uuid);
  await expect(card.getByRole('row', { name: /Group/ })).toContainText('Player');
  await expect(card.getByRole('row', { name: /Premium/ })).toContainText('No');
  await expect(card.getByTestId('player-preview')).toHaveAttribute('data-cape', 'ready');
  await expect(card.getByRole('link', { name: 'Delete Account' })).toHaveCount(0);

  await card.getByRole('link', { name: `Report ${target.username}` }).click();
  await expect(page).toHaveURL(`/user/${target.uuid}/report`);
  const report = page.getByRole('button', { name: `Report ${target.username}` });
  await expect(report).toBeDisabled();
  await page.getByRole('checkbox').check();
  await expect(report).toBeDisabled();
  await page.getByLabel('Reason').selectOption({ label: 'Impersonates another player or staff' });
  await report.click();
  await expect(page.getByTestId('report-sent')).toContainText(`Your report of ${target.username} was sent`);
});

test('a failed search shows the error list and returns to /user', async ({ page }) => {
  await page.goto('/user/NoSuchPlayer_9');
  const error = page.getByTestId('lookup-error');
  await expect(error.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(error).toContainText("That user doesn't exist or isn't registered.");
  await expect(page).toHaveURL('/user');
});

test('on their own profile a player sees Delete Account instead of the report link', async ({ page }) => {
  const me = await playerWithCape(page);
  await page.goto('/');
  await page.getByTestId('user-menu').click();
  await page.getByRole('link', { name: 'My Profile' }).click();
  await expect(page).toHaveURL(`/user/${me.uuid}`);
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  const card = page.getByTestId('player-card');
  await expect(card.getByRole('link', { name: 'Delete Account' })).toHaveAttribute('href', '/account/delete');
  await expect(card.getByRole('link', { name: /^Report / })).toHaveCount(0);
});
