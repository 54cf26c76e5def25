// The built pages under their Content-Security-Policy: every page's scripts run (islands hydrate) and the browser
// reports no violation.
import { expect, test, type Page } from '@playwright/test';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from './helpers';

/** Collects the page's Content-Security-Policy violations (the browser's own reports and its console messages). */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|content-security-policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  return violations;
}

test("a visitor's pages run under their Content-Security-Policy without a violation", async ({ page, context, baseURL }) => {
  await skipServerAdvert(context, baseURL!);
  const violations = await watchViolations(page);
  const home = await page.goto('/');
  expect(home?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(home?.headers()['x-content-type-options']).toBe('nosniff');
  await waitForIslands(page);
  for (const path of ['/help', '/legal/privacy', '/account/login']) {
    await page.goto(path);
    await waitForIslands(page);
  }
  expect(violations).toEqual([]);
});

test("a player's pages run under their Content-Security-Policy without a violation", async ({ page, context, baseURL }) => {
  await skipServerAdvert(context, baseURL!);
  const violations = await watchViolations(page);
  await logIn(page, uniqueName('Csp'));
  for (const path of ['/upload-cape', '/upload-ears', '/gallery', '/gallery/new', '/account/delete']) {
    await page.goto(path);
    await waitForIslands(page);
  }
  expect(violations).toEqual([]);
});
