// The community's own services, set on the e2e site: each shows where players look for it, and the legal pages and help
// follow the site's settings (a fresh install, which sets none, is in fresh-install.spec.ts).
import { expect, test } from '@playwright/test';
import {
  E2E_AUTH_SERVER_HOST,
  E2E_CONTRIBUTOR,
  E2E_DISCORD_URL,
  E2E_GAME_SERVER_HOST,
  E2E_SUPPORT_EMAIL,
} from '../../playwright.config';
import { logIn, skipServerAdvert } from '../helpers/e2e/session';

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('the home page and the footer lead to the community chat and the game server the site sets', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Join the community/ })).toHaveAttribute('href', E2E_DISCORD_URL);
  await expect(page.getByRole('button', { name: /Play on our server/ })).toContainText(E2E_GAME_SERVER_HOST);
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Community Discord' })).toHaveAttribute(
    'href',
    E2E_DISCORD_URL,
  );
});

test('the footer lists the contributor the site sets, once registered, and leads to their profile', async ({
  page,
}) => {
  await logIn(page, E2E_CONTRIBUTOR, { ref: '/help' });
  const contributors = page.getByRole('contentinfo').getByTestId('contributors');
  await expect(contributors).toBeVisible();
  await expect(contributors.getByRole('link')).toHaveCount(1);
  await contributors.getByRole('link', { name: E2E_CONTRIBUTOR }).click();
  await expect(page).toHaveURL(/\/user\/[0-9a-f]{32}$/);
  await expect(page.getByRole('main')).toContainText(E2E_CONTRIBUTOR);
  await expect(page.getByText("That user doesn't exist")).toHaveCount(0);
});

test('the auth page and the code login show the auth server the site sets', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Get your login code' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(E2E_AUTH_SERVER_HOST);
  await page.goto('/account/login/minecraft');
  await expect(page.getByTestId('auth-server-address')).toHaveText(E2E_AUTH_SERVER_HOST);
  await page.getByRole('link', { name: 'how to get a code' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('help answers how to reach the site with its Discord and support address', async ({ page }) => {
  await page.goto('/help');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'How do I contact you or get more help?' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'community Discord' })).toHaveAttribute('href', E2E_DISCORD_URL);
  await expect(main.getByRole('link', { name: E2E_SUPPORT_EMAIL })).toHaveAttribute(
    'href',
    `mailto:${E2E_SUPPORT_EMAIL}`,
  );
  await page.goto('/legal/terms');
  await page.getByRole('article').getByRole('link', { name: 'help page' }).click();
  await expect(page).toHaveURL(/\/help#how-do-i-contact-you-or-get-more-help$/);
});

test('the premium page gives the support address for payment questions', async ({ page }) => {
  await page.goto('/premium');
  await expect(page.getByText('All purchases are final. Questions about a payment?')).toBeVisible();
  await expect(page.getByRole('link', { name: E2E_SUPPORT_EMAIL })).toHaveAttribute(
    'href',
    `mailto:${E2E_SUPPORT_EMAIL}`,
  );
  await expect(page.getByRole('link', { name: 'Premium Boost' })).toHaveAttribute('href', '/premium/boost');
});

test('the privacy policy shows the support address where it asks players to write, and speaks of the ads the site shows', async ({
  page,
}) => {
  await page.goto('/legal/privacy');
  const article = page.getByRole('article');
  const support = article.getByRole('link', { name: E2E_SUPPORT_EMAIL });
  await expect(support).toHaveCount(2);
  await expect(support.first()).toHaveAttribute('href', `mailto:${E2E_SUPPORT_EMAIL}`);
  await expect(article.getByText('If you think a child under 13 has used Cloakroom')).toContainText(E2E_SUPPORT_EMAIL);
  await expect(article.getByRole('heading', { name: 'Advertising' })).toBeVisible();
  await expect(article).toContainText('Advert cookie');
  await page.goto('/legal/terms');
  await expect(page.getByRole('article')).toContainText('Cloakroom is free to use and is paid for by advertising.');
});

test('/help and /help/mods agree on cracked (offline-mode) servers: unsupported, though CustomSkinLoader may show capes there', async ({
  page,
}) => {
  await page.goto('/help');
  const answer = page.getByRole('main').locator('p').filter({ hasText: 'cracked' });
  await expect(answer).toContainText('Unofficial (cracked) servers are unsupported.');
  await expect(
    page
      .getByRole('main')
      .getByText(
        /CustomSkinLoader asks for capes by player name, so on a server in offline mode it may still show them/,
      ),
  ).toBeVisible();
  await page.goto('/help/mods');
  await expect(
    page.getByRole('main').getByText(/servers in offline mode \(cracked servers\)\. Those are unsupported/),
  ).toBeVisible();
});
