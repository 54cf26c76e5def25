// A player's browser session in the e2e tests: login codes from the operator CLI, logging in through the page, a
// visitor who saw today's advert, hydrated islands, and the XSRF header for API calls made with the page's cookies.
import { execFileSync } from 'node:child_process';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../../playwright.config';

/**
 * Issues a login code with `cloakroom code <username> [--admin]` against the database in `dataDir` (the e2e server's).
 */
export function issueCode(username: string, admin = false, dataDir = E2E_DATA_DIR): string {
  const output = execFileSync('node', ['bin/cloakroom.mjs', 'code', username, ...(admin ? ['--admin'] : [])], {
    env: { ...process.env, OFFLINE_MODE: 'true', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  const match = /: (\d{6})$/m.exec(output);
  if (!match) throw new Error(`No code in CLI output: ${output}`);
  return match[1]!;
}

/** A unique player name for one test (at most 16 characters). */
export function uniqueName(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 8)}`.slice(0, 16);
}

/** Marks today's server advert as seen, so the modal does not cover the page. */
export async function skipServerAdvert(context: BrowserContext, baseURL: string): Promise<void> {
  await context.addCookies([{ name: 'server_advert', value: '1', url: baseURL }]);
}

/** Waits until every React island on the page has hydrated (Astro removes the `ssr` attribute then). */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** The XSRF header of the page's session, for calls made with page.request. */
export async function xsrf(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')!.value;
  return { 'x-xsrf-token': decodeURIComponent(token) };
}

/** Logs in through the code login page and waits for the landing page. */
export async function logIn(
  page: Page,
  username: string,
  options: { admin?: boolean; ref?: string; dataDir?: string } = {},
): Promise<void> {
  const code = issueCode(username, options.admin, options.dataDir);
  await page.goto(`/account/login/minecraft${options.ref ? `?ref=${encodeURIComponent(options.ref)}` : ''}`);
  // A code typed or a click made before the login island hydrates is lost (a busy machine hydrates late).
  await waitForIslands(page);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await page.waitForURL((url) => url.pathname === (options.ref ?? '/'));
  await expect(page.getByTestId('user-menu')).toBeVisible();
}
