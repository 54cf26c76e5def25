// The Microsoft login in the browser, against the local stand-in for Microsoft, Xbox Live, XSTS and the game services:
// a new player signs in and lands on ref; a refusal or a cancelled sign-in shows its message, drops what Microsoft sent
// from the address and keeps where the player was going.
import { expect, test, type Page } from '@playwright/test';
import { LOGIN_ERRORS, MICROSOFT_LOGIN_FAILURES } from '../../src/lib/login-errors';
import { STAND_IN_ACCOUNT_KINDS, type StandInAccountKind } from '../helpers/microsoft';
import { skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** Clicks Login with Microsoft on the login page (with `ref`) and waits for the stand-in's sign-in page. */
async function openMicrosoftSignIn(page: Page, ref?: string): Promise<void> {
  await page.goto(`/account/login${ref ? `?ref=${encodeURIComponent(ref)}` : ''}`);
  await waitForIslands(page);
  await page.getByRole('link', { name: 'Login with Microsoft' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

/** Signs in on the stand-in's page as an account of one kind. */
async function signInAs(page: Page, player: string, kind: StandInAccountKind): Promise<void> {
  await page.getByLabel('Email').fill(`${player.toLowerCase()}@outlook.example`);
  await page.getByLabel('Player name').fill(player);
  await page.getByLabel('Account').selectOption({ label: STAND_IN_ACCOUNT_KINDS[kind] });
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a new player logs in with Microsoft: a loading state, then the stored user on the ref page', async ({ page }) => {
  const player = uniqueName('Ms');
  // Hold the exchange until the loading state has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/account/oauth/callback', async (route) => {
    await held;
    await route.continue();
  });

  await openMicrosoftSignIn(page, '/help');
  await signInAs(page, player, 'player');
  await expect(page.getByRole('status')).toContainText('Logging you in');
  await expect(page.getByRole('link', { name: 'Login with Microsoft' })).toBeHidden();
  release();

  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByTestId('user-menu')).toContainText(player);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(stored).toMatchObject({ username: player, group: { admin: false } });
  expect(stored).not.toHaveProperty('profile');
  const me = await page.evaluate(async () => (await fetch('/api/user')).json());
  expect(me).toMatchObject({ uuid: stored.uuid, username: player });
});

test('an account without an Xbox profile sees why in the red box; the address loses code and state and keeps ref', async ({
  page,
}) => {
  await openMicrosoftSignIn(page, '/upload-cape');
  await signInAs(page, uniqueName('NoXbox'), 'noXbox');
  await expect(page.getByRole('alert')).toHaveText(`Error: ${MICROSOFT_LOGIN_FAILURES.noXboxAccount}`);
  const url = new URL(page.url());
  expect(url.pathname).toBe('/account/login');
  expect(url.searchParams.has('code')).toBe(false);
  expect(url.searchParams.has('state')).toBe(false);
  expect(url.search, 'where the player was going comes back, for another try').toBe('?ref=%2Fupload-cape');
  // The choices are back (still going to ref), and nobody is logged in.
  await expect(page.getByRole('link', { name: 'Login with Microsoft' })).toHaveAttribute(
    'href',
    '/api/account/oauth/redirect?ref=%2Fupload-cape',
  );
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});

test('a cancelled Microsoft sign-in says so, and the address loses what Microsoft sent but keeps ref', async ({
  page,
}) => {
  await openMicrosoftSignIn(page, '/gallery/new');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toHaveText(`Error: ${LOGIN_ERRORS.access_denied}`);
  await expect(page.getByRole('note')).toContainText('steal images from our gallery');
  const url = new URL(page.url());
  expect(url.pathname).toBe('/account/login');
  expect([...url.searchParams.keys()]).toEqual(['ref']);
  expect(url.searchParams.get('ref')).toBe('/gallery/new');
});
