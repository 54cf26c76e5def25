// The gallery's other pages: an unknown texture hash, and a player's page with their textures or a way back.
import { expect, test } from '@playwright/test';
import { logIn, skipServerAdvert, uniqueName } from '../helpers/e2e/session';
import { card, cardTitles, seedTexture, uniqueWord } from '../helpers/e2e/gallery';

// Each test logs in through the CLI (a few seconds) and some render the 3D preview in software WebGL: allow more than
// the default.
test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('an unknown texture hash goes back to the gallery', async ({ page }) => {
  await logIn(page, uniqueName('Lost'));
  await page.goto(`/gallery/${'0'.repeat(64)}`);
  await page.waitForURL((url) => url.pathname === '/gallery');
  await expect(page.getByRole('heading', { name: 'Official Gallery' })).toBeVisible();
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
