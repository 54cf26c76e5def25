// The gallery: search, sort and infinite scroll, likes, upload (checks, 429, landing on the texture), edit, delete, report, player pages and the unknown-hash redirect.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { galleryMessages } from '../../src/lib/gallery-rules';
import { noisePng } from '../../support/textures';
import { gallerySentinel, watchGallerySentinel } from '../helpers/e2e/gallery-sentinel';
import { COMPRESS_URL, textureMessages } from '../../src/lib/texture-rules';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

// Each test logs in through the CLI (a few seconds) and some render the 3D preview in software WebGL: allow more than the default.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

/** A word for titles unique to one test (titles allow letters, digits, underscores and spaces, at most 20). */
function uniqueWord(): string {
  return uniqueName('t').toLowerCase();
}

/** Uploads a texture through POST /api/gallery/new with the page's session and XSRF cookie; returns its hash. */
async function seedTexture(page: Page, title: string, tags: string[] = ['minimal'], image?: Buffer): Promise<string> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  expect(token, 'the XSRF-TOKEN cookie').toBeTruthy();
  const response = await page.request.post('/api/gallery/new', {
    headers: { 'x-xsrf-token': token! },
    multipart: { title, tags: JSON.stringify(tags), file: { name: 'texture.png', mimeType: 'image/png', buffer: image ?? (await noisePng()) } },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { hash: string };
  return body.hash;
}

/** The card with a title. */
function card(page: Page, title: string): Locator {
  return page.getByTestId('gallery-card').filter({ has: page.getByTestId('card-title').getByText(title, { exact: true }) });
}

/** The tag chip with a name (in the sidebar, the upload form or the edit form). */
function chip(page: Page, name: string): Locator {
  return page
    .getByTestId('tag-chips')
    .locator('label')
    .filter({ has: page.getByRole('checkbox', { name, exact: true }) });
}

/** The titles of the listed cards, in order. */
function cardTitles(page: Page): Promise<string[]> {
  return page.getByTestId('card-title').allTextContents();
}

test('the title search (filtered, debounced), tags, type and sort change the listing and stay in the URL', async ({ page }) => {
  await logIn(page, uniqueName('Search'));
  const word = uniqueWord();
  await seedTexture(page, `${word} apple`, ['food']);
  await seedTexture(page, `${word} cherry`, ['space']);
  await seedTexture(page, `${word} banana`, ['food']);

  await page.goto('/gallery');
  const search = page.getByLabel('Search titles');
  await search.fill(`${word}!?`);
  await expect(search).toHaveValue(word);
  await expect(page.getByTestId('gallery-card')).toHaveCount(3);
  await expect(page.getByTestId('gallery-count')).toHaveText('3 textures');
  // A real texture's card shows its rendered 320 × 180 preview, not the placeholder.
  await expect
    .poll(() =>
      card(page, `${word} apple`)
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(320);
  await expect(card(page, `${word} apple`).getByTestId('card-preview-missing')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`[?&]title=${word}`));

  const sort = page.getByLabel('Sort by');
  await expect(sort.locator('option')).toHaveText([
    'Most liked',
    'Least liked',
    'Most downloaded',
    'Least downloaded',
    'Name A–Z',
    'Name Z–A',
    'Newest',
    'Oldest',
  ]);
  await sort.selectOption({ label: 'Name A–Z' });
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} banana`, `${word} cherry`]);
  await sort.selectOption({ label: 'Name Z–A' });
  await expect.poll(() => cardTitles(page)).toEqual([`${word} cherry`, `${word} banana`, `${word} apple`]);
  await sort.selectOption({ label: 'Oldest' });
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} cherry`, `${word} banana`]);

  await chip(page, 'Food').click();
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} banana`]);
  await expect(page).toHaveURL(/[?&]tags=food/);

  // A reload keeps every filter.
  await page.reload();
  await expect(page.getByLabel('Search titles')).toHaveValue(word);
  await expect(page.getByLabel('Sort by')).toHaveValue('uploaded_asc');
  await expect(chip(page, 'Food').getByRole('checkbox')).toBeChecked();
  await expect.poll(() => cardTitles(page)).toEqual([`${word} apple`, `${word} banana`]);

  // Ears only: nothing matches; Clear filters keeps the sort and drops the rest.
  await page.getByRole('checkbox', { name: 'Ears' }).check();
  await expect(page.getByTestId('gallery-empty')).toContainText('No textures match');
  await page.getByTestId('gallery-empty').getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('Search titles')).toHaveValue('');
  await expect(page.getByRole('checkbox', { name: 'Ears' })).not.toBeChecked();
  await expect(page).toHaveURL(/\/gallery\?sort=uploaded_asc$/);
  await expect(page.getByTestId('gallery-card').first()).toBeVisible();
});

test('infinite scroll loads the next page near the bottom, after a delete too, and stops at the total', async ({ page }) => {
  await logIn(page, uniqueName('Scroll'));
  const word = uniqueWord();
  for (let index = 0; index < 26; index++) await seedTexture(page, `${word} ${String(index).padStart(2, '0')}`);

  const pages: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/gallery/get')) pages.push(new URL(request.url()).searchParams.get('page') ?? '');
  });
  // A short window: the first page's bottom is well out of reach until the player scrolls.
  await page.setViewportSize({ width: 1280, height: 400 });
  await watchGallerySentinel(page);
  await page.goto(`/gallery?title=${word}&sort=name_asc`);
  await expect(page.getByTestId('gallery-card')).toHaveCount(24);
  await expect(page.getByTestId('gallery-count')).toHaveText('26 textures');
  // The next page is asked for only when the sentinel's observer finds it near the screen: once it has looked, it has decided.
  await expect.poll(async () => (await gallerySentinel(page)).checks.length).toBeGreaterThan(0);
  expect((await gallerySentinel(page)).checks).not.toContain(true);
  expect(pages).toEqual(['1']);

  // Deleting shifts the server's pages by one: the next request starts where the list really ends.
  await card(page, `${word} 00`)
    .getByRole('button', { name: `Delete ${word} 00` })
    .click();
  await card(page, `${word} 00`).getByTestId('delete-confirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('gallery-card')).toHaveCount(23);
  await expect(page.getByTestId('gallery-count')).toHaveText('25 textures');

  await page.keyboard.press('End');
  await expect(page.getByTestId('gallery-end')).toHaveText("That's all 25 textures.");
  const titles = await cardTitles(page);
  expect(titles).toEqual(Array.from({ length: 25 }, (_, index) => `${word} ${String(index + 1).padStart(2, '0')}`));
  await page.keyboard.press('End');
  // At the end nothing watches the sentinel any more, so scrolling there again asks for nothing.
  await expect.poll(() => page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight)).toBe(true);
  expect((await gallerySentinel(page)).watchers).toBe(0);
  expect(pages).toEqual(['1', '1', '2']);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test('a like toggles at once, survives a reload, and rolls back when the call fails', async ({ page }) => {
  await logIn(page, uniqueName('Liker'));
  const title = `${uniqueWord()} liked`;
  await seedTexture(page, title);
  await page.goto(`/gallery?title=${encodeURIComponent(title)}`);
  const like = card(page, title).getByTestId('like-button');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.getByTestId('like-count')).toHaveText('1');

  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.getByTestId('like-count')).toHaveText('1');

  // A failed call puts the like back and says why.
  await page.route('**/api/gallery/like', (route) => route.fulfill({ status: 500, json: { error: 'Something went wrong' } }));
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.getByTestId('like-count')).toHaveText('1');
  await expect(card(page, title).getByTestId('like-notice')).toContainText('Something went wrong');
  await page.unroute('**/api/gallery/like');

  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like.getByTestId('like-count')).toHaveText('0');
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like.getByTestId('like-count')).toHaveText('0');
});

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
  await expect(alert).toContainText(textureMessages.capeDimensions);
  await expect(form).toHaveAttribute('data-state', 'waiting');
  await page.getByLabel('Title').fill('Filled in');
  await chip(page, 'Space').click();
  await expect(uploadButton).toBeDisabled();
  await expect(alert).toContainText(textureMessages.capeDimensions);
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

test('an upload answer with a notice (an animation scaled to fit) stays on the form with the notice and a link to the texture', async ({ page }) => {
  const notice = 'The animation was scaled to 512 × 256 a frame to fit.';
  await logIn(page, uniqueName('NoticeShare'), { ref: '/gallery/new' });
  // The server's scaling is covered by the API tests; here the form shows what the answer says.
  await page.route('**/api/gallery/new', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), notice } });
  });
  await expect(page.getByTestId('texture-file')).toBeEnabled();
  await page.getByTestId('texture-file').setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: await noisePng() });
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

test('a pasted long title loses its disallowed characters before it is cut to 20, in the upload form and the search', async ({ page }) => {
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
  await page.route('**/api/gallery/new', (route) => route.fulfill({ status: 429, json: { error: galleryMessages.tooManyUploads } }));
  await expect(page.getByTestId('texture-file')).toBeEnabled();
  await page.getByTestId('texture-file').setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: await noisePng() });
  await page.getByLabel('Title').fill('Too fast');
  await chip(page, 'Minimal').click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const form = page.getByTestId('gallery-upload');
  await expect(form).toHaveAttribute('data-state', 'failed');
  await expect(page.getByRole('alert')).toHaveText(`Error: ${galleryMessages.tooManyUploads}`);
  // A generous wait for the 3 s reset (the timer itself is unit-tested): the form waits again and the message stays readable.
  await expect(form).toHaveAttribute('data-state', 'waiting', { timeout: 20_000 });
  await expect(page.getByRole('alert')).toHaveText(`Error: ${galleryMessages.tooManyUploads}`);
});

test('the author edits the title and tags; Save returns to waiting with the reloaded texture', async ({ page }) => {
  await logIn(page, uniqueName('Editor'));
  const word = uniqueWord();
  const hash = await seedTexture(page, `${word} before`, ['minimal']);
  await page.goto(`/gallery/${hash}`);
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} before`);

  await page.getByRole('button', { name: 'Edit' }).click();
  const title = page.getByLabel('Title');
  await title.fill('gone');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} before`);

  await page.getByRole('button', { name: 'Edit' }).click();
  await chip(page, 'Minimal').click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toHaveText(`Error: ${galleryMessages.missingFields}`);

  await title.fill(`${word} after<3`);
  await expect(title).toHaveValue(`${word} after3`);
  await chip(page, 'Dark').click();
  await chip(page, 'Space').click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('texture-page')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} after3`);
  await expect(page.getByTestId('texture-tags').getByRole('listitem')).toHaveText(['Dark', 'Space']);

  await page.reload();
  await expect(page.getByTestId('texture-title')).toHaveText(`${word} after3`);
  await expect(page.getByTestId('texture-tags').getByRole('listitem')).toHaveText(['Dark', 'Space']);
});

