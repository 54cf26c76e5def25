// The gallery upload page: file and field checks, uploading, an existing picture, a notice, pasted titles and the 429
// message.
import { expect, test } from '@playwright/test';
import { galleryMessages } from '../../src/lib/gallery-rules';
import { noisePng } from '../../support/textures';
import { COMPRESS_URL, textureMessages, wrongCapeSizeMessage } from '../../src/lib/texture-rules';
import { todayOnPages } from '../helpers/e2e/dates';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';
import { chip, seedTexture, uniqueWord } from '../helpers/e2e/gallery';

// Each test logs in through the CLI (a few seconds) and some render the 3D preview in software WebGL: allow more than
// the default.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('the upload page checks the file and fields, then uploads and opens the new texture', async ({ page }) => {
  // A long walk through every state of the form, each with the 3D preview.
  test.setTimeout(120_000);
  await logIn(page, uniqueName('Uploader'), { ref: '/gallery/new' });
  const file = page.getByTestId('texture-file');
  const alert = page.getByRole('alert');
  const form = page.getByTestId('gallery-upload');
  const uploadButton = page.getByRole('button', { name: 'Upload', exact: true });
  await expect(file).toBeEnabled();
  // Upload waits for a valid file, and a refused file's message stays until another file is picked.
  await expect(uploadButton).toBeDisabled();

  await file.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(500_001) });
  await expect(alert).toContainText(galleryMessages.fileTooBig);
  await expect(alert.getByRole('link', { name: 'Compress it here' })).toHaveAttribute('href', COMPRESS_URL);
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(alert).toContainText(galleryMessages.fileType);
  await file.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not a png at all') });
  await expect(alert).toContainText(textureMessages.invalidImage);
  await file.setInputFiles({ name: 'square.png', mimeType: 'image/png', buffer: await noisePng(64, 64) });
  await expect(alert).toContainText(wrongCapeSizeMessage({ width: 64, height: 64 }));
  await expect(form).toHaveAttribute('data-state', 'waiting');
  await page.getByLabel('Title').fill('Filled in');
  await chip(page, 'Space').click();
  await expect(uploadButton).toBeDisabled();
  await expect(alert).toContainText(wrongCapeSizeMessage({ width: 64, height: 64 }));
  await page.getByLabel('Title').fill('');
  await chip(page, 'Space').click();

  // 14 x 7 is ears: accepted and worn on the head in the preview.
  await file.setInputFiles({ name: 'ears.png', mimeType: 'image/png', buffer: await noisePng(14, 7) });
  await expect(form).toHaveAttribute('data-state', 'confirming');
  await expect(page.getByText('Ears · 14 × 7 px')).toBeVisible();
  await expect(page.getByTestId('player-preview')).toHaveAttribute('data-ears', /ready|loading/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveAttribute('data-state', 'waiting');

  await file.setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: await noisePng(128, 64) });
  await expect(form).toHaveAttribute('data-state', 'confirming');
  await expect(page.getByTestId('player-preview')).toHaveAttribute('data-cape', 'ready');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(alert).toHaveText(`Error: ${galleryMessages.missingFields}`);

  const title = `${uniqueWord()} mine`;
  await page.getByLabel('Title').fill(`${title}!!`);
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await chip(page, 'Space').click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  await page.waitForURL(/\/gallery\/[0-9a-f]{64}$/);
  await expect(page.getByTestId('texture-title')).toHaveText(title);
  await expect(page.getByTestId('texture-tags')).toHaveText('Space');
  await expect(page.getByText(/^uploaded /)).toHaveText(`uploaded ${todayOnPages()}`);
  await expect(page.getByTestId('player-preview')).toHaveAttribute('data-cape', 'ready');
});

test('sending a picture that is already in the gallery opens that texture and says so there', async ({ page }) => {
  await logIn(page, uniqueName('Twice'), { ref: '/gallery/new' });
  const picture = await noisePng();
  const word = uniqueWord();
  const hash = await seedTexture(page, `${word} first`, ['minimal'], picture);
  await expect(page.getByTestId('texture-file')).toBeEnabled();
  await page.getByTestId('texture-file').setInputFiles({ name: 'again.png', mimeType: 'image/png', buffer: picture });
  await page.getByLabel('Title').fill(`${word} again`);
  await chip(page, 'Space').click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.waitForURL(`**/gallery/${hash}`);
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} first`);
  await expect(page.getByRole('status').filter({ hasText: 'Already in the gallery!' })).toBeVisible();
  // Said once: the texture's page opened again later does not repeat it.
  await page.reload();
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} first`);
  await expect(page.getByText('Already in the gallery!')).toHaveCount(0);
});

test('an upload answer with a notice (an animation scaled to fit) stays on the form with the notice and a link to the texture', async ({
  page,
}) => {
  const notice = 'The animation was scaled to 512 × 256 a frame to fit.';
  await logIn(page, uniqueName('NoticeShare'), { ref: '/gallery/new' });
  // The server's scaling is covered by the API tests; here the form shows what the answer says.
  await page.route('**/api/gallery/new', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), notice } });
  });
  await expect(page.getByTestId('texture-file')).toBeEnabled();
  await page
    .getByTestId('texture-file')
    .setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: await noisePng() });
  await page.getByLabel('Title').fill('Scaled to fit');
  await chip(page, 'Space').click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-notice')).toHaveText(notice);
  const link = page.getByRole('link', { name: 'Open the texture' });
  await expect(link).toHaveAttribute('href', /\/gallery\/[0-9a-f]{64}$/);
  await link.click();
  await page.waitForURL(/\/gallery\/[0-9a-f]{64}$/);
  await expect(page.getByTestId('texture-title')).toHaveText('Scaled to fit');
});

test('a pasted long title loses its disallowed characters before it is cut to 20, in the upload form and the search', async ({
  page,
}) => {
  await logIn(page, uniqueName('Paster'), { ref: '/gallery/new' });
  await waitForIslands(page);
  const pasted = 'Purple-Dusk!! with a very long name';
  const title = page.getByLabel('Title');
  await title.focus();
  await page.keyboard.insertText(pasted);
  await expect(title).toHaveValue('PurpleDusk with a ve');
  await expect(page.getByText('20/20')).toBeVisible();

  await page.goto('/gallery');
  await waitForIslands(page);
  const search = page.getByLabel('Search titles');
  await search.focus();
  await page.keyboard.insertText(pasted);
  await expect(search).toHaveValue('PurpleDusk with a ve');
});

test('a 429 from the upload shows the too-many-uploads message, then the form waits again', async ({ page }) => {
  await logIn(page, uniqueName('Hasty'), { ref: '/gallery/new' });
  await page.route('**/api/gallery/new', (route) =>
    route.fulfill({ status: 429, json: { error: galleryMessages.tooManyUploads } }),
  );
  await expect(page.getByTestId('texture-file')).toBeEnabled();
  await page
    .getByTestId('texture-file')
    .setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: await noisePng() });
  await page.getByLabel('Title').fill('Too fast');
  await chip(page, 'Minimal').click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const form = page.getByTestId('gallery-upload');
  await expect(form).toHaveAttribute('data-state', 'failed');
  await expect(page.getByRole('alert')).toHaveText(`Error: ${galleryMessages.tooManyUploads}`);
  // A generous wait for the 3 s reset (the timer itself is unit-tested): the form waits again and the message stays
  // readable.
  await expect(form).toHaveAttribute('data-state', 'waiting', { timeout: 20_000 });
  await expect(page.getByRole('alert')).toHaveText(`Error: ${galleryMessages.tooManyUploads}`);
});
