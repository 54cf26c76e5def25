// The wardrobe page: a player's capes come in as they upload them, one is worn or taken off in one click (the mod API
// follows), removed after a confirmation, and an empty wardrobe says where capes come from; at 1280 and 390 px, with
// axe-core on each state.
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

/** Uploads a cape as the logged-in player; returns its hash. */
async function uploadCape(page: Page): Promise<string> {
  const answer = await page.request.post('/api/upload-cape', {
    headers: await xsrf(page),
    multipart: {
      file: { name: 'cape.png', mimeType: 'image/png', buffer: await solidPng(64, 32, frameColour(colour++)) },
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
    await expect(dialog).toContainText('It leaves your wardrobe.');
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
