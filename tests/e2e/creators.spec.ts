// The six cape creators in the browser: each renders a preview and the 3D model, a control change shows the loading
// state and then a new preview, the download is a valid PNG, failures show their messages (or stop silently), and a
// creator's cape can be worn or shared to the gallery.
import { expect, test, type Page, type Route } from '@playwright/test';
import sharp from 'sharp';
import { creatorMessages } from '../../src/lib/creator-rules';
import { galleryMessages } from '../../src/lib/gallery-rules';
import { unsupportedBannerMessage } from '../../src/lib/banner-url';
import { animatedGif, solidPng } from '../../support/textures';
import { E2E_CUT_OFF_DATA_DIR, E2E_CUT_OFF_PORT } from '../../playwright.config';
import { OPTIFINE_PLAYER, SKIN_PLAYER } from '../helpers/e2e/game-players';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** Logs a new player in and opens a creator page (on the server whose data is in `dataDir`). */
async function openCreator(page: Page, path: string, dataDir?: string): Promise<void> {
  await logIn(page, uniqueName('Maker'), { dataDir });
  await page.goto(path);
  await waitForIslands(page);
}

/** Waits for a preview image that has loaded (320 × 180) and returns its address. */
async function loadedPreview(page: Page): Promise<string> {
  const preview = page.getByTestId('creator-preview');
  await expect(preview).toBeVisible();
  await expect(page.getByTestId('creator-result')).toHaveAttribute('data-state', 'ready');
  // Width and height in one reading: a settings change may swap the image between two readings.
  await expect
    .poll(() =>
      preview.evaluate((image: HTMLImageElement) =>
        image.complete ? `${image.naturalWidth} × ${image.naturalHeight}` : 'loading',
      ),
    )
    .toBe('320 × 180');
  return (await preview.getAttribute('src'))!;
}

/** Holds the next creator request matching `path` until the returned release is called. */
async function holdNextRequest(page: Page, path: RegExp): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: (route: Route) => void;
  const arrived = new Promise<Route>((resolve) => (held = resolve));
  await page.route(
    path,
    async (route) => {
      held(route);
      await released;
      await route.continue();
    },
    { times: 1 },
  );
  return async () => {
    await arrived;
    release();
  };
}

/** Downloads the creator's cape through the page's link and returns its width and height. */
async function downloadedSize(page: Page): Promise<{ width: number; height: number; format: string }> {
  const link = page.getByTestId('creator-download');
  await expect(link).toHaveAttribute('href', /^blob:/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await download.path();
  const metadata = await sharp(path).metadata();
  return { width: metadata.width!, height: metadata.height!, format: metadata.format! };
}

/** Whether the 3D model shows the 3D canvas (WebGL drew something). */
async function modelShown(page: Page): Promise<void> {
  await expect(page.getByTestId('player-preview')).toBeVisible();
}

test('cape creator: a picture becomes a cape; a new scale shows the loading state, then a new preview; the download is a PNG of that scale', async ({
  page,
}) => {
  await openCreator(page, '/gallery/cape-creator');
  await page
    .getByLabel('Picture', { exact: true })
    .setInputFiles({ name: 'picture.png', mimeType: 'image/png', buffer: await solidPng(90, 140, [30, 90, 200, 255]) });
  const first = await loadedPreview(page);
  await modelShown(page);

  const release = await holdNextRequest(page, /\/api\/gallery\/cape-creator$/);
  await page.getByLabel('Scale').selectOption('3');
  await expect(page.getByTestId('creator-loading')).toBeVisible();
  await expect(page.getByTestId('creator-result')).toHaveAttribute('data-state', 'loading');
  await release();
  await expect(page.getByTestId('creator-loading')).toBeHidden();
  expect(await loadedPreview(page)).not.toBe(first);
  expect(await downloadedSize(page)).toEqual({ width: 256, height: 128, format: 'png' });
});

test('cape creator: a file that is not a picture is refused on the page', async ({ page }) => {
  await openCreator(page, '/gallery/cape-creator');
  await page
    .getByLabel('Picture', { exact: true })
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toHaveText(creatorMessages.inputType);
});

test('animated creator: a GIF over a background becomes an animated cape whose download is the strip', async ({
  page,
}) => {
  await openCreator(page, '/gallery/animated-cape-creator');
  await page
    .getByLabel('Animation (GIF)')
    .setInputFiles({ name: 'anim.gif', mimeType: 'image/gif', buffer: await animatedGif(40, 64, 3) });
  await page
    .getByLabel('Background (PNG, optional)')
    .setInputFiles({ name: 'bg.png', mimeType: 'image/png', buffer: await solidPng(64, 32, [0, 128, 0, 255]) });
  await loadedPreview(page);
  // Scale 2 (128 × 64 a frame), three frames of 100 ms stacked.
  expect(await downloadedSize(page)).toEqual({ width: 128, height: 192, format: 'png' });
});

test("animated creator: the server's message shows when the GIF has too many frames", async ({ page }) => {
  await openCreator(page, '/gallery/animated-cape-creator');
  await page
    .getByLabel('Animation (GIF)')
    .setInputFiles({ name: 'long.gif', mimeType: 'image/gif', buffer: await animatedGif(8, 8, 65) });
  await expect(page.getByTestId('creator-result')).toHaveAttribute('data-state', 'invalid');
  await expect(page.getByRole('alert')).toContainText('Animated capes can have at most 64 frames');
});

test('AI creator: a prompt makes a cape with the built-in generator named; an empty prompt is refused', async ({
  page,
}) => {
  await openCreator(page, '/gallery/ai-cape-creator');
  await expect(page.getByTestId('ai-maker')).toContainText('Built-in pattern generator');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('alert')).toHaveText(creatorMessages.promptEmpty);
  await page.getByLabel('Prompt').fill('gold star on navy');
  await page.getByRole('button', { name: 'Create' }).click();
  await loadedPreview(page);
  await modelShown(page);
  expect(await downloadedSize(page)).toEqual({ width: 256, height: 128, format: 'png' });
});

