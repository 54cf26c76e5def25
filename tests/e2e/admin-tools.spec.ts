// The rest of the admin area: a registration code that then logs the player in, the gallery whitelist with its confirm
// step, the AI cape log, the edit user cape switches, and edit user's confirmation before it deletes a cape.
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_DATA_DIR } from '../../playwright.config';
import { openDatabase } from '../../server/db/database';
import { issueCode, logIn, skipServerAdvert, uniqueName, waitForIslands, xsrf } from '../helpers/e2e/session';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** A second browser (another player) with the server advert already seen; close its context when done. */
async function otherBrowser(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL);
  return context.newPage();
}

/** A cape PNG of one colour, unlike any other test's (a moderator's removal refuses the same picture for everyone). */
function cape(red: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 64,
      height: 32,
      channels: 4,
      background: { r: red, g: Math.floor(Math.random() * 256), b: 160, alpha: 1 },
    },
  })
    .png()
    .toBuffer();
}

test('an admin generates a registration code and the player logs in with it', async ({ page, browser, baseURL }) => {
  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Registration codes' }).click();
  await expect(page).toHaveURL('/admin/registration/generate');
  await waitForIslands(page);
  const generate = page.getByRole('button', { name: 'Generate code' });
  await expect(generate).toBeDisabled();

  const newcomer = uniqueName('New');
  // Characters other than letters, digits and underscores are dropped as they are typed.
  await page.getByLabel('Username').fill(`${newcomer}!`);
  await expect(page.getByLabel('Username')).toHaveValue(newcomer);
  await generate.click();
  const result = page.getByTestId('registration-code');
  await expect(result).toContainText(`Login code for ${newcomer}`);
  const code = (await result.locator('p.font-mono').textContent())!;
  expect(code).toMatch(/^\d{6}$/);

  const player = await otherBrowser(browser, baseURL!);
  await player.goto('/account/login/minecraft');
  await waitForIslands(player);
  await player.getByLabel('Code').fill(code);
  await player.getByRole('button', { name: 'Confirm identity' }).click();
  await expect(player.getByTestId('user-menu')).toContainText(newcomer);
  await player.context().close();
});

test("a banned player's registration code is refused with the ban message", async ({ page }) => {
  await logIn(page, uniqueName('Mod'), { admin: true });
  const banned = uniqueName('Gone');
  issueCode(banned);
  const { uuid } = (await (await page.request.get(`/api/user/search/${banned}`)).json()) as { uuid: string };
  expect(
    (
      await page.request.post('/api/admin/user/ban', {
        headers: await xsrf(page),
        data: { uuid, confirm: true, reason: 'nsfw' },
      })
    ).status(),
  ).toBe(200);

  await page.goto('/admin/registration/generate');
  await waitForIslands(page);
  await page.getByLabel('Username').fill(banned);
  await page.getByRole('button', { name: 'Generate code' }).click();
  await expect(
    page.getByText('The specified account has been banned for violating our terms of service.'),
  ).toBeVisible();
  await expect(page.getByTestId('registration-code')).toHaveCount(0);
});

