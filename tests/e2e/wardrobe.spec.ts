// The wardrobe page: a player's capes come in as they upload them, named by their files, one is worn or taken off in
// one click (the mod API follows), renamed in place, removed after a confirmation, keyboard focus stays with the item,
// and an empty wardrobe says where capes come from; at 1280 and 390 px, with axe-core on each state.
import { expect, test, type Page } from '@playwright/test';
import { frameColour, solidPng } from '../../support/textures';
import { axeViolations, describeViolations } from '../helpers/e2e/axe';
import { logIn, skipServerAdvert, uniqueName, xsrf } from '../helpers/e2e/session';

// Each test logs in through the CLI (a few seconds) and the page renders the 3D preview in software WebGL.
test.describe.configure({ timeout: 60_000 });
test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));
// axe-core is injected as a script of the test's own, which the site's Content Security Policy would refuse.
test.use({ bypassCSP: true });

let colour = 900;

/** Uploads a cape as the logged-in player (from a file of that name); returns its hash. */
async function uploadCape(page: Page, fileName = 'cape.png'): Promise<string> {
  const answer = await page.request.post('/api/upload-cape', {
    headers: await xsrf(page),
    multipart: {
      file: { name: fileName, mimeType: 'image/png', buffer: await solidPng(64, 32, frameColour(colour++)) },
    },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { cape: string }).cape.split('/').pop()!;
}

/** The hash of the cape the mod API shows for the logged-in player, or null. */
async function shownCape(page: Page): Promise<string | null> {
  const uuid = await page.evaluate(() => JSON.parse(localStorage.getItem('user')!).uuid as string);
  const answer = await page.request.get(`/profile/${uuid}`);
  if (answer.status() !== 200) return null;
  return ((await answer.json()) as { cape_url: string | null }).cape_url?.split('/').pop() ?? null;
}

/** The card of the item whose picture is `hash`. */
function cardOf(page: Page, hash: string) {
  return page.getByTestId('wardrobe-item').filter({ has: page.locator(`img[src$="/textures/${hash}"]`) });
}

async function expectAccessible(page: Page): Promise<void> {
  expect(describeViolations(await axeViolations(page))).toBe('');
}

test('a full wardrobe says which item made room for a new one; one that fails to load says why and loads on Try again', async ({
  page,
}) => {
  await logIn(page, uniqueName('Full'));
  const cape = await uploadCape(page);
  // The first answer fails; the next is the real wardrobe, with what a full wardrobe let go (the server side of
  // letting go is an API test).
  let failed = false;
  await page.route('**/api/wardrobe', async (route) => {
    if (!failed) {
      failed = true;
      return route.fulfill({ status: 500, json: { error: 'The wardrobe could not be read: try again.' } });
    }
    const answer = await route.fetch();
    const dropped = {
      kind: 'cape',
      title: 'Old Faithful',
      added_at: Date.UTC(2026, 0, 2, 12),
      dropped_at: Date.UTC(2026, 10, 20, 12),
    };
    return route.fulfill({ response: answer, json: { ...(await answer.json()), dropped } });
  });
  await page.goto('/wardrobe');
  await expect(page.getByRole('alert')).toHaveText('Error: The wardrobe could not be read: try again.');
  await expect(page.getByTestId('wardrobe-item')).toHaveCount(0);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(cardOf(page, cape)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your wardrobe was full' })).toHaveText(
    'Your wardrobe was full, so Old Faithful made room for a new item on 20 Nov 2026.',
  );
  await expectAccessible(page);
});

for (const width of [1280, 390]) {
  test(`at ${width} px: wear, take off and remove in one click each, the mod API following`, async ({ page }) => {
    await logIn(page, uniqueName('Closet'));
    await page.setViewportSize({ width, height: 900 });
    const first = await uploadCape(page);
    const second = await uploadCape(page);
    await page.goto('/wardrobe');
    await expect(page.getByRole('heading', { name: 'My Wardrobe', level: 1 })).toBeVisible();
    await expect(page.getByTestId('wardrobe-item')).toHaveCount(2);
    await expect(cardOf(page, second).getByTestId('worn-badge')).toHaveText('Wearing now');
    await expect(cardOf(page, first).getByTestId('worn-badge')).toHaveCount(0);
    await expect(page.getByText('2 of 30 items.')).toBeVisible();
    await expect(page.getByTestId('wardrobe-preview').locator('canvas')).toBeVisible();
    await expectAccessible(page);

    await cardOf(page, first).getByRole('button', { name: /^Wear/ }).click();
    await expect(page.getByTestId('wardrobe-notice')).toHaveText(
      "You're wearing this cape now: players with the mod see it.",
    );
    await expect(cardOf(page, first).getByTestId('worn-badge')).toBeVisible();
    await expect(cardOf(page, second).getByTestId('worn-badge')).toHaveCount(0);
    expect(await shownCape(page)).toBe(first);
    await page.screenshot({ path: `test-results/wardrobe-items-${width}.png`, fullPage: true });

    await cardOf(page, first)
      .getByRole('button', { name: /^Take off/ })
      .click();
    await expect(page.getByTestId('wardrobe-notice')).toHaveText('You took this cape off. It stays in your wardrobe.');
    await expect(page.getByTestId('worn-badge')).toHaveCount(0);
    expect(await shownCape(page)).toBeNull();

    // Removing asks first; keeping it changes nothing.
    await cardOf(page, second).getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: /from your wardrobe\?$/ });
    await expect(dialog).toContainText(
      'You do not wear it, so nothing changes in game. To have it back, you would upload it again.',
    );
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(page.getByTestId('wardrobe-item')).toHaveCount(2);
    await cardOf(page, second).getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('wardrobe-notice')).toHaveText('Removed this cape from your wardrobe.');
    await expect(page.getByTestId('wardrobe-item')).toHaveCount(1);

    await cardOf(page, first).getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('wardrobe-empty')).toContainText('Your wardrobe is empty');
    await expect(page.getByRole('link', { name: 'Upload a cape' }).first()).toHaveAttribute('href', '/upload-cape');
    await page.screenshot({ path: `test-results/wardrobe-empty-${width}.png`, fullPage: true });
    await expectAccessible(page);
  });
}

