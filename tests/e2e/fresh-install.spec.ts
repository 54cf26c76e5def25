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
