// The admin area: the dashboard, the ban list with its unban confirm step, a banned player logged out, and players kept out.
import { expect, test, type Page } from '@playwright/test';
import { issueCode, logIn, skipServerAdvert, uniqueName } from './helpers';

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
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')!.value;
  const response = await page.request.post('/api/admin/user/ban', {
    headers: { 'x-xsrf-token': decodeURIComponent(token) },
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

test('a banned player is logged out on their next page', async ({ browser, page }) => {
  const player = uniqueName('Doomed');
  await logIn(page, player);
  const uuid = ((await (await page.request.get('/api/user')).json()) as { uuid: string }).uuid;

  const adminPage = await browser.newPage();
  await skipServerAdvert(adminPage.context(), test.info().project.use.baseURL!);
  await logIn(adminPage, uniqueName('Mod'), { admin: true });
  await ban(adminPage, uuid);
  await adminPage.close();

  await page.goto('/upload-cape');
  await expect(page).toHaveURL(/\/account\/login/);
  await expect(page.getByTestId('user-menu')).toBeHidden();
});

test('a player who opens the admin area is told it is not for them', async ({ page }) => {
  await logIn(page, uniqueName('Curious'));
  await page.goto('/admin');
  await expect(page.getByRole('alert')).toContainText('This action is unauthorized.');
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

  const banButton = record.getByRole('button', { name: 'Ban', exact: true });
  await record.getByLabel('Reason').selectOption({ label: 'Impersonates another player or staff' });
  await expect(banButton).toBeDisabled();
  await record.getByRole('checkbox').check();
  await banButton.click();
  await expect(page.getByTestId('admin-banner')).toHaveText(`${target} was banned.`);
  await expect(record.getByText('Banned', { exact: true })).toBeVisible();
});

test('the edit user page says an unknown player is not registered, then returns to the empty search', async ({ page }) => {
  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto('/admin/edit-user/Nobody_Here_42');
  await expect(page.getByRole('alert')).toHaveText("That user doesn't exist or isn't registered.");
  await page.waitForURL('**/admin/edit-user');
  await expect(page.getByLabel('Username')).toHaveValue('');
});
