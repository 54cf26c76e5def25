// The help page for other cape mods (/help/mods): every setting copies exactly with its Copy button and holds this
// server's own mod API address, the page reads well on a desktop and a phone, and /help and the home page lead to it.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_FRESH_PORT } from '../../playwright.config';
import { skipServerAdvert } from '../helpers/e2e/session';

/** The address the server gives players' games (PUBLIC_BASE_URL), as its API description names it. */
async function modApiAddress(request: APIRequestContext, origin = ''): Promise<string> {
  const description = (await (await request.get(`${origin}/api/openapi.json`)).json()) as {
    servers: Array<{ url: string }>;
  };
  return description.servers[0]!.url;
}

test.beforeEach(async ({ context, baseURL }) => skipServerAdvert(context, baseURL!));

test('each Copy button copies its setting exactly, says Copied, and the setting is JSON with this server’s address', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const base = await modApiAddress(request);
  await page.goto('/help/mods');
  await expect(page.getByRole('heading', { level: 1, name: 'See capes in your game' })).toBeVisible();

  const settings: Array<[string, Record<string, string>]> = [
    [
      'Copy Cape Provider entry for animated capes',
      { uriTemplate: `${base}/capes/$name.gif`, textureResolverId: 'gif' },
    ],
    [
      'Copy Cape Provider entry for still capes',
      { uriTemplate: `${base}/capes/$name.png`, textureResolverId: 'default' },
    ],
    ['Copy CustomSkinLoader entry of type CustomSkinAPI', { type: 'CustomSkinAPI', root: `${base}/csl/` }],
    [
      'Copy CustomSkinLoader entry of type Legacy',
      { type: 'Legacy', cape: `${base}/capes/{USERNAME}.png`, elytra: `${base}/elytras/{USERNAME}.png` },
    ],
    [
      'Copy CustomSkinLoader entry of type MinecraftCapesAPI',
      { type: 'MinecraftCapesAPI', root: `${base}/csl-minecraftcapes/` },
    ],
  ];
  await expect(page.getByRole('main').getByRole('button', { name: /^Copy / })).toHaveCount(settings.length);
  const providerIds = new Set<string>();
  for (const [name, fields] of settings) {
    const button = page.getByRole('button', { name, exact: true });
    const snippet = page.locator('[data-snippet]').filter({ has: button });
    const status = snippet.locator('[aria-live="polite"]');
    await expect(status).toHaveText('');
    await button.click();
    await expect(status).toHaveText(/Copied/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await snippet.locator('pre').innerText());
    expect(copied).toContain(base);
    const entry = JSON.parse(copied) as Record<string, string>;
    expect(entry, name).toMatchObject(fields);
    expect(entry.name, name).toBeTruthy();
    if (entry.id) providerIds.add(entry.id);
  }
  // Two Cape Provider entries side by side need ids of their own.
  expect(providerIds.size).toBe(2);
  await expect(page.getByRole('main')).toContainText(`${base}/capes/strip/$name.png`);
});

test('over plain http on a home network, where a page has no Clipboard API, Copy still copies the setting', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // A page at http://192.168.1.20:4321 is not a secure context, so the browser gives it no navigator.clipboard.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  await page.goto('/help/mods');
  const button = page.getByRole('button', { name: 'Copy CustomSkinLoader entry of type CustomSkinAPI', exact: true });
  const snippet = page.locator('[data-snippet]').filter({ has: button });
  await button.click();
  await expect(snippet.locator('[aria-live="polite"]')).toHaveText(/Copied/);
  await expect(button).toBeFocused();
  const reader = await context.newPage();
  await reader.goto('/help/mods');
  expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.locator('pre').innerText());
});

test('the page says where each file lives, that ears need the site’s own mod, and keeps its headings in order', async ({
  page,
}) => {
  await page.goto('/help/mods');
  const main = page.getByRole('main');
  await expect(main).toContainText('config/cape-provider/config.json');
  await expect(main).toContainText('remoteCustomProviders');
  await expect(main).toContainText('CustomSkinLoader/ExtraList');
  await expect(main).toContainText(/a new file named [a-z0-9-]+\.json\./);
  // Every value the page fills in is filled in: no template text reaches the reader.
  const prose = (await main.locator('p, li').allInnerTexts()).join('\n');
  expect(prose).not.toMatch(/[{}]|props\./);
  await expect(main).toContainText('CustomSkinLoader/CustomSkinLoader.json');
  await expect(main).toContainText('Neither mod draws ears.');
  await expect(main).toContainText('mod needs none of this.');
  const levels = await main
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((headings) => headings.map((h) => Number(h.tagName[1])));
  expect(levels[0]).toBe(1);
  levels.forEach(
    (level, index) => index > 0 && expect(level, `heading ${index + 1}`).toBeLessThanOrEqual(levels[index - 1]! + 1),
  );
});

for (const width of [1280, 390]) {
  test(`at ${width} px the page fits the screen, and a long setting keeps its lines whole and scrolls in its box`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/help/mods');
    await expect(page.getByRole('button', { name: 'Copy CustomSkinLoader entry of type Legacy' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Each line of a setting is one line on screen: a URL is never broken in two.
    const blocks = page.getByRole('main').locator('pre');
    const lines = await blocks.evaluateAll((pres) =>
      pres.map((pre) => {
        const style = getComputedStyle(pre);
        const height = pre.scrollHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        return {
          written: pre.textContent!.split('\n').length,
          shown: Math.round(height / parseFloat(style.lineHeight)),
        };
      }),
    );
    for (const [index, block] of lines.entries()) expect(block.shown, `setting ${index + 1}`).toBe(block.written);
    // What does not fit scrolls sideways inside its box.
    const scrolledTo = await blocks.evaluateAll((pres) =>
      pres
        .filter((pre) => pre.scrollWidth > pre.clientWidth)
        .map((pre) => {
          pre.scrollLeft = pre.scrollWidth;
          return pre.scrollLeft;
        }),
    );
    if (width === 390) expect(scrolledTo.length).toBeGreaterThan(0);
    for (const left of scrolledTo) expect(left).toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath(`help-mods-${width}.png`), fullPage: true });
  });
}

test('/help and the home page lead to the mods help page', async ({ page }) => {
  await page.goto('/help');
  await page.getByRole('main').getByRole('link', { name: 'See capes in your game' }).click();
  await expect(page).toHaveURL(/\/help\/mods$/);
  await expect(page).toHaveTitle(/^See capes in your game \| /);
  await page.goto('/');
  await page.getByRole('link', { name: 'point Cape Provider or CustomSkinLoader at us' }).click();
  await expect(page).toHaveURL(/\/help\/mods$/);
});

test('a fresh install prints its own address, the one its mod API gives games', async ({ page, request }) => {
  const origin = `http://127.0.0.1:${E2E_FRESH_PORT}`;
  await skipServerAdvert(page.context(), origin);
  const base = await modApiAddress(request, origin);
  await page.goto(`${origin}/help/mods`);
  await expect(page.locator('[data-snippet] pre').first()).toContainText(`${base}/capes/`);
});