test('an admin takes a texture off the gallery whitelist after confirming', async ({ page, browser, baseURL }) => {
  const admin = uniqueName('Mod');
  await logIn(page, admin, { admin: true });
  const title = uniqueName('Safe').slice(0, 20);
  const created = await page.request.post('/api/gallery/new', {
    headers: await xsrf(page),
    multipart: { title, tags: '["cute"]', file: { name: 'cape.png', mimeType: 'image/png', buffer: await cape(20) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { hash } = (await created.json()) as { hash: string };
  // Whitelisted as a moderator does: from the gallery report queue.
  const reporter = await otherBrowser(browser, baseURL!);
  await logIn(reporter, uniqueName('Rep'));
  expect(
    (
      await reporter.request.post('/api/gallery/report', {
        headers: await xsrf(reporter),
        data: { hash, tac: true, reason: 'nsfw' },
      })
    ).status(),
  ).toBe(200);
  await reporter.context().close();
  const queue = (await (await page.request.get('/api/admin/reports/gallery')).json()) as {
    data: Array<{ id: number; hash: string }>;
  };
  const report = queue.data.find((row) => row.hash === hash)!;
  expect(
    (
      await page.request.post('/api/admin/reports/gallery', {
        headers: await xsrf(page),
        data: { id: report.id, action: 'WHITELIST' },
      })
    ).status(),
  ).toBe(200);

  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Gallery whitelist' }).click();
  const row = page.getByTestId('whitelist-row').filter({ hasText: title });
  await expect(row).toContainText(`by ${admin}`);
  await expect(row.getByRole('img', { name: `Preview of ${title}` })).toBeVisible();
  await row.getByRole('button', { name: 'Remove from whitelist' }).click();
  await row.getByRole('button', { name: 'Cancel' }).click();
  await row.getByRole('button', { name: 'Remove from whitelist' }).click();
  await row.getByRole('button', { name: 'Confirm: remove from the whitelist' }).click();
  await expect(page.getByTestId('whitelist-row').filter({ hasText: title })).toHaveCount(0);
  expect(
    ((await (await page.request.get(`/api/gallery/${hash}`)).json()) as { whitelisted: boolean }).whitelisted,
  ).toBe(false);
});

test('the AI cape log lists each request with the cape it made', async ({ page }) => {
  const asker = uniqueName('Ask');
  await logIn(page, asker, { admin: true });
  expect(
    (
      await page.request.post('/api/upload-cape', {
        headers: await xsrf(page),
        multipart: { file: { name: 'c.png', mimeType: 'image/png', buffer: await cape(200) } },
      })
    ).status(),
  ).toBe(200);
  const prompt = `${uniqueName('dragon')} in purple`;
  // No AI creator yet writes the log: the row goes straight into the server's database.
  const db = openDatabase(`sqlite:${path.join(E2E_DATA_DIR, 'cloakroom.db')}`);
  try {
    const user = await db
      .selectFrom('users')
      .select(['uuid', 'cape_hash'])
      .where('username', '=', asker)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('ai_cape_logs')
      .values({ created_at: Date.now(), user_uuid: user.uuid, prompt, texture_hash: user.cape_hash })
      .execute();
  } finally {
    await db.destroy();
  }

  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'AI cape logs' }).click();
  await expect(page).toHaveURL('/admin/ai-cape-logs');
  const log = page.getByTestId('ai-log').filter({ hasText: prompt });
  await expect(log).toContainText(asker);
  const image = log.getByRole('img');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(64);
});

test('edit user switches a cape flag and the mod API follows', async ({ page, browser, baseURL }) => {
  const target = uniqueName('Shiny');
  const player = await otherBrowser(browser, baseURL!);
  await logIn(player, target);
  const upload = await player.request.post('/api/upload-cape', {
    headers: await xsrf(player),
    multipart: { file: { name: 'c.png', mimeType: 'image/png', buffer: await cape(90) } },
  });
  expect(upload.status()).toBe(200);
  await player.context().close();
  const { uuid } = (await (await page.request.get(`/api/user/search/${target}`)).json()) as { uuid: string };
  await logIn(page, uniqueName('Mod'), { admin: true });

  await page.goto(`/admin/edit-user/${target}`);
  const glint = page.getByRole('switch', { name: 'Cape glint' });
  await expect(glint).toHaveAttribute('aria-checked', 'false');
  await glint.click();
  await expect(page.getByTestId('admin-banner')).toHaveText('Cape glint is now on.');
  await expect(glint).toHaveAttribute('aria-checked', 'true');
  expect(((await (await page.request.get(`/profile/${uuid}`)).json()) as { capeGlint: boolean }).capeGlint).toBe(true);
});

test('edit user asks before deleting a cape; once confirmed, the cape leaves the player and the mod API at once', async ({
  page,
  browser,
  baseURL,
}) => {
  const target = uniqueName('Caped');
  const player = await otherBrowser(browser, baseURL!);
  await logIn(player, target);
  const upload = await player.request.post('/api/upload-cape', {
    headers: await xsrf(player),
    multipart: { file: { name: 'c.png', mimeType: 'image/png', buffer: await cape(120) } },
  });
  expect(upload.status()).toBe(200);
  await player.context().close();
  const { uuid } = (await (await page.request.get(`/api/user/search/${target}`)).json()) as { uuid: string };
  // A player with nothing left to show is answered 404: the mod shows no cape.
  const capeUrl = async () => {
    const answer = await page.request.get(`/profile/${uuid}`);
    return answer.status() === 404 ? null : ((await answer.json()) as { cape_url: string | null }).cape_url;
  };
  await logIn(page, uniqueName('Mod'), { admin: true });

  await page.goto(`/admin/edit-user/${target}`);
  await expect(page.getByRole('button', { name: 'Delete ears' })).toBeDisabled();
  const deleteCape = page.getByRole('button', { name: 'Delete cape' });
  await deleteCape.click();
  const dialog = page.getByRole('dialog', { name: `Delete ${target}'s cape?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(/every player wearing it loses it/);
  await expect(dialog.getByRole('button', { name: 'Keep the cape' })).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('delete-cape-dialog.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await deleteCape.click();
  await dialog.getByRole('button', { name: 'Keep the cape' }).click();
  await expect(dialog).toBeHidden();
  expect(await capeUrl()).not.toBeNull();

  await deleteCape.click();
  await dialog.getByRole('button', { name: 'Delete cape' }).click();
  await expect(page.getByTestId('admin-banner')).toHaveText('The cape was removed from 1 player.');
  await expect(deleteCape).toBeDisabled();
  expect(await capeUrl()).toBeNull();
});
