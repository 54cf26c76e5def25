// Upload Cape and Upload Ears: the file rule messages, the 3D preview, upload and its reset to waiting, Cancel, Remove,
// and the template pages.
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { COMPRESS_URL, textureMessages, wrongCapeSizeMessage, wrongSizeMessage } from '../../src/lib/texture-rules';
import { solidPng, type Rgba } from '../../support/textures';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

const MAGENTA: Rgba = [255, 0, 255, 255];
const RED: Rgba = [230, 0, 0, 255];
const BLUE: Rgba = [0, 0, 255, 255];

/** Whether a rendered pixel is (a lit or shaded version of) a test colour; the default skin has none of these hues. */
const looksLike: Record<'magenta' | 'red' | 'blue', (r: number, g: number, b: number) => boolean> = {
  magenta: (r, g, b) => r > 120 && b > 120 && g < 60 && Math.abs(r - b) < 50,
  red: (r, g, b) => r > 120 && g < 50 && b < 50,
  blue: (r, g, b) => b > 120 && r < 40 && g < 40,
};

/**
 * How long a test waits for a page to reset to waiting on its own: a generous wait, not a bound on the reset timers
 * (the cape tests check those in page time).
 */
const RESET_WAIT_MS = 20_000;

/** A cape needs at least this many of its pixels in the preview to count as shown. */
const SHOWN = 800;

/** Screenshots the 3D preview canvas and counts the pixels that look like a colour. */
async function previewPixels(page: Page, colour: keyof typeof looksLike): Promise<number> {
  const png = await page.getByTestId('player-preview').screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let offset = 0; offset < data.length; offset += info.channels) {
    if (looksLike[colour](data[offset]!, data[offset + 1]!, data[offset + 2]!)) count++;
  }
  return count;
}

/**
 * Picks a file through the page's file input, once the page can take it (the picker is disabled until the island
 * hydrates).
 */
async function pick(page: Page, name: string, buffer: Buffer, mimeType = 'image/png'): Promise<void> {
  const input = page.getByTestId('texture-file');
  await expect(input).toBeEnabled();
  await input.setInputFiles({ name, mimeType, buffer });
}

/** Waits until the preview has drawn the skin and the cape (or ears) it should show. */
async function previewSettled(page: Page, texture: 'cape' | 'ears', state: 'ready' | 'none' = 'ready'): Promise<void> {
  const canvas = page.getByTestId('player-preview');
  await expect(canvas).toHaveAttribute(`data-${texture}`, state);
  await expect(canvas).toHaveAttribute('data-skin', /^(ready|default)$/);
}

/** Uploads a file already picked and waits for success. */
async function uploadPicked(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-success')).toBeVisible();
}

/**
 * Stops the page's clock (installed before the page loaded): its timers fire only as the test moves time on, so the
 * page's reset timers are checked in page time, whatever the machine's load. It pauses a little ahead of the page's own
 * time, which keeps running while this call travels to the page.
 */
async function stopPageTime(page: Page): Promise<void> {
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(pageNow + 5_000);
}

/** The logged-in player's uuid. */
async function ownUuid(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('user')!).uuid as string);
}

test('a visitor opening Upload Cape is sent to the login page', async ({ page }) => {
  await page.goto('/upload-cape');
  await expect(page).toHaveURL(/\/account\/login\?ref=%2Fupload-cape$/);
});

test('the cape page shows its help, policy, video, ad slots and template link', async ({ page }) => {
  await logIn(page, uniqueName('CapeHelp'), { ref: '/upload-cape' });
  await expect(page).toHaveTitle('Upload Cape | Cloakroom');
  await expect(page.getByRole('link', { name: /Download the Cloakroom mod/ })).toHaveAttribute('href', '/download');
  await expect(page.getByRole('link', { name: 'community Discord', exact: true })).toHaveAttribute('href', /discord/);
  await expect(page.locator('[data-ad-slot="left"]')).toHaveCount(1);
  await expect(page.locator('[data-ad-slot="right"]')).toHaveCount(1);
  await expect(page.locator('[data-ad-slot="bottom"]')).toHaveCount(1);
  await expect(page.getByTestId('texture-file')).toHaveAttribute('accept', '.png,.gif');
  await page.getByRole('button', { name: 'Acceptable Textures Policy' }).click();
  await expect(page.getByRole('dialog', { name: 'Acceptable Textures Policy' })).toBeVisible();
  await page.getByRole('button', { name: 'I understand' }).click();
  await expect(page.getByText('You have no cape yet.')).toBeVisible();
});

