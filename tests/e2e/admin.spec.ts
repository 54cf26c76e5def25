// The admin area: the dashboard, the ban list with its unban confirm step, a banned player logged out and told why, and
// players kept out.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { bannedLogoutMessage } from '../../src/lib/login-errors';
import sharp from 'sharp';
import { todayOnPages, todayWithTime } from '../helpers/e2e/dates';
import { issueCode, logIn, skipServerAdvert, uniqueName, xsrf } from '../helpers/e2e/session';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** Creates a player account (through the operator CLI) and returns its uuid. */
async function createPlayer(page: Page, username: string): Promise<string> {
  issueCode(username);
  const response = await page.request.get(`/api/user/search/${username}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { uuid: string }).uuid;
}

/** Bans a player through the admin API with the page's admin session. */
async function ban(page: Page, uuid: string): Promise<void> {
  const response = await page.request.post('/api/admin/user/ban', {
    headers: await xsrf(page),
    data: { uuid, confirm: true, reason: 'nsfw' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test('an admin opens the dashboard from the menu and unbans a player from the ban list', async ({ page }) => {
  const admin = uniqueName('Mod');
  await logIn(page, admin, { admin: true });
  await page.getByTestId('user-menu').click();
  await page.getByRole('link', { name: /Admin/ }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('total-totalUsers').locator('dd')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByRole('note')).toContainText('Reported content may be shocking');

  const target = uniqueName('Banned');
  const uuid = await createPlayer(page, target);
  await ban(page, uuid);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Ban list' }).click();
  const row = page.getByTestId('ban-row').filter({ hasText: target });
  await expect(row).toContainText('NSFW or NSFL image');
  await expect(row).toContainText(admin);
  await row.getByRole('button', { name: 'Unban' }).click();
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByRole('button', { name: 'Unban' })).toBeVisible();
  await row.getByRole('button', { name: 'Unban' }).click();
  await row.getByRole('button', { name: `Confirm unban of ${target}` }).click();
  await expect(page.getByTestId('ban-row').filter({ hasText: target })).toHaveCount(0);
});

/** Logs a new player in on `page`, and has a new admin ban them in another browser (for NSFW or NSFL image). */
async function logInThenGetBanned(browser: Browser, page: Page): Promise<void> {
  await logIn(page, uniqueName('Doomed'));
  const uuid = ((await (await page.request.get('/api/user')).json()) as { uuid: string }).uuid;
  const adminPage = await browser.newPage();
  await skipServerAdvert(adminPage.context(), test.info().project.use.baseURL!);
  await logIn(adminPage, uniqueName('Mod'), { admin: true });
  await ban(adminPage, uuid);
  await adminPage.close();
}

/** What a banned player is told on the page they land on. */
const BANNED_LOGOUT = bannedLogoutMessage('NSFW or NSFL image');

test('a banned player is logged out on their next page and told why on the login page it sends them to', async ({
  browser,
  page,
}) => {
  await logInThenGetBanned(browser, page);
  await page.goto('/upload-cape');
  await expect(page).toHaveURL(/\/account\/login/);
  await expect(page.getByTestId('user-menu')).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'banned' })).toHaveText(BANNED_LOGOUT);
  expect(BANNED_LOGOUT).toBe(
    'The specified account has been banned for violating our terms of service. Reason: NSFW or NSFL image.',
  );
});

test('a banned player who opens a page anyone may see is logged out and told why on that page', async ({
  browser,
  page,
}) => {
  await logInThenGetBanned(browser, page);
  await page.goto('/help');
  await expect(page.getByRole('alert').filter({ hasText: 'banned' })).toHaveText(BANNED_LOGOUT);
  await expect(page.getByTestId('user-menu')).toBeHidden();
  await expect(page).toHaveURL('/help');
});

test('an admin finds a player on the edit user page and bans them after ticking the confirm box', async ({ page }) => {
  await logIn(page, uniqueName('Mod'), { admin: true });
  const target = uniqueName('Edited');
  await createPlayer(page, target);
  await page.goto('/admin/edit-user');
  await page.getByLabel('Username').fill(target);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(`/admin/edit-user/${target}`);
  const record = page.getByTestId('admin-user-record');
  await expect(record.getByRole('heading', { name: target })).toBeVisible();
  await expect(record.getByRole('button', { name: 'Delete cape' })).toBeDisabled();
  // Dates read as on every other page: "27 Nov 2026".
  await expect(record.locator('time')).toHaveText(todayOnPages());

  const banButton = record.getByRole('button', { name: 'Ban', exact: true });
  await record.getByLabel('Reason').selectOption({ label: 'Impersonates another player or staff' });
  await expect(banButton).toBeDisabled();
  await record.getByRole('checkbox').check();
  await banButton.click();
  await expect(page.getByTestId('admin-banner')).toHaveText(`${target} was banned.`);
  await expect(record.getByText('Banned', { exact: true })).toBeVisible();
});

test('the edit user page says an unknown player is not registered, then returns to the empty search', async ({
  page,
}) => {
  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto('/admin/edit-user/Nobody_Here_42');
  await expect(page.getByRole('alert')).toHaveText("That user doesn't exist or isn't registered.");
  await page.waitForURL('**/admin/edit-user');
  await expect(page.getByLabel('Username')).toHaveValue('');
});

/**
 * Logs a new player in on a fresh page, gives them a cape and has another new player report them; returns the reported
 * name.
 */
async function reportedPlayerWithCape(page: Page): Promise<string> {
  const browser = page.context().browser()!;
  const baseURL = test.info().project.use.baseURL!;
  const post = async (on: Page, path: string, options: Parameters<Page['request']['post']>[1]) => {
    const response = await on.request.post(path, { ...options, headers: await xsrf(on) });
    expect(response.status(), await response.text()).toBe(200);
  };
  const target = await browser.newPage();
  await skipServerAdvert(target.context(), baseURL);
  const name = uniqueName('Reported');
  await logIn(target, name);
  const cape = await sharp({
    create: { width: 64, height: 32, channels: 4, background: { r: 200, g: 30, b: 160, alpha: 1 } },
  })
    .png()
    .toBuffer();
  await post(target, '/api/upload-cape', {
    multipart: { file: { name: 'cape.png', mimeType: 'image/png', buffer: cape } },
  });
  const uuid = ((await (await target.request.get('/api/user')).json()) as { uuid: string }).uuid;
  await target.close();
  const reporter = await browser.newPage();
  await skipServerAdvert(reporter.context(), baseURL);
  await logIn(reporter, uniqueName('Reporter'));
  await post(reporter, '/api/user/report', { data: { uuid, terms: true, reason: 'nsfw' } });
  await reporter.close();
  return name;
}

test("an admin works the player report queue: Remove starts from the reporter's reason and needs one, Cancel goes back, Ban bans", async ({
  page,
}) => {
  const first = await reportedPlayerWithCape(page);
  const second = await reportedPlayerWithCape(page);
  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto('/admin/reports/user');

  const firstReport = page.getByTestId('user-report').filter({ hasText: first });
  await expect(firstReport.getByRole('img', { name: `${first}'s reported cape` })).toBeVisible();
  await expect(firstReport.locator('time')).toHaveText(todayWithTime());
  await firstReport.getByRole('button', { name: 'Remove' }).click();
  const confirmRemove = firstReport.getByRole('button', { name: 'Confirm remove' });
  const reason = firstReport.getByLabel('Reason');
  // The reporter gave "NSFW or NSFL image": Remove starts from it.
  await expect(reason.locator('option:checked')).toHaveText('NSFW or NSFL image');
  await expect(confirmRemove).toBeEnabled();
  await reason.selectOption('');
  await expect(confirmRemove).toBeDisabled();
  await reason.selectOption('hate');
  await firstReport.getByRole('button', { name: 'Cancel' }).click();
  await firstReport.getByRole('button', { name: 'Remove' }).click();
  await expect(reason.locator('option:checked')).toHaveText('NSFW or NSFL image');
  await confirmRemove.click();
  await expect(page.getByTestId('user-report').filter({ hasText: first })).toHaveCount(0);

  const secondReport = page.getByTestId('user-report').filter({ hasText: second });
  await secondReport.getByRole('button', { name: 'Ban' }).click();
  await expect(secondReport.getByLabel('Reason').locator('option:checked')).toHaveText('NSFW or NSFL image');
  await secondReport.getByLabel('Reason').selectOption('hate');
  await secondReport.getByRole('button', { name: 'Confirm ban' }).click();
  await expect(page.getByTestId('user-report').filter({ hasText: second })).toHaveCount(0);
  await page.goto('/admin/bans/user');
  await expect(page.getByTestId('ban-row').filter({ hasText: second })).toContainText(
    'Sexism, racism or other hateful content',
  );
});