test('the user menu and the upload pages lead to the wardrobe; the keyboard reaches every action', async ({ page }) => {
  await logIn(page, uniqueName('Menu'));
  await uploadCape(page);
  await page.goto('/upload-ears');
  await page.getByRole('link', { name: 'My Wardrobe' }).click();
  await expect(page).toHaveURL(/\/wardrobe$/);
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('link', { name: 'My Wardrobe' }).first()).toHaveAttribute('href', '/wardrobe');
  await page.keyboard.press('Escape');
  const card = page.getByTestId('wardrobe-item');
  await expect(card).toHaveCount(1);
  await card.getByRole('button', { name: /^Take off/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('wardrobe-notice')).toHaveText('You took this cape off. It stays in your wardrobe.');
  await page.screenshot({ path: 'test-results/wardrobe-1280.png', fullPage: true });
});

for (const width of [1280, 390]) {
  test(`at ${width} px: items go by their files' names and are renamed in place; focus stays with the item; what a change did shows in view`, async ({
    page,
  }) => {
    await logIn(page, uniqueName('Names'));
    await page.setViewportSize({ width, height: 844 });
    const red = await uploadCape(page, 'red_cape.png');
    const blue = await uploadCape(page, 'blue cape.png');
    await page.goto('/wardrobe');
    await expect(cardOf(page, red).getByTestId('wardrobe-item-name')).toHaveText('red cape');
    await expect(cardOf(page, blue).getByTestId('wardrobe-item-name')).toHaveText('blue cape');
    await expect(page.getByTestId('preview-caption')).toHaveText('Showing blue cape (you wear it)');

    // Wear and take off from the keyboard: focus stays on the item's button, and the message is on screen.
    await cardOf(page, red).getByRole('button', { name: 'Wear red cape' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('wardrobe-notice')).toHaveText(
      "You're wearing this cape now: players with the mod see it.",
    );
    await expect(page.getByTestId('wardrobe-notice')).toBeInViewport();
    await expect(cardOf(page, red).getByRole('button', { name: 'Take off red cape' })).toBeFocused();
    await page.screenshot({ path: `test-results/wardrobe-worn-${width}.png` });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('wardrobe-notice')).toHaveText('You took this cape off. It stays in your wardrobe.');
    await expect(cardOf(page, red).getByRole('button', { name: 'Wear red cape' })).toBeFocused();
    // Nothing is worn now, and the preview does not pretend otherwise.
    await expect(page.getByTestId('preview-caption')).toHaveText(
      'You wear nothing from your wardrobe. Choose an item to see it here.',
    );
    expect(await shownCape(page)).toBeNull();

    // Rename: Escape leaves it as it was; a name too long is refused in place; Save names it.
    await cardOf(page, red).getByRole('button', { name: 'Rename red cape' }).click();
    const name = cardOf(page, red).getByRole('textbox', { name: 'Name' });
    await expect(name).toBeFocused();
    await expect(name).toHaveValue('red cape');
    await name.fill('Anything');
    await page.keyboard.press('Escape');
    await expect(cardOf(page, red).getByRole('button', { name: 'Rename red cape' })).toBeFocused();
    await page.keyboard.press('Enter');
    await name.fill('x'.repeat(41));
    await cardOf(page, red).getByRole('button', { name: 'Save name' }).click();
    await expect(cardOf(page, red).getByText('A name may be at most 40 characters.')).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    await name.fill('Winter cape');
    await page.keyboard.press('Enter');
    await expect(cardOf(page, red).getByTestId('wardrobe-item-name')).toHaveText('Winter cape');
    await expect(cardOf(page, red).getByRole('button', { name: 'Rename Winter cape' })).toBeFocused();

    // Removed from the keyboard, focus goes to the next item.
    await cardOf(page, red).getByRole('button', { name: 'Remove' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Remove Winter cape from your wardrobe?' });
    await expect(dialog).toContainText('You do not wear it, so nothing changes in game.');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('wardrobe-item')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Show blue cape in the preview' })).toBeFocused();
    await expect(page.getByTestId('wardrobe-notice')).toBeInViewport();
    await page.screenshot({ path: `test-results/wardrobe-names-${width}.png`, fullPage: true });
    await expectAccessible(page);
  });
}