test('a cape over 500 KB shows the "too big" message with a compress link and stays waiting', async ({ page }) => {
  await logIn(page, uniqueName('CapeBig'), { ref: '/upload-cape' });
  await pick(page, 'huge.png', Buffer.alloc(500_001, 7));
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(textureMessages.capeTooBig);
  await expect(alert.getByRole('link', { name: 'Compress it here' })).toHaveAttribute('href', COMPRESS_URL);
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
});

test('a cape of the wrong type, a broken image and wrong dimensions each show their message', async ({ page }) => {
  await logIn(page, uniqueName('CapeDims'), { ref: '/upload-cape' });
  const alert = page.getByRole('alert');
  await pick(page, 'cape.jpg', Buffer.from('not really a jpeg'), 'image/jpeg');
  await expect(alert).toContainText(textureMessages.capeType);
  await pick(page, 'broken.png', Buffer.from('this is not a png at all'));
  await expect(alert).toContainText(textureMessages.invalidImage);
  await pick(page, 'square.png', await solidPng(64, 64, MAGENTA));
  await expect(alert).toContainText(wrongCapeSizeMessage({ width: 64, height: 64 }));
  await pick(page, 'huge.png', await solidPng(4096, 2048, MAGENTA));
  await expect(alert).toContainText(textureMessages.capeTooLarge);
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting');
});

test('a cape that passes the checks is shown on the 3D model, as a cape and as an elytra', async ({ page }) => {
  await logIn(page, uniqueName('CapeLook'), { ref: '/upload-cape' });
  await previewSettled(page, 'cape', 'none');
  expect(await previewPixels(page, 'magenta')).toBe(0);

  await pick(page, 'magenta.png', await solidPng(64, 32, MAGENTA));
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'confirming');
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await expect(page.getByText('64 × 32 px')).toBeVisible();
  await previewSettled(page, 'cape');
  expect(await previewPixels(page, 'magenta')).toBeGreaterThan(SHOWN);

  await page.getByRole('switch', { name: 'Elytra' }).check({ force: true });
  await expect(page.getByTestId('player-preview')).toHaveAttribute('data-equipment', 'elytra');
  expect(await previewPixels(page, 'magenta')).toBeGreaterThan(SHOWN);
});

test('a file picked while another is held is ignored', async ({ page }) => {
  await logIn(page, uniqueName('CapeHeld'), { ref: '/upload-cape' });
  await pick(page, 'magenta.png', await solidPng(64, 32, MAGENTA));
  await previewSettled(page, 'cape');
  // A listener on the document hears the change after the island's own handler (events bubble up to it last), so once
  // it has, the island has seen the second pick and either taken it or let it go.
  await page.evaluate(() =>
    document.addEventListener('change', () => document.body.setAttribute('data-picks-heard', 'yes'), { once: true }),
  );
  await pick(page, 'blue.png', await solidPng(64, 32, BLUE));
  await expect(page.locator('body')).toHaveAttribute('data-picks-heard', 'yes');
  // Two frames later anything the handler started (a check of the new file) has been drawn.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expect(page.getByText('magenta.png')).toBeVisible();
  await expect(page.getByText('blue.png')).toHaveCount(0);
  expect(await previewPixels(page, 'blue')).toBeLessThan(50);
});

test('an uploaded cape shows Done, returns to waiting 3 s later and is served by the mod API', async ({ page }) => {
  await page.clock.install();
  await logIn(page, uniqueName('CapeUp'), { ref: '/upload-cape' });
  await pick(page, 'magenta.png', await solidPng(64, 32, MAGENTA));
  await previewSettled(page, 'cape');
  await stopPageTime(page);
  await uploadPicked(page);
  const panel = page.getByTestId('upload-panel');
  await expect(page.getByTestId('upload-success')).toContainText('Done! Your cape is uploaded.');
  await page.clock.runFor(2_500);
  await expect(panel).toHaveAttribute('data-state', 'uploaded');
  await expect(page.getByTestId('upload-success')).toBeVisible();
  await page.clock.runFor(1_000);
  await expect(panel).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('upload-success')).toHaveCount(0);
  await page.clock.resume();
  await expect(page.getByText('Your current cape')).toBeVisible();
  await previewSettled(page, 'cape');
  expect(await previewPixels(page, 'magenta')).toBeGreaterThan(SHOWN);

  const profile = await (await page.request.get(`/profile/${await ownUuid(page)}`)).json();
  expect(profile.cape_url).toBeTruthy();
  const stored = await sharp(Buffer.from(await (await page.request.get(profile.cape_url)).body()))
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect([stored.info.width, stored.info.height]).toEqual([64, 32]);
  expect([...stored.data.subarray(0, 3)]).toEqual([255, 0, 255]);
});

