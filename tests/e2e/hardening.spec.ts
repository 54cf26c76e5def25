// The built pages under their Content-Security-Policy (every page's scripts run, islands hydrate, the browser reports
// no violation), and the browser's view of an upload refused before it was all sent.
import { expect, test, type Page } from '@playwright/test';
import { textureMessages } from '../../src/lib/texture-rules';
import { logIn, skipServerAdvert, uniqueName, waitForIslands } from '../helpers/e2e/session';

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

test("a visitor's pages run under their Content-Security-Policy without a violation", async ({
  page,
  context,
  baseURL,
}) => {
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

test("a player's pages run under their Content-Security-Policy without a violation", async ({
  page,
  context,
  baseURL,
}) => {
  await skipServerAdvert(context, baseURL!);
  const violations = await watchViolations(page);
  await logIn(page, uniqueName('Csp'));
  for (const path of ['/upload-cape', '/upload-ears', '/gallery', '/gallery/new', '/account/delete']) {
    await page.goto(path);
    await waitForIslands(page);
  }
  expect(violations).toEqual([]);
});

test('an upload over the limit that skips the page checks gets the 413 message in the browser', async ({
  page,
  context,
  baseURL,
}) => {
  await skipServerAdvert(context, baseURL!);
  await logIn(page, uniqueName('Big'));
  const answer = await page.evaluate(async () => {
    const token = decodeURIComponent(document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/)?.[1] ?? '');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(5 * 1024 * 1024)], { type: 'image/png' }), 'big.png');
    return new Promise<{ status: number; text: string }>((resolve) => {
      const request = new XMLHttpRequest();
      request.open('POST', '/api/upload-cape');
      request.setRequestHeader('accept', 'application/json');
      request.setRequestHeader('x-xsrf-token', token);
      request.onload = () => resolve({ status: request.status, text: request.responseText });
      request.onerror = () => resolve({ status: 0, text: '' });
      request.send(form);
    });
  });
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.text)).toEqual({ success: false, msg: textureMessages.capeTooBig });
});
