// The boost page: the steps unlock as the chat-community bot (played by the test through its API) reports the link and
// the boost; the chosen cosmetic shows "Cosmetic updated" and reaches the mod profile; the boost ending takes it back.
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_BOT_KEY } from '../../playwright.config';
import { logIn, skipServerAdvert, uniqueName, waitForIslands, xsrf } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** Calls the bot API as the bot does. */
async function bot(page: Page, path: string, data: Record<string, unknown>): Promise<void> {
  const response = await page.request.post(path, { headers: { authorization: `Bearer ${E2E_BOT_KEY}` }, data });
  expect(response.status(), await response.text()).toBe(200);
}

test('the boost steps unlock as the bot reports the link and the boost, and the chosen cosmetic reaches the game', async ({
  page,
}) => {
  await logIn(page, uniqueName('Booster'), { ref: '/premium/boost' });
  const cape = await sharp({
    create: {
      width: 64,
      height: 32,
      channels: 4,
      background: { r: 20, g: Math.floor(Math.random() * 256), b: 220, alpha: 1 },
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
  const profile = async () => (await (await page.request.get(`/profile/${uuid}`)).json()) as { capeGlint: boolean };

  await waitForIslands(page);
  await expect(page.getByRole('heading', { name: 'Premium Boost' })).toBeVisible();
  const select = page.getByLabel('While you boost, you get one feature free.');
  await expect(select).toBeDisabled();
  await page.getByRole('button', { name: 'Get a link code' }).click();
  const code = (await page.getByTestId('boost-step-1').locator('code').textContent())!.replace('/link ', '');
  expect(code).toMatch(/^[A-Z2-9]{8}$/);

  const discordId = String(Date.now());
  await bot(page, '/api/bot/link', { code, discordId });
  await expect(page.getByTestId('boost-step-1')).toContainText('Your account is linked.');
  await expect(select).toBeDisabled();

  await bot(page, '/api/bot/boosting', { discordId, boosting: true });
  await expect(page.getByTestId('boost-step-2')).toContainText('Thank you for boosting!');
  await expect(select).toBeEnabled();
  await select.selectOption({ label: 'Cape glint' });
  await expect(page.getByText('Cosmetic updated')).toBeVisible();
  expect((await profile()).capeGlint).toBe(true);
  // The message goes after 3 s.
  await expect(page.getByText('Cosmetic updated')).toHaveCount(0);

  await bot(page, '/api/bot/boosting', { discordId, boosting: false });
  expect((await profile()).capeGlint).toBe(false);
  await page.reload();
  await expect(page.getByTestId('boost-step-1')).toContainText('Your account is linked.');
  await expect(select).toBeDisabled();
  await page.getByRole('button', { name: 'Unlink' }).click();
  await page.getByRole('button', { name: 'Confirm: unlink' }).click();
  await expect(page.getByRole('button', { name: 'Get a link code' })).toBeVisible();
});