test("banner creator: another site's link gets the not-implemented message; a Planet Minecraft link makes a cape; a new alignment loads a new preview", async ({
  page,
}) => {
  await openCreator(page, '/gallery/banner-capes');
  await page.getByLabel('Banner link').fill('https://example.com/banner?=abc');
  await expect(page.getByRole('alert')).toHaveText(unsupportedBannerMessage('https://example.com/banner?=abc'));
  await page.getByLabel('Banner link').fill('https://www.planetminecraft.com/banner/?b=2c729cmcf28');
  const first = await loadedPreview(page);
  const release = await holdNextRequest(page, /\/api\/gallery\/banner-capes\//);
  await page.getByLabel('Middle').check();
  await expect(page.getByTestId('creator-loading')).toBeVisible();
  await release();
  expect(await loadedPreview(page)).not.toBe(first);
});

test("head creator: a player's face on a cape; an unknown player stops the loading without a message", async ({
  page,
}) => {
  await openCreator(page, '/gallery/head-capes');
  await page.getByLabel('Username').fill(`${SKIN_PLAYER.name}!!`);
  await expect(page.getByLabel('Username')).toHaveValue(SKIN_PLAYER.name);
  await loadedPreview(page);
  expect(await downloadedSize(page)).toEqual({ width: 128, height: 64, format: 'png' });
  await page.getByLabel('Username').fill('NobodyHere');
  await expect(page.getByTestId('creator-result')).toHaveAttribute('data-state', 'invalid');
  await expect(page.getByTestId('creator-loading')).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test("OptiFine creator: designs and custom colours; a looked-up player's cape; an unknown one says it has no cape", async ({
  page,
}) => {
  await openCreator(page, '/gallery/optifine-capes');
  const standard = await loadedPreview(page);
  // Custom starts from the standard design's colours; a new top colour makes a new cape.
  await page.getByLabel('Design').selectOption('custom');
  await page.getByLabel('Top').fill('#00aa00');
  await expect(page.getByTestId('creator-preview')).not.toHaveAttribute('src', standard);
  await loadedPreview(page);
  await page.getByLabel('Design').selectOption('username');
  await page.getByLabel('Username').fill('NoCapeAtAll');
  await expect(page.getByRole('alert')).toHaveText(`Error: ${creatorMessages.optifineNoCape}`);
  await page.getByLabel('Username').fill(OPTIFINE_PLAYER.name);
  await loadedPreview(page);
  expect(await downloadedSize(page)).toEqual({ width: 64, height: 32, format: 'png' });
});

test.describe('when the outside services cannot be reached', () => {
  test.use({ baseURL: `http://127.0.0.1:${E2E_CUT_OFF_PORT}` });

  test('the head creator says the player service could not be reached', async ({ page }) => {
    await openCreator(page, '/gallery/head-capes', E2E_CUT_OFF_DATA_DIR);
    await page.getByLabel('Username').fill(SKIN_PLAYER.name);
    await expect(page.getByTestId('creator-result')).toHaveAttribute('data-state', 'invalid');
    await expect(page.getByRole('alert')).toHaveText(`Error: ${creatorMessages.playerServiceDown}`);
    await expect(page.getByTestId('creator-result'), 'the settings are not what failed').not.toContainText(
      'with these settings',
    );
    await expect(page.getByTestId('creator-result')).toContainText('No cape was made.');
  });

  test('the OptiFine lookup says the cape server could not be reached, not that the player has no cape; designs still work', async ({
    page,
  }) => {
    await openCreator(page, '/gallery/optifine-capes', E2E_CUT_OFF_DATA_DIR);
    await loadedPreview(page);
    await page.getByLabel('Design').selectOption('username');
    await page.getByLabel('Username').fill(OPTIFINE_PLAYER.name);
    await expect(page.getByRole('alert')).toHaveText(`Error: ${creatorMessages.optifineServiceDown}`);
  });
});

test('a cape from a creator can be worn (the mod API follows) and shared to the gallery', async ({ page, request }) => {
  const name = uniqueName('Wearer');
  await logIn(page, name);
  await page.goto('/gallery/optifine-capes');
  await waitForIslands(page);
  await page.getByLabel('Design').selectOption('purple');
  await loadedPreview(page);
  await page.getByRole('button', { name: 'Use as my cape' }).click();
  await expect(page.getByText('You are wearing this cape now.')).toBeVisible();
  const profile = (await (await request.get(`/profile/${name}`)).json()) as { cape_url: string | null };
  expect(profile.cape_url).toMatch(/\/textures\/[0-9a-f]{64}$/);

  await page.getByRole('button', { name: 'Share to the gallery' }).click();
  await page.getByLabel('Title').fill('Purple OF');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(galleryMessages.missingFields);
  await page.getByTestId('tag-chips').locator('label').first().click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.waitForURL(/\/gallery\/[0-9a-f]{64}$/);
  await expect(page.getByText('Purple OF')).toBeVisible();
});
