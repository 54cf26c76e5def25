// What moderators need: reports that say why (seen in both queues), a "not allowed" page for players on every admin
// page, the player's pictures on the edit user page, and an audit log in words with the texture's picture.
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { logIn, skipServerAdvert, uniqueName, xsrf } from '../helpers/e2e/session';

test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** The admin pages, each as a player would type it. */
const ADMIN_PAGES = [
  '/admin',
  '/admin/registration/generate',
  '/admin/bans/user',
  '/admin/gallery/whitelist',
  '/admin/edit-user',
  '/admin/reports/user',
  '/admin/reports/gallery',
  '/admin/ai-cape-logs',
  '/admin/audit',
];

/** A solid PNG of a size and colour. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: rgb[0], g: rgb[1], b: rgb[2], alpha: 1 } } })
    .png()
    .toBuffer();
}

/** Posts with the page's session and XSRF cookie and expects success. */
async function post(
  page: Page,
  path: string,
  options: Parameters<Page['request']['post']>[1],
): Promise<Record<string, unknown>> {
  const response = await page.request.post(path, { ...options, headers: await xsrf(page) });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * A new player, logged in on a page of their own, wearing a cape (and ears when asked); returns the page, name and
 * uuid.
 */
async function dressedPlayer(browser: Browser, baseURL: string, colour: [number, number, number], ears = false) {
  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL);
  const page = await context.newPage();
  const username = uniqueName('Worn');
  await logIn(page, username);
  await post(page, '/api/upload-cape', {
    multipart: { file: { name: 'cape.png', mimeType: 'image/png', buffer: await solidPng(64, 32, colour) } },
  });
  if (ears)
    await post(page, '/api/upload-ears', {
      multipart: { file: { name: 'ears.png', mimeType: 'image/png', buffer: await solidPng(14, 7, colour) } },
    });
  const uuid = ((await (await page.request.get('/api/user')).json()) as { uuid: string }).uuid;
  return { page, username, uuid };
}

/** Whether an image on the page has loaded a picture. */
async function loaded(page: Page, name: string): Promise<boolean> {
  return page
    .getByRole('img', { name, exact: true })
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
}

test("players report with a reason and a note; a moderator sees both in the player and gallery queues, and Ban or Remove starts from the reporter's reason", async ({
  page,
  browser,
  baseURL,
}) => {
  const target = await dressedPlayer(browser, baseURL!, [200, 40, 40]);
  const title = uniqueName('rep').toLowerCase();
  const { hash } = (await post(target.page, '/api/gallery/new', {
    multipart: {
      title,
      tags: JSON.stringify(['minimal']),
      file: { name: 't.png', mimeType: 'image/png', buffer: await solidPng(64, 32, [30, 90, 200]) },
    },
  })) as { hash: string };
  await target.page.context().close();

  const reporterContext = await browser.newContext();
  await skipServerAdvert(reporterContext, baseURL!);
  const reporter = await reporterContext.newPage();
  await logIn(reporter, uniqueName('Reporter'));
  await reporter.goto(`/user/${target.uuid}/report`);
  await reporter.getByLabel('Reason').selectOption({ label: 'Impersonates another player or staff' });
  await reporter.getByLabel(/^Note/).fill('Wears the staff cape and says he is a moderator');
  await reporter.getByRole('checkbox').check();
  await reporter.getByRole('button', { name: `Report ${target.username}` }).click();
  await expect(reporter.getByTestId('report-sent')).toBeVisible();

  await reporter.goto(`/gallery/${hash}`);
  await reporter.getByRole('button', { name: /^Report/ }).click();
  const confirm = reporter.getByTestId('report-confirm');
  await confirm.getByLabel('Reason').selectOption({ label: 'Promotes drugs' });
  await confirm.getByLabel(/^Note/).fill('The leaf in the corner');
  await confirm.getByRole('checkbox').check();
  await confirm.getByRole('button', { name: 'Report', exact: true }).click();
  await expect(confirm).toBeHidden();
  await reporterContext.close();

  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto('/admin/reports/user');
  const playerReport = page.getByTestId('user-report').filter({ hasText: target.username });
  await expect(playerReport.getByTestId('report-grounds')).toContainText(
    'Reason: Impersonates another player or staff',
  );
  await expect(playerReport.getByTestId('report-grounds')).toContainText(
    'Wears the staff cape and says he is a moderator',
  );
  await playerReport.getByRole('button', { name: 'Ban' }).click();
  await expect(playerReport.getByLabel('Reason').locator('option:checked')).toHaveText(
    'Impersonates another player or staff',
  );
  await expect(playerReport.getByRole('button', { name: 'Confirm ban' })).toBeEnabled();
  await playerReport.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/admin/reports/gallery');
  const galleryReport = page.getByTestId('gallery-report').filter({ hasText: title });
  await expect(galleryReport.getByTestId('report-grounds')).toContainText('Reason: Promotes drugs');
  await expect(galleryReport.getByTestId('report-grounds')).toContainText('The leaf in the corner');
  await galleryReport.getByRole('button', { name: 'Remove' }).click();
  await expect(galleryReport.getByLabel('Reason').locator('option:checked')).toHaveText('Promotes drugs');
  await expect(galleryReport.getByRole('button', { name: 'Confirm remove' })).toBeEnabled();
});

