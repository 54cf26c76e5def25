// The reference galleries: visitors are sent to the login page; a player sees the MINECON, Java (then cross-edition)
// and Bedrock (then cross-edition) lists, and a Download gives a 64 x 32 PNG.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  capesOfPlatform,
  capeTexturePath,
  referenceCapeSchema,
  type CapePlatform,
} from '../../src/lib/reference-capes';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';

// Logging in goes through the CLI (a few seconds) before the pages are opened.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

const capes = (JSON.parse(fs.readFileSync('src/content/capes.json', 'utf8')) as unknown[]).map((entry) =>
  referenceCapeSchema.parse(entry),
);

/** The titles a platform's group lists, in order. */
function titlesOf(platform: CapePlatform): string[] {
  return capesOfPlatform(capes, platform).map((cape) => cape.title);
}

/** The listed rows' platforms and titles, in page order. */
async function listedRows(page: Page): Promise<{ platform: string | null; title: string }[]> {
  const rows = page.getByTestId('reference-cape');
  return rows.evaluateAll((elements) =>
    elements.map((row) => ({
      platform: row.getAttribute('data-platform'),
      title: row.querySelector('[data-testid="reference-cape-title"]')?.textContent?.trim() ?? '',
    })),
  );
}

/** Checks that a row shows both previews, loaded, and its key, and that its Download link points at its texture. */
async function expectCompleteRow(page: Page, platform: CapePlatform, key: string): Promise<void> {
  const row = page.locator(`[data-testid="reference-cape"][data-platform="${platform}"][data-key="${key}"]`);
  await row.scrollIntoViewIfNeeded();
  await expect(row.getByTestId('reference-cape-key')).toHaveText(key);
  for (const [testId, width] of [
    ['cape-preview', 80],
    ['elytra-preview', 120],
  ] as const) {
    const image = row.getByTestId(testId);
    await expect(image).toHaveAttribute('alt', /.+ (cape|elytra), seen from behind$/);
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), { message: `${key} ${testId}` })
      .toBe(width);
  }
  const download = row.getByRole('link', { name: /^Download/ });
  await expect(download).toHaveAttribute('href', `/images/capes/${platform}/${key}.png`);
  await expect(download).toHaveAttribute('download', `${key}.png`);
}

test('a visitor opening a reference gallery is sent to the login page with ref', async ({ page }) => {
  for (const route of ['minecon-capes', 'java-capes', 'bedrock-capes']) {
    await page.goto(`/gallery/${route}`);
    await expect(page).toHaveURL(new RegExp(`/account/login\\?ref=%2Fgallery%2F${route}$`));
    await expect(page.getByRole('heading', { name: 'Login or Register' })).toBeVisible();
  }
});

test('a player sees the MINECON, Java then cross-edition, and Bedrock then cross-edition lists', async ({ page }) => {
  await logIn(page, uniqueName('Capes'), { ref: '/gallery/minecon-capes' });
  await expect(page).toHaveTitle(/^MINECON Capes \| /);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('MINECON Capes');
  expect(await listedRows(page)).toEqual(titlesOf('minecon').map((title) => ({ platform: 'minecon', title })));
  expect(titlesOf('minecon')).toHaveLength(8);
  await expectCompleteRow(page, 'minecon', 'minecon-2011');

  // The galleries link to each other; the current one is marked.
  const galleries = page.getByRole('navigation', { name: 'Reference galleries' });
  await expect(galleries.getByRole('link', { name: 'MINECON Capes' })).toHaveAttribute('aria-current', 'page');
  await galleries.getByRole('link', { name: 'Java Capes' }).click();
  await expect(page).toHaveURL(/\/gallery\/java-capes$/);
  const javaTitles = titlesOf('java');
  expect(javaTitles.length).toBeGreaterThanOrEqual(25);
  expect(await listedRows(page)).toEqual([
    ...javaTitles.map((title) => ({ platform: 'java', title })),
    ...titlesOf('cross').map((title) => ({ platform: 'cross', title })),
  ]);
  expect(titlesOf('cross')).toHaveLength(14);
  // The list changes under a heading of its own.
  await expect(page.getByRole('heading', { level: 2 })).toHaveText([
    /^\s*Java Edition capes/,
    /^\s*Cross-edition capes/,
  ]);
  await expect(page.getByRole('region', { name: /Cross-edition capes/ }).getByTestId('reference-cape')).toHaveCount(14);
  await expectCompleteRow(page, 'java', 'migrator');
  await expectCompleteRow(page, 'cross', 'copper');

  await page
    .getByRole('navigation', { name: 'Reference galleries' })
    .getByRole('link', { name: 'Bedrock Capes' })
    .click();
  await expect(page).toHaveURL(/\/gallery\/bedrock-capes$/);
  expect(await listedRows(page)).toEqual([
    ...titlesOf('bedrock').map((title) => ({ platform: 'bedrock', title })),
    ...titlesOf('cross').map((title) => ({ platform: 'cross', title })),
  ]);
  expect(titlesOf('bedrock')).toHaveLength(2);
  await expect(page.getByRole('heading', { level: 2 })).toHaveText([
    /^\s*Bedrock Edition capes/,
    /^\s*Cross-edition capes/,
  ]);
  await expectCompleteRow(page, 'bedrock', 'progress-pride');
});

test('Download, from the keyboard, saves the 64 x 32 PNG the link serves', async ({ page }) => {
  await logIn(page, uniqueName('Download'), { ref: '/gallery/java-capes' });
  const cape = capesOfPlatform(capes, 'java')[0]!;
  const link = page
    .locator(`[data-testid="reference-cape"][data-key="${cape.key}"]`)
    .getByRole('link', { name: `Download the ${cape.title} cape texture` });
  await link.focus();
  await expect(link).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe(`${cape.key}.png`);
  const saved = await sharp(await download.path()).metadata();
  expect([saved.format, saved.width, saved.height]).toEqual(['png', 64, 32]);

  // Every platform's files are served as PNGs, the cross-edition ones from their own folder.
  for (const platform of ['minecon', 'java', 'bedrock', 'cross'] as const) {
    const first = capesOfPlatform(capes, platform)[0]!;
    const response = await page.request.get(capeTexturePath(first));
    expect(response.status(), capeTexturePath(first)).toBe(200);
    expect(response.headers()['content-type']).toBe('image/png');
    const served = await sharp(await response.body()).metadata();
    expect([served.format, served.width, served.height], capeTexturePath(first)).toEqual(['png', 64, 32]);
  }
});
