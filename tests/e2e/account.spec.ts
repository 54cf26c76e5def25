// The visitor redirect, the game-code login, the menu for visitors, users and admins, log out and account deletion.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { LOGIN_ERRORS, loginErrorPath } from '../../src/lib/login-errors';
import { issueCode, logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('a visitor opening an auth page is sent to the login page with ref', async ({ page }) => {
  await page.goto('/account/delete');
  await expect(page).toHaveURL(/\/account\/login\?ref=%2Faccount%2Fdelete$/);
  await expect(page.getByRole('heading', { name: 'Login or Register' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login with Microsoft' })).toHaveAttribute(
    'href',
    '/api/account/oauth/redirect?ref=%2Faccount%2Fdelete',
  );
  await expect(page.getByRole('link', { name: 'Login using Minecraft' })).toHaveAttribute(
    'href',
    '/account/login/minecraft?ref=%2Faccount%2Fdelete',
  );
});

test('Microsoft login, not configured, comes back to the login page with the message in its error box and the ref kept', async ({
  page,
}) => {
  // The e2e server has Microsoft login configured (tests/e2e/microsoft-login.spec.ts): answer as a server without
  // MICROSOFT_CLIENT_ID does (its redirect is covered by tests/api/http/general.test.ts).
  await page.route('**/api/account/oauth/redirect?*', (route) =>
    route.fulfill({ status: 302, headers: { location: loginErrorPath('microsoft_unavailable', '/upload-cape') } }),
  );
  await page.goto('/account/login?ref=%2Fupload-cape');
  await waitForIslands(page);
  await page.getByRole('link', { name: 'Login with Microsoft' }).click();
  await expect(page).toHaveURL(/\/account\/login\?ref=%2Fupload-cape$/);
  await expect(page.getByRole('alert')).toHaveText(`Error: ${LOGIN_ERRORS.microsoft_unavailable}`);
  // The site's own page: its header, menu and footer are there.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login using Minecraft' })).toHaveAttribute(
    'href',
    '/account/login/minecraft?ref=%2Fupload-cape',
  );
});

test('the login page shows no message for an unknown error reason', async ({ page }) => {
  await page.goto('/account/login?error=%3Cb%3Ehacked%3C%2Fb%3E');
  await waitForIslands(page);
  await expect(page).toHaveURL(/\/account\/login$/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('hacked')).toHaveCount(0);
});

test('the login page warns about image-stealing mods when ref is a gallery page', async ({ page }) => {
  await page.goto('/account/login?ref=%2Fgallery%2Fnew');
  await expect(page.getByRole('note')).toContainText('steal images from our gallery');
  await page.goto('/account/login');
  await expect(page.getByText('steal images from our gallery')).toHaveCount(0);
});

test('the code login takes digits only, rejects a wrong code and logs in with the right one', async ({ page }) => {
  const name = uniqueName('Code');
  const code = issueCode(name);
  await page.goto('/account/login/minecraft?ref=%2Fhelp');
  await waitForIslands(page);
  await expect(page.getByTestId('auth-server-address')).toBeVisible();
  const box = page.getByLabel('Code');
  await box.fill('12ab3x4');
  await expect(box).toHaveValue('1234');
  await box.fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is incorrect. Please try again.');
  await box.fill(code);
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await expect(page).toHaveURL(/\/help$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(stored).toMatchObject({ username: name, group: { admin: false } });
  expect(stored).not.toHaveProperty('profile');
  await expect(page.getByTestId('user-menu')).toContainText(name);
});

test('a used code does not log in twice', async ({ page, baseURL }) => {
  const name = uniqueName('Twice');
  const code = issueCode(name);
  await page.goto('/account/login/minecraft');
  await waitForIslands(page);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await skipServerAdvert(page.context(), baseURL!);
  await page.goto('/account/login/minecraft');
  await waitForIslands(page);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is incorrect. Please try again.');
});

test('visitors see Login and Register; users see avatar, name and their dropdown', async ({ page }) => {
  // The profile-image service answers with a tiny PNG (this machine has no internet).
  const avatar = await sharp({ create: { width: 24, height: 24, channels: 4, background: '#3a7' } })
    .png()
    .toBuffer();
  await page.route('https://crafatar.com/avatars/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: avatar }),
  );
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  await expect(page.getByTestId('user-menu')).toBeHidden();
  // Logged out, the profile link is the player lookup.
  await expect(page.getByRole('link', { name: 'Player lookup' })).toHaveAttribute('href', '/user');
  await expect(
    page.getByRole('link', { name: 'Official Gallery' }).or(page.getByText('Official Gallery')),
  ).toBeVisible();

  const name = uniqueName('Menu');
  await logIn(page, name);
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user')!));
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeHidden();
  await expect(page.getByTestId('user-menu').locator('img')).toHaveAttribute('src', new RegExp(`${user.uuid}.*24`));
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('link', { name: 'My Profile' })).toHaveAttribute('href', `/user/${user.uuid}`);
  await expect(page.getByRole('link', { name: 'Player lookup' })).toBeHidden();
  await expect(page.getByRole('link', { name: /^Admin/ })).toBeHidden();
  // A new player's first login is a welcome; the next one is a welcome back.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: `Welcome, ${name}!` })).toBeVisible();
  await page.getByTestId('user-menu').click();
  // The page reloads after the logout: wait for that load, or the reload cuts the next login's navigation short.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Log out' }).click();
  await reloaded;
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  await logIn(page, name);
  await expect(page.getByRole('heading', { name: `Welcome back, ${name}!` })).toBeVisible();
});

test('the menu shows the site icon when the profile-image service is unreachable', async ({ page }) => {
  await page.route('https://crafatar.com/avatars/**', (route) => route.abort('internetdisconnected'));
  await logIn(page, uniqueName('NoAvatar'));
  await expect(page.getByTestId('user-menu').locator('img')).toHaveAttribute('src', '/favicon.svg');
});

test('admins see the Admin entry with their group emoji', async ({ page }) => {
  await logIn(page, uniqueName('Admin'), { admin: true });
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('link', { name: /^Admin/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Admin/ })).toContainText('🛡️');
});

test('log out ends the session, removes the local user and reloads', async ({ page }) => {
  await logIn(page, uniqueName('Out'));
  await page.getByTestId('user-menu').click();
  // The page reloads after the logout: wait for that load, so nothing below runs in the page that is going away.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Log out' }).click();
  await reloaded;
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  const status = await page.evaluate(async () => (await fetch('/api/user')).status);
  expect(status).toBe(401);
});

test('deleting the account needs the box ticked, then removes the account', async ({ page }) => {
  await logIn(page, uniqueName('Gone'), { ref: '/account/delete' });
  await expect(page).toHaveURL(/\/account\/delete$/);
  const button = page.getByRole('button', { name: 'Delete my account' });
  await expect(button).toBeDisabled();
  await page.getByRole('checkbox').check();
  await button.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your account has been deleted.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  // Said once.
  await page.reload();
  await expect(page.getByText('Your account has been deleted.')).toHaveCount(0);
});
