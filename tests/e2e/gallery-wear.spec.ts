// "Wear this" on the gallery: a logged-in player puts an item on from its page or its card (the gallery is for
// logged-in players only), is told so, the mod API shows it, and the item counts the wear.
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, describeViolations } from '../helpers/e2e/axe';
import { card, seedTexture, uniqueWord } from '../helpers/e2e/gallery';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

// Each test logs in through the CLI (a few seconds) and the texture page renders the 3D preview in software WebGL.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));
// axe-core is injected as a script of the test's own, which the site's Content Security Policy would refuse.
test.use({ bypassCSP: true });

/** The logged-in player's uuid. */
function ownUuid(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('user')!).uuid as string);
}

/** The hash of the cape the mod API shows for a player, or null. */
async function shownCape(page: Page, uuid: string): Promise<string | null> {
  const answer = await page.request.get(`/profile/${uuid}`);
  if (answer.status() !== 200) return null;
  const url = ((await answer.json()) as { cape_url: string | null }).cape_url;
  return url?.split('/').pop() ?? null;
}

test('a player wears a cape from its page: told so, counted, and shown by the mod API', async ({ page }) => {
  await logIn(page, uniqueName('Wearer'));
  const hash = await seedTexture(page, `${uniqueWord()} wear`);
  await page.goto(`/gallery/${hash}`);
  await waitForIslands(page);
  const wear = page.getByTestId('wear-button');
  await expect(wear).toHaveAccessibleName(/^Wear this cape\s*\(0 wears\)$/);
  await wear.click();
  await expect(page.getByTestId('wear-notice')).toHaveText(
    "You're wearing this cape now: players with the mod see it. It is in your wardrobe, to wear again later.",
  );
  await expect(page.getByTestId('wear-notice').getByRole('link', { name: 'your wardrobe' })).toHaveAttribute(
    'href',
    '/wardrobe',
  );
  // The button says the player wears it, keeps focus, and a second press changes nothing.
  await expect(wear).toHaveAccessibleName(/^You're wearing this cape\s*\(1 wear\)$/);
  await expect(wear).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('wear-notice')).toContainText("You're wearing this cape now");
  await expect(wear.getByTestId('wear-count')).toHaveText('1');
  expect(await shownCape(page, await ownUuid(page))).toBe(hash);
  // The page knows it on the next visit too.
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByTestId('wear-button')).toHaveAccessibleName(/^You're wearing this cape\s*\(1 wear\)$/);
  await page.screenshot({ path: 'test-results/gallery-wearing-1280.png' });
  // axe-core checks this page, with its Wear button, in accessibility.spec.ts.
});

test.describe('at 390 px', () => {
  test('a player wears a cape from its card', async ({ page }) => {
    // Logged in at the default width (the user menu is in the header there), then narrowed.
    await logIn(page, uniqueName('Narrow'));
    await page.setViewportSize({ width: 390, height: 844 });
    const word = uniqueWord();
    const hash = await seedTexture(page, `${word} card`);
    await page.goto(`/gallery?title=${word}`);
    const item = card(page, `${word} card`);
    await item.getByRole('button', { name: 'Wear this cape' }).click();
    await expect(item.getByTestId('wear-notice')).toHaveText(
      "You're wearing this cape now: players with the mod see it. It is in your wardrobe, to wear again later.",
    );
    await expect(item.getByRole('button', { name: "You're wearing this cape" })).toBeVisible();
    expect(await shownCape(page, await ownUuid(page))).toBe(hash);
    await page.screenshot({ path: 'test-results/gallery-wear-390.png' });
    expect(describeViolations(await axeViolations(page))).toBe('');
  });
});
