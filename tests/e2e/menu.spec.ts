// The top menu on phones: collapsed behind a menu button (keyboard, Escape, focus), its dropdowns open inside it, and
// no page is wider than the screen.
import { expect, test, type Page } from '@playwright/test';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** The phone widths every page must fit. */
const PHONE_WIDTHS = [390, 320];
/** The main pages a visitor can open, and those that need a login. */
const VISITOR_PAGES = [
  '/',
  '/help',
  '/legal/terms',
  '/account/login',
  '/account/login/minecraft',
  '/upload-cape/template',
  '/no/such/page',
];
const USER_PAGES = ['/upload-cape', '/upload-ears', '/gallery', '/gallery/new'];

/** How much wider than the screen the page is (0 when it fits). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth);
}

/** The menu button and the links it shows and hides. */
function menu(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  return {
    button: nav.getByRole('button', { name: 'Menu' }),
    help: nav.getByRole('link', { name: 'Help', exact: true }),
    gallery: nav.getByText('Official Gallery'),
    browse: nav.getByRole('link', { name: 'Browse Gallery' }),
  };
}

/** Opens the menu and the Official Gallery dropdown, then checks that the page still fits the screen. */
async function expectFitsWithMenuOpen(page: Page, path: string): Promise<void> {
  const { button, gallery, browse } = menu(page);
  expect(await overflow(page), `${path} closed`).toBe(0);
  await button.click();
  await gallery.click();
  await expect(browse).toBeVisible();
  expect(await overflow(page), `${path} with the gallery menu open`).toBe(0);
}

test('at 320 px the upload pages fit the screen while they load the saved texture too', async ({ page }) => {
  await logIn(page, uniqueName('Loading'));
  await page.setViewportSize({ width: 320, height: 800 });
  // The saved texture's request never answers, so the page stays in its loading state.
  await page.route('**/profile/**', () => undefined);
  for (const path of ['/upload-cape', '/upload-ears']) {
    await page.goto(path);
    await expect(page.locator('[aria-busy="true"]').first()).toBeVisible();
    expect(await overflow(page), `${path} loading`).toBe(0);
  }
});

for (const width of PHONE_WIDTHS) {
  test(`at ${width} px every main page fits the screen, with the menu and its gallery dropdown open too`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 800 });
    for (const path of VISITOR_PAGES) {
      await page.goto(path);
      await expectFitsWithMenuOpen(page, path);
    }
    // The login helper checks the user menu, which a phone shows only in the open menu: log in wide, then narrow again.
    await page.setViewportSize({ width: 1280, height: 800 });
    await logIn(page, uniqueName('Narrow'));
    await page.setViewportSize({ width, height: 800 });
    for (const path of USER_PAGES) {
      await page.goto(path);
      await waitForIslands(page);
      await expectFitsWithMenuOpen(page, path);
    }
  });
}

test('on a phone the menu button opens and closes the menu from the keyboard; Escape closes the dropdown, then the menu', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/help');
  const { button, help, gallery, browse } = menu(page);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  const panelId = await button.getAttribute('aria-controls');
  await expect(page.locator(`#${panelId}`)).toBeHidden();
  await expect(help).toBeHidden();

  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator(`#${panelId}`)).toBeVisible();
  await expect(help).toBeVisible();
  // The first Tab goes into the menu, right after its button.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload Cape' })).toBeFocused();

  await gallery.focus();
  await page.keyboard.press('Enter');
  await expect(browse).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(browse).toBeHidden();
  await expect(gallery).toBeFocused();
  await expect(help).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(help).toBeHidden();
  await expect(button).toBeFocused();

  await page.keyboard.press(' ');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('main').click({ position: { x: 5, y: 5 } });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});

test("on a phone a user's account dropdown opens inside the menu", async ({ page }) => {
  const name = uniqueName('Phone');
  await logIn(page, name, { ref: '/help' });
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByTestId('user-menu')).toBeHidden();
  await menu(page).button.click();
  await expect(page.getByTestId('user-menu')).toContainText(name);
  await page.getByTestId('user-menu').click();
  const profile = page.getByRole('link', { name: 'My Profile' });
  await expect(profile).toBeVisible();
  const box = (await profile.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await overflow(page)).toBe(0);
});

test('on a wide screen the menu is not collapsed: no menu button, the links show', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/help');
  const { button, help, gallery, browse } = menu(page);
  await expect(button).toBeHidden();
  await expect(help).toBeVisible();
  await gallery.click();
  await expect(browse).toBeVisible();
});
