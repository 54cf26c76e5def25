// Signing in to a launcher or mod with a code on /device, and the connected apps under the account: a player opens
// the app's link (or types its code), sees the app and what it asks to do, approves or denies with the keyboard, and
// the app gets its tokens or is told no; a visitor is told which app the code is for and asked to log in, every login
// page on the way names the app, and they come back to the code; a wrong or expired code is told in words; an app
// connected twice has a card per connection, and revoking one says whether the app can still use the account; the
// audit log says who did each thing; an admin removes an app. At 1280 and 390 px, each state checked with axe-core.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { hashSecret } from '../../server/auth/secrets';
import { openDatabase } from '../../server/db/database';
import { normalizeUserCode } from '../../src/lib/device-codes';
import {
  ageConnection,
  connectApp,
  connectionsOf,
  localPath,
  pollTokens,
  registerApp,
  startSignIn,
  tokenUploads,
} from '../helpers/e2e/apps';
import { axeViolations, describeViolations } from '../helpers/e2e/axe';
import { onPagesWithTime, todayOnPages } from '../helpers/e2e/dates';
import { issueCode, logIn, skipServerAdvert, uniqueName, waitForIslands, xsrf } from '../helpers/e2e/session';

// Each test logs in through the CLI and registers its app with it (a few seconds each).
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));
// axe-core is injected as a script of the test's own, which the site's Content Security Policy would refuse.
test.use({ bypassCSP: true });

/** The two widths every state is checked at. */
const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

/** Checks the page as it is now with axe-core. */
async function expectAccessible(page: Page): Promise<void> {
  expect(describeViolations(await axeViolations(page))).toBe('');
}