test('another player sees no Edit or Delete, and downloading counts', async ({ page, browser, baseURL }) => {
  await logIn(page, uniqueName('Owner'));
  const hash = await seedTexture(page, `${uniqueWord()} shared`);
  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL!);
  const other = await context.newPage();
  await logIn(other, uniqueName('Visitor'));
  await other.goto(`/gallery/${hash}`);
  await expect(other.getByTestId('texture-title')).toBeVisible();
  await expect(other.getByRole('button', { name: 'Report' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  const download = other.waitForEvent('download');
  await other.getByTestId('download-link').click();
  expect((await download).suggestedFilename()).toMatch(/shared\.png$/);
  await expect(other.getByTestId('download-count')).toHaveText('1');
  await other.reload();
  await expect(other.getByTestId('download-count')).toHaveText('1');
  await context.close();
});

test('an unknown texture hash goes back to the gallery', async ({ page }) => {
  await logIn(page, uniqueName('Lost'));
  await page.goto(`/gallery/${'0'.repeat(64)}`);
  await page.waitForURL((url) => url.pathname === '/gallery');
  await expect(page.getByRole('heading', { name: 'Official Gallery' })).toBeVisible();
});

test('delete asks first, then removes the card at once', async ({ page }) => {
  await logIn(page, uniqueName('Deleter'));
  const word = uniqueWord();
  await seedTexture(page, `${word} keep`);
  await seedTexture(page, `${word} drop`);
  await page.goto(`/gallery?title=${word}`);
  await expect(page.getByTestId('gallery-card')).toHaveCount(2);

  const doomed = card(page, `${word} drop`);
  await doomed.getByRole('button', { name: `Delete ${word} drop` }).click();
  await expect(doomed).toHaveAttribute('data-state', 'delete');
  await doomed.getByRole('button', { name: 'Cancel' }).click();
  await expect(doomed).toHaveAttribute('data-state', 'waiting');

  await doomed.getByRole('button', { name: `Delete ${word} drop` }).click();
  await doomed.getByTestId('delete-confirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('gallery-card')).toHaveCount(1);
  await expect(page.getByTestId('gallery-count')).toHaveText('1 texture');
  await page.reload();
  await expect(page.getByTestId('gallery-card')).toHaveCount(1);
  await expect(card(page, `${word} keep`)).toBeVisible();
});

test('report needs a reason and the terms box and removes the card; a texture marked safe cannot be reported', async ({ page, browser, baseURL }) => {
  await logIn(page, uniqueName('Author'));
  const word = uniqueWord();
  await seedTexture(page, `${word} rude`);
  await seedTexture(page, `${word} safe`);

  const context = await browser.newContext();
  await skipServerAdvert(context, baseURL!);
  const reporter = await context.newPage();
  await logIn(reporter, uniqueName('Reporter'));
  // Staff approval has no page yet: mark one texture safe in the listing's answer.
  await reporter.route('**/api/gallery/get**', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Array<{ title: string; whitelisted: boolean }> };
    for (const item of body.data) if (item.title === `${word} safe`) item.whitelisted = true;
    await route.fulfill({ response, json: body });
  });
  await reporter.goto(`/gallery?title=${word}`);
  await expect(reporter.getByTestId('gallery-card')).toHaveCount(2);

  const safe = card(reporter, `${word} safe`);
  await safe.getByRole('button', { name: `Report ${word} safe` }).click();
  await expect(safe).toHaveAttribute('data-state', 'report_whitelisted');
  await expect(safe.getByTestId('report-whitelisted')).toContainText('This texture was marked safe by staff');
  await safe.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(safe).toHaveAttribute('data-state', 'waiting');

  const rude = card(reporter, `${word} rude`);
  await rude.getByRole('button', { name: `Report ${word} rude` }).click();
  await expect(rude).toHaveAttribute('data-state', 'report');
  const send = rude.getByTestId('report-confirm').getByRole('button', { name: 'Report' });
  await expect(send).toBeDisabled();
  await rude.getByRole('checkbox').check();
  await expect(send).toBeDisabled();
  await rude.getByLabel('Reason').selectOption({ label: 'Promotes drugs' });
  await send.click();
  await expect(reporter.getByTestId('gallery-card')).toHaveCount(1);
  await expect(card(reporter, `${word} safe`)).toBeVisible();
  await context.close();
});

test("a player's page lists their textures; an unknown player gets a way back", async ({ page }) => {
  const name = uniqueName('Maker');
  await logIn(page, name);
  const word = uniqueWord();
  await seedTexture(page, `${word} one`);
  await seedTexture(page, `${word} two`);
  await page.goto(`/gallery?title=${word}`);
  await card(page, `${word} one`).getByTestId('card-author').click();
  await page.waitForURL(/\/gallery\/[0-9a-f]{32}$/);
  await expect(page.getByTestId('player-heading')).toHaveText(`${name}'s textures`);
  await expect.poll(() => cardTitles(page)).toEqual([`${word} two`, `${word} one`]);

  await page.goto(`/gallery/${'f'.repeat(32)}`);
  await expect(page.getByTestId('player-unknown')).toContainText("That user doesn't exist");
  await page.getByRole('link', { name: 'Back to the gallery' }).click();
  await page.waitForURL((url) => url.pathname === '/gallery');
});