test('the notice of an upload answer (an animation scaled to fit) shows with Done and stays readable after the reset', async ({
  page,
}) => {
  const notice = 'The animation was scaled to 512 × 256 a frame to fit.';
  await logIn(page, uniqueName('NoticeUp'), { ref: '/upload-cape' });
  // The server's scaling is covered by the API tests; here the page shows what the answer says.
  await page.route('**/api/upload-cape', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), notice } });
  });
  await pick(page, 'magenta.png', await solidPng(64, 32, MAGENTA));
  await previewSettled(page, 'cape');
  await uploadPicked(page);
  await expect(page.getByTestId('upload-notice')).toHaveText(notice);
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting', { timeout: RESET_WAIT_MS });
  await expect(page.getByTestId('upload-notice')).toHaveText(notice);
});

test('after an upload the preview turns to the back, where the new cape is, even when the player was turned to the front', async ({
  page,
}) => {
  await logIn(page, uniqueName('CapeTurn'), { ref: '/upload-cape' });
  const canvas = page.getByTestId('player-preview');
  await previewSettled(page, 'cape', 'none');
  await expect(canvas).toHaveAttribute('data-facing', 'back');
  await page.getByRole('button', { name: 'Turn around' }).click();
  await expect(canvas).toHaveAttribute('data-facing', 'front');

  await pick(page, 'magenta.png', await solidPng(64, 32, MAGENTA));
  await previewSettled(page, 'cape');
  await expect(canvas).toHaveAttribute('data-facing', 'front');
  await uploadPicked(page);
  await expect(canvas).toHaveAttribute('data-facing', 'back');
  expect(await previewPixels(page, 'magenta')).toBeGreaterThan(SHOWN);
  // It stays there once the page is back to waiting with the saved cape.
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting', { timeout: RESET_WAIT_MS });
  await expect(canvas).toHaveAttribute('data-facing', 'back');
});

test('Cancel returns to waiting and restores the saved cape in the preview', async ({ page }) => {
  await logIn(page, uniqueName('CapeCancel'), { ref: '/upload-cape' });
  await pick(page, 'red.png', await solidPng(64, 32, RED));
  await uploadPicked(page);
  // Reload: the saved cape now comes from the mod API.
  await page.reload();
  await previewSettled(page, 'cape');
  expect(await previewPixels(page, 'red')).toBeGreaterThan(SHOWN);

  await pick(page, 'blue.png', await solidPng(64, 32, BLUE));
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'confirming');
  await previewSettled(page, 'cape');
  expect(await previewPixels(page, 'blue')).toBeGreaterThan(SHOWN);
  expect(await previewPixels(page, 'red')).toBeLessThan(50);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting');
  await previewSettled(page, 'cape');
  expect(await previewPixels(page, 'red')).toBeGreaterThan(SHOWN);
  expect(await previewPixels(page, 'blue')).toBeLessThan(50);
});

test('Remove asks first, then clears the preview and deletes the cape', async ({ page }) => {
  await logIn(page, uniqueName('CapeRemove'), { ref: '/upload-cape' });
  await pick(page, 'red.png', await solidPng(64, 32, RED));
  await uploadPicked(page);
  await page.reload();
  await previewSettled(page, 'cape');

  await page.getByRole('button', { name: 'Remove my cape' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove your cape?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  expect(await previewPixels(page, 'red')).toBeGreaterThan(SHOWN);

  await page.getByRole('button', { name: 'Remove my cape' }).click();
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await previewSettled(page, 'cape', 'none');
  expect(await previewPixels(page, 'red')).toBeLessThan(50);
  await expect(page.getByText('You have no cape yet.')).toBeVisible();
  // With nothing left to show, the mod API answers 404: the mod shows no cape.
  await expect.poll(async () => (await page.request.get(`/profile/${await ownUuid(page)}`)).status()).toBe(404);
});

test('a request error shows the error body and the cape page waits 10 s before resetting', async ({ page }) => {
  await page.clock.install();
  await logIn(page, uniqueName('CapeError'), { ref: '/upload-cape' });
  await page.route('**/api/upload-cape', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, json: { error: 'The texture store is not answering' } })
      : route.fallback(),
  );
  await pick(page, 'magenta.png', await solidPng(64, 32, MAGENTA));
  const panel = page.getByTestId('upload-panel');
  await expect(panel).toHaveAttribute('data-state', 'confirming');
  await stopPageTime(page);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The texture store is not answering');
  await expect(panel).toHaveAttribute('data-state', 'failed');
  // Well past the 3 s of the other outcomes, the request error is still shown.
  await page.clock.runFor(9_500);
  await expect(panel).toHaveAttribute('data-state', 'failed');
  await page.clock.runFor(1_000);
  await expect(panel).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByRole('alert')).toContainText('The texture store is not answering');
});