test('an admin whitelists a reported gallery texture from the gallery report queue', async ({ page }) => {
  const browser = page.context().browser()!;
  const baseURL = test.info().project.use.baseURL!;
  const author = await browser.newPage();
  await skipServerAdvert(author.context(), baseURL);
  await logIn(author, uniqueName('Artist'));
  const title = uniqueName('art').toLowerCase();
  const texture = await sharp({
    create: { width: 64, height: 32, channels: 4, background: { r: 20, g: 180, b: 90, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const created = await author.request.post('/api/gallery/new', {
    headers: await xsrf(author),
    multipart: {
      title,
      tags: JSON.stringify(['nature']),
      file: { name: 'texture.png', mimeType: 'image/png', buffer: texture },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { hash } = (await created.json()) as { hash: string };
  await author.close();

  const reporter = await browser.newPage();
  await skipServerAdvert(reporter.context(), baseURL);
  await logIn(reporter, uniqueName('Reporter'));
  const reported = await reporter.request.post('/api/gallery/report', {
    headers: await xsrf(reporter),
    data: { hash, tac: true, reason: 'nsfw' },
  });
  expect(reported.status()).toBe(200);
  await reporter.close();

  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto('/admin/reports/gallery');
  const report = page.getByTestId('gallery-report').filter({ hasText: title });
  await expect(report.getByRole('img', { name: `Preview of ${title}` })).toBeVisible();
  await report.getByRole('button', { name: 'Whitelist' }).click();
  await report.getByRole('button', { name: 'Confirm whitelist' }).click();
  await expect(page.getByTestId('gallery-report').filter({ hasText: title })).toHaveCount(0);
  const item = (await (await page.request.get(`/api/gallery/${hash}`)).json()) as { whitelisted: boolean };
  expect(item.whitelisted).toBe(true);
});

test('the audit log shows a ban with its moderator and reason, and narrows to one player', async ({ page }) => {
  const moderator = uniqueName('Mod');
  await logIn(page, moderator, { admin: true });
  const target = uniqueName('Audited');
  await ban(page, await createPlayer(page, target));
  await page.goto('/admin/audit');
  await page.getByLabel('Player').fill(target);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(`/admin/audit?page=1&player=${target}`);
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(moderator);
  await expect(rows.first()).toContainText('Banned');
  await expect(rows.first()).toContainText('NSFW or NSFL image');
  await expect(rows.first().locator('time')).toHaveText(todayWithTime());
});

test("the admin area's pages fit in groups: a side bar at 1280 px, one button that opens them at 390 px", async ({
  page,
}) => {
  await logIn(page, uniqueName('Nav'), { admin: true });
  await page.goto('/admin/audit');
  const sideBar = page.getByRole('navigation', { name: 'Admin' });
  const groups = ['Overview', 'Players', 'Gallery', 'Apps'];
  for (const group of groups) await expect(sideBar.getByText(group, { exact: true })).toBeVisible();
  await expect(sideBar.getByRole('link')).toHaveCount(10);
  await expect(sideBar.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
  const box = (await sideBar.boundingBox())!;
  expect(box.x + box.width, 'the side bar is within the page').toBeLessThanOrEqual(1280);
  await page.screenshot({ path: 'test-results/admin-nav-1280.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeInViewport();
  const opener = page.getByText('Admin pages: Audit log');
  await opener.click();
  const menu = page.getByRole('navigation', { name: 'Admin' });
  await expect(menu.getByRole('link')).toHaveCount(10);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    'nothing wider than the screen',
  ).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/admin-nav-390.png', fullPage: true });
  await menu.getByRole('link', { name: 'Launcher apps' }).click();
  await expect(page).toHaveURL('/admin/oauth-clients');
  await expect(page.getByRole('heading', { name: 'Launcher apps', level: 1 })).toBeVisible();
});
