// The site on a static host and the API on a host of its own, as a CDN deploy has them: two host names of one site that
// Chromium resolves to this machine. The site's files come from a server that applies only the build's generated rules
// (tests/helpers/e2e/static-host.ts); every call, image and cookie goes to the API's host. A player logs in with a
// code, uploads a cape, likes and wears a gallery item, uses the wardrobe, opens an admin page, approves an app's
// device code and logs out, and the page never asks its own host for anything but files.
import { expect, test, type Page } from '@playwright/test';
import { E2E_SPLIT_API, E2E_SPLIT_API_PORT, E2E_SPLIT_DATA_DIR, E2E_SPLIT_SITE } from '../../playwright.config';
import { CHROMIUM_FLAGS } from '../../scripts/chromium-flags';
import { noisePng } from '../../support/textures';
import { registerApp } from '../helpers/e2e/apps';
import { issueCode, uniqueName, waitForIslands } from '../helpers/e2e/session';

const SITE_HOST = new URL(E2E_SPLIT_SITE).host;
const API_HOST = new URL(E2E_SPLIT_API).host;

test.use({
  baseURL: E2E_SPLIT_SITE,
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      ...CHROMIUM_FLAGS,
      `--host-resolver-rules=MAP ${new URL(E2E_SPLIT_SITE).hostname} 127.0.0.1, MAP ${new URL(E2E_SPLIT_API).hostname} 127.0.0.1`,
    ],
  },
});
test.describe.configure({ timeout: 180_000 });

/** Every request the page makes to its own host for something that is not a file of the site. */
function watchSiteHost(page: Page): string[] {
  const strays: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.host === SITE_HOST && /^\/(api|oauth|textures|profile|capes)\//.test(url.pathname)) strays.push(url.href);
  });
  return strays;
}

/** Uploads a gallery item from the page, as the site's own client does: the XSRF token the API hands out. */
async function seedGalleryItem(page: Page, title: string): Promise<string> {
  const png = (await noisePng()).toString('base64');
  return page.evaluate(
    async ({ api, title, png }) => {
      const { token } = (await (await fetch(`${api}/api/csrf-cookie`, { credentials: 'include' })).json()) as {
        token: string;
      };
      const form = new FormData();
      form.append('title', title);
      form.append('tags', JSON.stringify(['minimal']));
      const bytes = Uint8Array.from(atob(png), (char) => char.charCodeAt(0));
      form.append('file', new Blob([bytes], { type: 'image/png' }), 'texture.png');
      const answer = await fetch(`${api}/api/gallery/new`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'x-xsrf-token': token },
        body: form,
      });
      if (answer.status !== 201) throw new Error(`${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { hash: string }).hash;
    },
    { api: E2E_SPLIT_API, title, png },
  );
}

test('the site on a static host works end to end with the API on another host of the same site', async ({
  page,
  context,
  request,
}) => {
  const strays = watchSiteHost(page);
  const name = uniqueName('Split');
  await context.addCookies([{ name: 'server_advert', value: '1', url: E2E_SPLIT_SITE }]);

  // Log in with a code: the session and XSRF cookies belong to the API's host, which the page cannot read.
  await page.goto('/account/login/minecraft');
  await waitForIslands(page);
  await page.getByLabel('Code').fill(issueCode(name, true, E2E_SPLIT_DATA_DIR));
  await page.getByRole('button', { name: 'Confirm identity' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  const cookies = await context.cookies();
  expect(cookies.filter((cookie) => cookie.name === 'session').map((cookie) => cookie.domain)).toEqual([
    new URL(E2E_SPLIT_API).hostname,
  ]);

  // Upload a cape.
  await page.goto('/upload-cape');
  const input = page.getByTestId('texture-file');
  await expect(input).toBeEnabled();
  const cape = await noisePng(64, 32);
  await input.setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: cape });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-success')).toBeVisible();

  // The API's XSRF cookie expires while the page is open: the page's token is refused once, and the upload is sent
  // again with the fresh one the API hands out.
  await context.clearCookies({ name: 'XSRF-TOKEN' });
  await input.setInputFiles({ name: 'cape.png', mimeType: 'image/png', buffer: cape });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-success')).toBeVisible();

  // Like and wear a gallery item: its page is the shell the static host rewrites /gallery/{hash} to.
  const hash = await seedGalleryItem(page, `${uniqueName('split').toLowerCase()} item`);
  await page.goto(`/gallery/${hash}`);
  await waitForIslands(page);
  const like = page.getByTestId('like-button').first();
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: /Wear this cape/ }).click();
  await expect(page.getByTestId('wear-notice')).toContainText("You're wearing this cape now");
  const preview = page.locator(`img[src="${E2E_SPLIT_API}/api/gallery/${hash}/preview"]`).first();
  if ((await preview.count()) > 0) await expect(preview).toHaveJSProperty('complete', true);

  // The wardrobe holds the upload and the worn item, each picture from the API's host.
  await page.goto('/wardrobe');
  await expect(page.getByTestId('wardrobe-item')).toHaveCount(2);
  const pictures = page.getByTestId('wardrobe-item').locator('img');
  for (const src of await pictures.evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src)))
    expect(new URL(src).host, src).toBe(API_HOST);
  await expect
    .poll(() => pictures.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);

  // An admin page loads its figures from the API.
  await page.goto('/admin');
  await expect(page.getByRole('region', { name: 'Dashboard' }).getByRole('definition').first()).toHaveText(/^\d/);

  // An app's device code is approved on the site's /device page.
  const app = `Split launcher ${name}`;
  const clientId = registerApp(app, E2E_SPLIT_DATA_DIR);
  const apiDirect = `http://127.0.0.1:${E2E_SPLIT_API_PORT}`;
  const signIn = (await (
    await request.post(`${apiDirect}/oauth/device_authorization`, {
      form: { client_id: clientId, scope: 'wardrobe:read' },
    })
  ).json()) as { device_code: string; verification_uri: string; verification_uri_complete: string };
  expect(signIn.verification_uri).toBe(`${E2E_SPLIT_SITE}/device`);
  await page.goto(signIn.verification_uri_complete);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${app} is connected`);
  const tokens = await request.post(`${apiDirect}/oauth/token`, {
    form: {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      client_id: clientId,
      device_code: signIn.device_code,
    },
  });
  expect(tokens.status()).toBe(200);
  const metadata = (await (await request.get(`${apiDirect}/.well-known/oauth-authorization-server`)).json()) as {
    issuer: string;
  };
  expect(metadata.issuer).toBe(E2E_SPLIT_API);

  // Log out: the API's session ends.
  await page.goto('/');
  await page.getByTestId('user-menu').click();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Log out' }).click();
  await reloaded;
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  const stillLoggedIn = await page.evaluate(
    async (api) => (await fetch(`${api}/api/user`, { credentials: 'include' })).status,
    E2E_SPLIT_API,
  );
  expect(stillLoggedIn).toBe(401);

  expect(strays, 'nothing but files was asked of the site host').toEqual([]);
});