test("the ears page's help speaks of ears, not capes, and no empty video box stands beside it", async ({ page }) => {
  await logIn(page, uniqueName('EarsHelp'), { ref: '/upload-ears' });
  // The e2e site is built without a tutorial video: the page shows the steps and no placeholder for the video.
  await expect(page.getByRole('region', { name: 'How it works' })).toBeVisible();
  await expect(page.locator('figure')).toHaveCount(0);
  await expect(page.getByText(/set up your cape/)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'How it works' })).toContainText(
    'Everyone running the mod sees your ears in game.',
  );
});

test('ears: 14 × 10 is refused, 14 × 7 is shown on the head, uploaded and reset on its own', async ({ page }) => {
  await logIn(page, uniqueName('Ears'), { ref: '/upload-ears' });
  await expect(page).toHaveTitle('Upload Ears | Cloakroom');
  await expect(page.getByRole('link', { name: 'ears template' }).first()).toHaveAttribute(
    'href',
    '/upload-ears/template',
  );
  await expect(page.getByTestId('texture-file')).toHaveAttribute('accept', '.png');
  await previewSettled(page, 'ears', 'none');

  await pick(page, 'tall.png', await solidPng(14, 10, MAGENTA));
  await expect(page.getByRole('alert')).toContainText(wrongSizeMessage('ears', { width: 14, height: 10 }));
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting');

  await pick(page, 'ears.png', await solidPng(14, 7, MAGENTA));
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'confirming');
  await previewSettled(page, 'ears');
  expect(await previewPixels(page, 'magenta')).toBeGreaterThan(SHOWN / 2);
  await uploadPicked(page);
  await expect(page.getByText('Your ears are uploaded.')).toBeVisible();
  await expect(page.getByTestId('upload-panel')).toHaveAttribute('data-state', 'waiting', { timeout: RESET_WAIT_MS });
  await expect(page.getByText('Your ears are uploaded.')).toHaveCount(0);
  await expect(page.getByText('Your current ears')).toBeVisible();
  const profile = await (await page.request.get(`/profile/${await ownUuid(page)}`)).json();
  expect(profile.ear_url).toBeTruthy();
});

test('ears: a file the server refuses shows its message (success false) and resets on its own', async ({ page }) => {
  await logIn(page, uniqueName('EarsGif'), { ref: '/upload-ears' });
  // GIF bytes under a PNG name and type pass the browser's checks; the server reads the header and refuses.
  const gif = await sharp({ create: { width: 14, height: 7, channels: 4, background: '#ff00ff' } })
    .gif()
    .toBuffer();
  await pick(page, 'sneaky.png', gif, 'image/png');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(textureMessages.earsType);
  const panel = page.getByTestId('upload-panel');
  await expect(panel).toHaveAttribute('data-state', 'failed');
  await expect(panel).toHaveAttribute('data-state', 'waiting', { timeout: RESET_WAIT_MS });
  await expect(page.getByRole('alert')).toContainText(textureMessages.earsType);
});

test('the template pages show the templates and offer both sizes for download', async ({ page }) => {
  for (const [path, small, hd] of [
    ['/upload-cape/template', [64, 32], [1024, 512]],
    ['/upload-ears/template', [14, 7], [560, 280]],
  ] as const) {
    await page.goto(path);
    const downloads = page.locator('a[download]');
    await expect(downloads).toHaveCount(2);
    for (const [index, size] of [small, hd].entries()) {
      const href = (await downloads.nth(index).getAttribute('href'))!;
      const meta = await sharp(Buffer.from(await (await page.request.get(href)).body())).metadata();
      expect([meta.width, meta.height]).toEqual(size);
    }
  }
});
