// A fresh install (the plain `npm run build` site, no payment provider, no ad client): nothing on it looks unfinished.
import { expect, test } from '@playwright/test';
import { E2E_FRESH_DATA_DIR, E2E_FRESH_PORT } from '../../playwright.config';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';

test.use({ baseURL: `http://127.0.0.1:${E2E_FRESH_PORT}` });
test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('pages show no ad slot when no ad client is set up', async ({ page }) => {
  for (const path of ['/', '/help', '/user']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    await expect(page.locator('[data-ad-slot]'), path).toHaveCount(0);
    await expect(page.getByText('Advertisement', { exact: true }), path).toHaveCount(0);
  }
  await logIn(page, uniqueName('NoAds'), { ref: '/upload-cape', dataDir: E2E_FRESH_DATA_DIR });
  await expect(page.getByRole('heading', { name: 'Upload your cape' })).toBeVisible();
  await expect(page.locator('[data-ad-slot]')).toHaveCount(0);
});

test('the premium page says purchases are not available yet and offers no Buy or Login to buy', async ({ page }) => {
  const unavailable = page.getByRole('status').filter({ hasText: 'Purchases are not available on this site yet.' });
  await page.goto('/premium');
  await expect(unavailable).toBeVisible();
  await expect(page.getByTestId('premium-glint')).toContainText('£4.99');
  await expect(page.getByRole('link', { name: 'Login to buy' })).toHaveCount(0);

  await logIn(page, uniqueName('NoPay'), { ref: '/premium', dataDir: E2E_FRESH_DATA_DIR });
  await expect(unavailable).toBeVisible();
  await expect(page.getByTestId('premium-glint')).toContainText('£4.99');
  await expect(page.getByRole('button', { name: /^Buy / })).toHaveCount(0);
});

test('a fresh site points players at no one else’s services: no auth server, advert, Discord, support address, game server or contributors', async ({
  page,
  context,
}) => {
  // A first visit, with no advert seen today.
  await context.clearCookies();
  const contributorsAnswered = page.waitForResponse('**/api/contributors');
  await page.goto('/');
  await expect(page.getByTestId('user-count')).toContainText(/\d+ players? uses? /);
  await expect(page.getByRole('dialog', { name: 'Play with us!' })).toHaveCount(0);
  await expect(page.getByText('Play on our server')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Join the community/ })).toHaveCount(0);
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Help' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Community Discord' })).toHaveCount(0);
  expect(await (await contributorsAnswered).json()).toEqual([]);
  await expect(footer.getByText('Contributors')).toBeHidden();

  for (const path of [
    '/',
    '/help',
    '/help/mods',
    '/premium',
    '/account/login',
    '/account/login/minecraft',
    '/legal/terms',
    '/legal/privacy',
    '/legal/rules',
    '/legal/disclaimer',
  ]) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    // The premium page is drawn in the browser: wait for its cards.
    if (path === '/premium') await expect(page.getByTestId('premium-glint')).toBeVisible();
    expect(await page.content(), path).not.toContain('cloakroom.gg');
    await expect(page.locator('a[href*="discord"]'), path).toHaveCount(0);
    await expect(page.locator('a[href^="mailto:"]'), path).toHaveCount(0);
  }

  const auth = await page.goto('/auth');
  expect(auth?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();

  await page.goto('/account/login/minecraft');
  await expect(page.getByText("Ask the site's staff for a login code.")).toBeVisible();
  await expect(page.getByTestId('auth-server-address')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'how to get a code' })).toHaveCount(0);

  await page.goto('/help');
  await expect(page.getByText(/Ask the site.s staff for a 6-digit login code\./)).toBeVisible();
  await expect(page.getByRole('link', { name: 'the auth page' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'How do I contact you or get more help?' })).toHaveCount(0);
});

test('the legal pages of a site without ads or a support address say nothing of either', async ({ page }) => {
  await page.goto('/legal/privacy');
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { name: 'Cookies' })).toBeVisible();
  await expect(article.getByRole('heading', { name: 'Advertising' })).toHaveCount(0);
  await expect(article).not.toContainText(/\bads\b|advertising partner/);
  await expect(article).not.toContainText('support');
  await expect(article).not.toContainText('Advert cookie');
  await page.goto('/legal/terms');
  await expect(page.getByRole('article').getByRole('heading', { name: 'Availability and warranty' })).toBeVisible();
  await expect(page.getByRole('article')).not.toContainText('advertising');
  await expect(page.getByRole('article').getByRole('heading', { name: 'Contact' })).toHaveCount(0);
});

test('a site without a community server offers no boosting: the premium page leaves it out and the boost page says why', async ({
  page,
}) => {
  await logIn(page, uniqueName('NoBoost'), { ref: '/premium', dataDir: E2E_FRESH_DATA_DIR });
  await expect(page.getByTestId('premium-glint')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Premium Boost' })).toHaveCount(0);
  await page.goto('/premium/boost');
  await expect(page.getByTestId('boost-unavailable')).toHaveText(
    'Boosting is not available on this site: it has no community server.',
  );
  await expect(page.getByTestId('boost-step-1')).toHaveCount(0);
});