for (const size of WIDTHS) {
  test.describe(`at ${size.name} px`, () => {
    /** Logs a new player in (at the default width, where the header shows the user menu), then sets the width. */
    async function logInAt(page: Page, prefix: string, admin = false): Promise<void> {
      await logIn(page, uniqueName(prefix), { admin });
      await page.setViewportSize({ width: size.width, height: size.height });
    }

    test("a player approves from the app's link: the app is named, its code and scopes shown, and it gets its tokens", async ({
      page,
    }) => {
      const app = `Launcher ${size.name}`;
      const clientId = registerApp(app);
      await logInAt(page, 'Approver');
      const signIn = await startSignIn(page.request, clientId, 'wardrobe:read textures:upload');
      expect(signIn.verification_uri).toMatch(/\/device$/);

      await page.goto(localPath(signIn.verification_uri_complete));
      await waitForIslands(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Connect ${app}?`);
      await expect(page.getByTestId('device-code')).toHaveText(signIn.user_code);
      await expect(page.getByTestId('device-scopes').getByRole('listitem')).toHaveText([
        'See your wardrobe: the capes and ears in it and what you wear',
        'Upload capes and ears into your wardrobe',
      ]);
      await page.screenshot({ path: `test-results/device-approve-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${app} is connected`);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
      await expect(page.getByRole('status')).toContainText(`Go back to ${app}`);
      await page.screenshot({ path: `test-results/device-approved-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      const tokens = await pollTokens(page.request, clientId, signIn.device_code);
      expect(tokens.status).toBe(200);
      expect(await tokenUploads(page, tokens.body.access_token!)).toBe(200);
    });

    test('a player types the code and denies with the keyboard: the app is told access_denied', async ({ page }) => {
      const app = `Mod ${size.name}`;
      const clientId = registerApp(app);
      await logInAt(page, 'Denier');
      const signIn = await startSignIn(page.request, clientId, 'wardrobe:write');

      await page.goto('/device');
      await waitForIslands(page);
      const field = page.getByLabel('Code');
      await expect(field).toBeFocused();
      // Typed in small letters without the dash: the field writes it as the app shows it.
      await page.keyboard.type(signIn.user_code.replace('-', '').toLowerCase());
      await expect(field).toHaveValue(signIn.user_code);
      await expectAccessible(page);
      await page.keyboard.press('Enter');

      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Connect ${app}?`);
      await expect(page.getByTestId('device-scopes')).toContainText(
        'Choose what you wear: wear, take off, rename and remove capes and ears in your wardrobe',
      );
      // From the heading, Tab reaches Approve, then Deny.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Approve' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Deny' })).toBeFocused();
      await page.keyboard.press('Enter');

      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${app} was not connected`);
      await page.screenshot({ path: `test-results/device-denied-${size.name}.png`, fullPage: true });
      await expectAccessible(page);
      const refused = await pollTokens(page.request, clientId, signIn.device_code);
      expect(refused).toEqual({ status: 400, body: expect.objectContaining({ error: 'access_denied' }) });
    });

    test('a wrong code and an expired code are told in words', async ({ page }) => {
      const clientId = registerApp(`Old Launcher ${size.name}`);
      await logInAt(page, 'Typist');
      await page.goto('/device');
      await waitForIslands(page);
      await page.getByLabel('Code').fill('BCDF-GHJK');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Error: That code is not right. Check the code your app shows and type it again.',
      );
      await expectAccessible(page);

      const signIn = await startSignIn(page.request, clientId, 'wardrobe:read');
      // The code's time runs out: its row says it expired a moment ago.
      const db = openDatabase(`sqlite:${path.join(E2E_DATA_DIR, 'cloakroom.db')}`);
      try {
        await db
          .updateTable('oauth_device_requests')
          .set({ expires_at: Date.now() - 1000 })
          .where('user_code_hash', '=', hashSecret(normalizeUserCode(signIn.user_code)))
          .execute();
      } finally {
        await db.destroy();
      }
      await page.getByLabel('Code').fill(signIn.user_code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Error: That code has expired. Start signing in again in your app to get a new code.',
      );
      await page.screenshot({ path: `test-results/device-expired-${size.name}.png`, fullPage: true });
      await expectAccessible(page);
    });

    test('an app connected twice has a card per connection; revoking one says the app still can, revoking the last that it cannot', async ({
      page,
    }) => {
      const app = `Twice ${size.name}`;
      const clientId = registerApp(app);
      await logInAt(page, 'Owner');
      const olderToken = await connectApp(page, clientId, 'wardrobe:read textures:upload');
      const newerToken = await connectApp(page, clientId, 'textures:upload');
      const [newer, older] = await connectionsOf(page);
      // The first connection was made yesterday, on another computer.
      const olderMade = onPagesWithTime(await ageConnection(older!.id, 25));

      await page.goto('/account/apps');
      await waitForIslands(page);
      const cards = page.getByTestId('connected-app');
      await expect(cards).toHaveCount(2);
      await expect(cards.getByRole('heading')).toHaveText([app, app]);
      await expect(cards.getByTestId('connection-of')).toHaveText([
        `One of 2 connections of ${app}`,
        `One of 2 connections of ${app}`,
      ]);
      const newerCard = cards.nth(0);
      const olderCard = cards.nth(1);
      await expect(newerCard.getByTestId('connection-dates')).toContainText(
        new RegExp(`^Connected ${todayOnPages()}, \\d\\d:\\d\\d(:\\d\\d)?Last used ${todayOnPages()}, \\d\\d:\\d\\d$`),
      );
      await expect(olderCard.getByTestId('connection-dates')).toHaveText(
        `Connected ${olderMade}Last used ${olderMade}`,
      );
      await expect(newerCard.getByRole('listitem')).toHaveText(['Upload capes and ears into your wardrobe']);
      await expect(olderCard.getByRole('listitem')).toHaveText([
        'See your wardrobe: the capes and ears in it and what you wear',
        'Upload capes and ears into your wardrobe',
      ]);
      await page.screenshot({ path: `test-results/connected-apps-two-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      // Each Revoke button says which connection it ends.
      const revokeOlder = page.getByRole('button', { name: `Revoke the connection of ${app} made ${olderMade}` });
      await revokeOlder.click();
      const dialog = page.getByRole('dialog', { name: `Revoke this connection of ${app}?` });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(
        `This connection, made ${olderMade}, is signed out at once. The 1 other connection of ${app} keeps working until you revoke it too.`,
      );
      // The safe choice has the focus; Escape keeps the connection.
      await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
      await page.screenshot({ path: `test-results/connected-apps-revoke-${size.name}.png` });
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      expect(await tokenUploads(page, olderToken)).toBe(200);

      await revokeOlder.click();
      await dialog.getByRole('button', { name: 'Revoke this connection' }).click();
      await expect(page.getByRole('status')).toHaveText(
        `This connection of ${app} is revoked. 1 other connection of ${app} can still use your account.`,
      );
      await expect(cards).toHaveCount(1);
      await expect(cards.getByTestId('connection-of')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
      await page.screenshot({ path: `test-results/connected-apps-one-left-${size.name}.png`, fullPage: true });
      await expectAccessible(page);
      expect(await tokenUploads(page, olderToken)).toBe(401);
      expect(await tokenUploads(page, newerToken)).toBe(200);

      await cards.getByRole('button', { name: /^Revoke/ }).click();
      const lastDialog = page.getByRole('dialog', { name: `Revoke this connection of ${app}?` });
      await expect(lastDialog).toContainText(`and ${app} can no longer act on your account`);
      await lastDialog.getByRole('button', { name: 'Revoke this connection' }).click();
      await expect(page.getByRole('status')).toHaveText(`${app} can no longer use your account.`);
      await expect(page.getByTestId('no-connected-apps')).toBeVisible();
      await expectAccessible(page);
      expect(await tokenUploads(page, newerToken)).toBe(401);
      expect(newer!.scopes).toEqual(['textures:upload']);
    });

    test('a visitor types a code on /device: the page names the app and asks to log in, and every login page says so', async ({
      page,
    }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const app = `Visitor App ${size.name}`;
      const clientId = registerApp(app);
      const signIn = await startSignIn(page.request, clientId, 'wardrobe:read');

      await page.goto('/device');
      await waitForIslands(page);
      await expect(page).toHaveURL('/device');
      await expect(page.getByTestId('device-visitor')).toHaveText(
        'You are not logged in: you log in before you approve an app. Log in now',
      );
      await page.getByLabel('Code').fill(signIn.user_code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Log in to connect ${app}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
      await expect(page.getByTestId('device-code')).toHaveText(signIn.user_code);
      await page.screenshot({ path: `test-results/device-visitor-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Log in', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/account/login');
      const back = `/device?user_code=${signIn.user_code}`;
      expect(new URL(page.url()).searchParams.get('ref')).toBe(back);
      await waitForIslands(page);
      const wording = `Log in to connect ${app} to your account. You come back to check its code and approve it.`;
      await expect(page.getByTestId('connecting-app')).toHaveText(wording);
      await page.screenshot({ path: `test-results/device-login-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Login using Minecraft' }).click();
      await page.waitForURL((url) => url.pathname === '/account/login/minecraft');
      await waitForIslands(page);
      await expect(page.getByTestId('connecting-app')).toHaveText(wording);
      await page.screenshot({ path: `test-results/device-login-minecraft-${size.name}.png`, fullPage: true });
      await expectAccessible(page);
      await page.getByLabel('Code').fill(issueCode(uniqueName('Visitor')));
      await page.getByRole('button', { name: 'Confirm identity' }).click();
      await page.waitForURL((url) => url.pathname === '/device');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Connect ${app}?`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${app} is connected`);
    });

    test('the audit log names who did each thing in its By column: a player, a launcher app, a moderator', async ({
      page,
    }) => {
      const app = `Audited App ${size.name}`;
      const clientId = registerApp(app);
      const moderator = uniqueName('Moder');
      await logIn(page, moderator, { admin: true });
      const uuid = await page.evaluate(() => (JSON.parse(localStorage.getItem('user')!) as { uuid: string }).uuid);
      // The moderator connects an app of their own (as a player), the app signs itself out, and they refresh their own
      // cached profile (as a moderator).
      const accessToken = await connectApp(page, clientId, 'wardrobe:read');
      const signedOut = await page.request.post('/oauth/revoke', { form: { client_id: clientId, token: accessToken } });
      expect(signedOut.status()).toBe(200);
      const cache = await page.request.post('/api/admin/user/cache', { headers: await xsrf(page), data: { uuid } });
      expect(cache.status()).toBe(200);
      await page.setViewportSize({ width: size.width, height: size.height });

      await page.goto(`/admin/audit?player=${moderator}`);
      await waitForIslands(page);
      const rows = page.getByTestId('audit-row');
      await expect(rows).toHaveCount(3);
      await expect(rows.getByTestId('audit-actor')).toHaveText([
        `${moderator} Moderator`,
        `${app} Launcher app`,
        `${moderator} Player`,
      ]);
      await expect(rows.nth(1)).toContainText("Ended an app's connection");
      await expect(rows.nth(2)).toContainText('Connected an app to their account');
      if (size.width >= 1024) await expect(page.getByRole('columnheader', { name: 'By' })).toBeVisible();
      await expect(page.getByRole('columnheader', { name: 'Moderator' })).toHaveCount(0);
      await page.screenshot({ path: `test-results/audit-by-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      // The By filter takes an app's name, spaces and all.
      await page.getByLabel('By').fill(app);
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect(page).toHaveURL(
        `/admin/audit?page=1&admin=${encodeURIComponent(app).replaceAll('%20', '+')}&player=${moderator}`,
      );
      await expect(rows).toHaveCount(1);
      await expect(rows.getByTestId('audit-actor')).toHaveText(`${app} Launcher app`);
    });

    test('an admin sees the registered apps and removes one after asking: its players are signed out', async ({
      page,
    }) => {
      const app = `Retired ${size.name}`;
      const clientId = registerApp(app);
      await logInAt(page, 'Keeper', true);
      const accessToken = await connectApp(page, clientId, 'wardrobe:read textures:upload');

      await page.goto('/admin/oauth-clients');
      await waitForIslands(page);
      const row = page.getByTestId('app-client-row').filter({ hasText: clientId });
      await expect(row).toContainText(app);
      await expect(row).toContainText('1');
      await page.screenshot({ path: `test-results/admin-apps-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      await row.getByRole('button', { name: 'Remove' }).click();
      const dialog = page.getByRole('dialog', { name: `Remove ${app}?` });
      await expect(dialog).toContainText('(1 connection)');
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Remove the app' }).click();
      await expect(page.getByTestId('app-client-row').filter({ hasText: clientId })).toHaveCount(0);
      expect(await tokenUploads(page, accessToken)).toBe(401);
    });
  });
}

test('a logged-out player who opens the app’s link sees no code form while it is looked up, is asked to log in to connect it, and comes back to it, the code still filled in', async ({
  page,
}) => {
  const app = 'Returning Launcher';
  const clientId = registerApp(app);
  const signIn = await startSignIn(page.request, clientId, 'wardrobe:read');
  const link = localPath(signIn.verification_uri_complete);
  // The code is looked up before the page shows anything of it: held, the page says so and shows no code form.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/device/app?*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(link);
  await waitForIslands(page);
  await expect(page).toHaveURL(link);
  await expect(page.getByRole('status', { name: 'Looking up the code' })).toBeVisible();
  await expect(page.getByLabel('Code', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Log in to connect ${app}`);
  await expect(page.getByTestId('device-code')).toHaveText(signIn.user_code);
  await page.getByRole('link', { name: 'Log in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/account/login');
  expect(new URL(page.url()).searchParams.get('ref')).toBe(link);

  const code = issueCode(uniqueName('Returner'));
  await waitForIslands(page);
  await expect(page.getByTestId('connecting-app')).toContainText(`Log in to connect ${app}`);
  await page.getByRole('link', { name: 'Login using Minecraft' }).click();
  await page.waitForURL((url) => url.pathname === '/account/login/minecraft');
  await waitForIslands(page);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await page.waitForURL((url) => url.pathname === '/device');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Connect ${app}?`);
  await expect(page.getByTestId('device-code')).toHaveText(signIn.user_code);
});

test('a login page that does not come from /device says nothing of an app', async ({ page }) => {
  await page.goto('/account/login?ref=/wardrobe');
  await waitForIslands(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login or Register');
  await expect(page.getByTestId('connecting-app')).toHaveCount(0);
});