test('a player who opens any admin page sees "Not allowed": no admin tabs, no figures, no error', async ({ page }) => {
  await logIn(page, uniqueName('Curious'));
  for (const path of ADMIN_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Not allowed' }), path).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin' }), path).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to the home page' }), path).toBeVisible();
  }
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toHaveCount(0);
  await expect(page.getByTestId('total-totalUsers')).toBeHidden();
  await expect(page.getByText('This action is unauthorized.')).toBeHidden();
});

test('a player whose stored session still says admin gets "Not allowed" once the API refuses', async ({ page }) => {
  await logIn(page, uniqueName('Demoted'));
  // The stored session says admin, and the refresh of the user cannot correct it: only the admin call's 403 can.
  await page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('user')!) as { group: { admin: boolean } };
    user.group.admin = true;
    localStorage.setItem('user', JSON.stringify(user));
  });
  await page.route('**/api/user', (route) => route.fulfill({ status: 500, json: { error: 'Server Error' } }));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
  await expect(page.getByTestId('total-totalUsers')).toBeHidden();
});

test("the edit user page shows the player's cape and ears", async ({ page, browser, baseURL }) => {
  const player = await dressedPlayer(browser, baseURL!, [240, 200, 20], true);
  await player.page.context().close();
  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto(`/admin/edit-user/${player.username}`);
  const pictures = page.getByTestId('admin-user-pictures');
  await expect(pictures.getByRole('img', { name: `${player.username}'s cape` })).toBeVisible();
  await expect(pictures.getByRole('img', { name: `${player.username}'s ears` })).toBeVisible();
  await expect.poll(() => loaded(page, `${player.username}'s cape`)).toBe(true);
  await expect.poll(() => loaded(page, `${player.username}'s ears`)).toBe(true);
});

test('the audit log says what was done in words: which flag changed, and which cape went, with its picture', async ({
  page,
  browser,
  baseURL,
}) => {
  const player = await dressedPlayer(browser, baseURL!, [20, 160, 120]);
  await player.page.context().close();
  await logIn(page, uniqueName('Mod'), { admin: true });
  await page.goto(`/admin/edit-user/${player.username}`);
  const record = page.getByTestId('admin-user-record');
  await record.getByRole('switch', { name: 'Cape glint' }).click();
  await expect(page.getByTestId('admin-banner')).toHaveText('Cape glint is now on.');
  await record.getByRole('button', { name: 'Delete cape' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete cape' }).click();
  await expect(page.getByTestId('admin-banner')).toContainText('The cape was removed');

  await page.goto(`/admin/audit?player=${player.username}`);
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Removed the cape');
  await expect(rows.nth(0)).toContainText('1 player lost it');
  const picture = rows.nth(0).getByRole('img', { name: /^The texture/ });
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(rows.nth(1)).toContainText('Changed the cape flags');
  await expect(rows.nth(1)).toContainText('Cape glint on');
  await expect(page.getByRole('table')).not.toContainText(/CAPE_FLAGS|CAPE_DELETE|capeGlint/);
});
