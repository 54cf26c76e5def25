// The site shell: titles, the 404 page, the home page, maintenance screen, API-offline modal, server advert, ads and
// the ad-blocker message.
import { expect, test } from '@playwright/test';
import { E2E_GAME_SERVER_HOST, E2E_MAINTENANCE_PORT } from '../../playwright.config';
import { STAND_IN_AD_TEXT } from '../helpers/ad-network';
import { skipServerAdvert } from '../helpers/e2e/session';

test('pages carry "<title> | Cloakroom" in the title and the social titles', async ({ page, context, baseURL }) => {
  await skipServerAdvert(context, baseURL!);
  await page.goto('/help');
  await expect(page).toHaveTitle('Help | Cloakroom');
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Help | Cloakroom');
  await expect(page.locator('meta[name="twitter:title"]')).toHaveAttribute('content', 'Help | Cloakroom');
  await page.goto('/legal/privacy');
  await expect(page).toHaveTitle('Privacy Policy | Cloakroom');
  await expect(page.getByText(/^Last updated /)).toHaveText(
    /^Last updated \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/,
  );
  await expect(
    page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Privacy Policy' }),
  ).toHaveAttribute('aria-current', 'page');
});

test('an unknown path shows the 404 page with status 404 and a way home', async ({ page, context, baseURL }) => {
  await skipServerAdvert(context, baseURL!);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  // "404" is shown once, as part of the heading.
  expect((await page.locator('main').innerText()).match(/404/g)).toHaveLength(1);
  await expect(page.getByText("Oops, looks like that page wasn't found!")).toBeVisible();
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the home page shows the player count from the API, in words that agree with it', async ({
  page,
  context,
  baseURL,
}) => {
  await skipServerAdvert(context, baseURL!);
  const count = page.getByTestId('user-count');
  for (const [users, text] of [
    [1, '1 player uses Cloakroom'],
    [0, '0 players use Cloakroom'],
    [1234, '1,234 players use Cloakroom'],
  ] as const) {
    await page.route('**/api/home', (route) => route.fulfill({ json: { users } }));
    await page.goto('/');
    await expect(count).toHaveText(text);
    await page.unroute('**/api/home');
  }
});

test('without a tutorial video the home page points at what else the site offers, not at an empty box', async ({
  page,
  context,
  baseURL,
}) => {
  await skipServerAdvert(context, baseURL!);
  await page.goto('/');
  const more = page.getByRole('navigation', { name: 'More than a cape' });
  for (const [name, href] of [
    ['Browse the gallery', '/gallery'],
    ['Make a cape', '/gallery/cape-creator'],
    ['Animated capes and more', '/premium'],
    ['Look up a player', '/user'],
    ['Need help?', '/help'],
  ]) {
    await expect(more.getByRole('link', { name })).toHaveAttribute('href', href);
  }
  await expect(page.locator('figure')).toHaveCount(0);
  await more.getByRole('link', { name: 'Need help?' }).click();
  await expect(page).toHaveURL(/\/help$/);
});

test('maintenance mode shows the maintenance screen and reloads every 10 s', async ({ page, context }) => {
  test.setTimeout(60_000);
  const base = `http://127.0.0.1:${E2E_MAINTENANCE_PORT}`;
  await skipServerAdvert(context, base);
  await page.goto(`${base}/`);
  await expect(page.getByRole('heading', { name: "We'll be back soon" })).toBeVisible();
  await expect(page.getByText('Capes, ears and elytras keep working')).toBeVisible();
  // A generous wait for the 10 s reload: the reload is what counts, not how punctually a busy machine runs it.
  await page.waitForEvent('framenavigated', { timeout: 40_000 });
  await expect(page.getByRole('heading', { name: "We'll be back soon" })).toBeVisible();
});

test('an API call that times out or answers 408 opens the API-offline modal', async ({ page, context, baseURL }) => {
  await skipServerAdvert(context, baseURL!);
  await page.route('**/api/home', (route) => route.fulfill({ status: 408, body: '{}' }));
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Connection problem' });
  await expect(modal).toContainText(
    "We're having trouble reaching Cloakroom. Check your internet connection and try again.",
  );
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toBeHidden();
});

test('the server advert waits while a player is on the login pages, and shows on the page after', async ({ page }) => {
  await page.goto('/account/login/minecraft');
  await expect(page.getByLabel('Code')).toBeVisible();
  await page.goto('/account/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Play with us!' })).toHaveCount(0);
  await page.goto('/help');
  await expect(page.getByRole('dialog', { name: 'Play with us!' })).toBeVisible();
});

test('the server advert shows on the home page once, then not again that day', async ({ page, context }) => {
  const openedAt = Math.floor(Date.now() / 1000);
  await page.goto('/');
  const advert = page.getByRole('dialog', { name: 'Play with us!' });
  await expect(advert).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name === 'server_advert');
  expect(cookie).toBeDefined();
  // One day from when the page set it, however long the page took (the expiry is in whole seconds).
  expect(cookie!.expires).toBeGreaterThanOrEqual(openedAt + 86_400 - 1);
  expect(cookie!.expires).toBeLessThanOrEqual(Date.now() / 1000 + 86_400);
  expect(cookie!.sameSite).toBe('Lax');
  await expect(advert).toContainText(E2E_GAME_SERVER_HOST);
  await advert.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(page.getByTestId('user-count')).toContainText('Cloakroom');
  await expect(advert).toBeHidden();
});

test('a visitor who lands on /help/mods can copy a setting at once; the advert waits for the next page they open', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/help/mods');
  const button = page.getByRole('button', { name: 'Copy CustomSkinLoader entry of type CustomSkinAPI', exact: true });
  await button.click();
  await expect(page.locator('[data-snippet]').filter({ has: button }).locator('[aria-live="polite"]')).toHaveText(
    /Copied/,
  );
  const advert = page.getByRole('dialog', { name: 'Play with us!' });
  await expect(advert).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: '← Help' }).click();
  await expect(page).toHaveURL(/\/help$/);
  await expect(advert).toBeVisible();
});

test("with an ad client set up, the slots show the network's ads; an ad blocker that hides them gets the ad message", async ({
  page,
  context,
  baseURL,
}) => {
  await skipServerAdvert(context, baseURL!);
  await page.goto('/');
  // The page's policy lets the ad network's script run, and the script fills the slot.
  const slot = page.locator('[data-ad-slot="bottom"]');
  await expect(slot.locator('ins.adsbygoogle')).toHaveText(STAND_IN_AD_TEXT);
  await expect(slot.getByText('made possible by showing ads')).toBeHidden();
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = '.adsbygoogle { display: none !important; }';
      document.head.append(style);
    });
  });
  await page.reload();
  await expect(page.getByText('Cloakroom is made possible by showing ads.')).toBeVisible();
  await expect(slot.locator('ins.adsbygoogle')).toBeHidden();
});
