// Premium: a visitor sees the features and a Login link; a player buys cape glint through the local PayPal stand-in,
// watches the success page's progress, comes back to /premium owning it, and switches it off and on, with the mod
// profile following.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { E2E_PAYPAL_EMAIL } from '../../playwright.config';
import { logIn, skipServerAdvert, uniqueName, waitForIslands, xsrf } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('a visitor sees each feature with its price and a Login link', async ({ page }) => {
  await page.goto('/premium');
  await expect(page.getByRole('heading', { name: 'Premium Features' })).toBeVisible();
  for (const [key, name] of [
    ['animated', 'Animated cape'],
    ['glint', 'Cape glint'],
    ['dinnerbone', 'Dinnerbone'],
  ]) {
    const card = page.getByTestId(`premium-${key}`);
    await expect(card.getByRole('heading', { name })).toBeVisible();
    await expect(card).toContainText('£4.99');
    await expect(card.getByRole('link', { name: 'Login to buy' })).toHaveAttribute(
      'href',
      '/account/login?ref=/premium',
    );
  }
  await expect(page.getByText('All purchases are final.')).toBeVisible();
});

test('a player buys cape glint through PayPal, sees the payment succeed, and switches it off and on', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = uniqueName('Buyer');
  await logIn(page, name);
  const cape = await sharp({
    create: {
      width: 64,
      height: 32,
      channels: 4,
      background: { r: 90, g: Math.floor(Math.random() * 256), b: 30, alpha: 1 },
    },
  })
    .png()
    .toBuffer();
  const upload = await page.request.post('/api/upload-cape', {
    headers: await xsrf(page),
    multipart: { file: { name: 'c.png', mimeType: 'image/png', buffer: cape } },
  });
  expect(upload.status()).toBe(200);
  const uuid = ((await (await page.request.get('/api/user')).json()) as { uuid: string }).uuid;
  const profile = async () =>
    ((await (await page.request.get(`/profile/${uuid}`)).json()) as { capeGlint: boolean }).capeGlint;
  expect(await profile()).toBe(false);

  await page.goto('/premium');
  await waitForIslands(page);
  await page.getByTestId('premium-glint').getByRole('button', { name: 'Buy Cape glint with PayPal' }).click();
  // PayPal's checkout (the stand-in): the order the form carried.
  await expect(page.getByRole('heading', { name: `Pay ${E2E_PAYPAL_EMAIL}` })).toBeVisible();
  await expect(page.getByText('Cloakroom Cape glint: 4.99 GBP')).toBeVisible();
  await page.getByRole('button', { name: 'Pay now' }).click();

  await expect(page).toHaveURL('/premium/success');
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /^([1-9]\d?|100)$/);
  // The progress reaches 100, the stored user is refreshed, and the page returns to /premium.
  await page.waitForURL((url) => url.pathname === '/premium', { timeout: 40_000 });
  const stored = await page.evaluate(
    () => JSON.parse(localStorage.getItem('user') ?? 'null') as { premium: { glint: boolean } | null },
  );
  expect(stored.premium?.glint).toBe(true);

  const glint = page.getByTestId('premium-glint').getByRole('switch', { name: 'Cape glint' });
  await expect(glint).toHaveAttribute('aria-checked', 'true');
  expect(await profile()).toBe(true);
  await glint.click();
  await expect(glint).toHaveAttribute('aria-checked', 'false');
  expect(await profile()).toBe(false);
  await glint.click();
  await expect(glint).toHaveAttribute('aria-checked', 'true');
  expect(await profile()).toBe(true);
  await expect(
    page.getByTestId('premium-dinnerbone').getByRole('button', { name: 'Buy Dinnerbone with PayPal' }),
  ).toBeEnabled();
});

test('a player buys Dinnerbone by card through the hosted checkout and is shown upside down', async ({ page }) => {
  test.setTimeout(90_000);
  await logIn(page, uniqueName('Card'));
  const uuid = ((await (await page.request.get('/api/user')).json()) as { uuid: string }).uuid;
  await page.goto('/premium');
  await waitForIslands(page);
  await page.getByTestId('premium-dinnerbone').getByRole('button', { name: 'Buy Dinnerbone by card' }).click();
  // The card processor's hosted checkout (the stand-in).
  await expect(page.getByRole('heading', { name: 'Pay by card' })).toBeVisible();
  await expect(page.getByText('Cloakroom Dinnerbone: 4.99 GBP')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/premium', { timeout: 40_000 });
  await expect(page.getByTestId('premium-dinnerbone').getByRole('switch', { name: 'Dinnerbone' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  expect(((await (await page.request.get(`/profile/${uuid}`)).json()) as { upsideDown: boolean }).upsideDown).toBe(
    true,
  );
});
