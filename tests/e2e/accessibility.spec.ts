// Every page of the route table passes axe-core's WCAG 2.1 AA rules, for a visitor and a logged-in player, and every
// page with a moderator's controls for an admin.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { routes, type Route } from '../../src/lib/routes';
import { noisePng } from '../../support/textures';
import { axeViolations, describeViolations } from '../helpers/e2e/axe';
import { logIn, skipServerAdvert, uniqueName, waitForIslands, xsrf } from '../helpers/e2e/session';

// Each worker logs its players in through the CLI first, and some pages render a 3D preview in software WebGL.
test.describe.configure({ timeout: 90_000 });

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** What the dynamic routes show: a player with a cape and a gallery texture, which another player reported. */
interface Seed {
  username: string;
  uuid: string;
  hash: string;
}

let seed: Seed | undefined;

/** A fresh page in its own context that can take the injected axe-core script, with today's advert already seen. */
async function openPage(browser: Browser, storageState?: StorageState): Promise<Page> {
  const baseURL = test.info().project.use.baseURL!;
  const context = await browser.newContext({ baseURL, bypassCSP: true, storageState });
  await skipServerAdvert(context, baseURL);
  return context.newPage();
}

/** Logs a new player (or admin) in and returns their session. */
async function session(browser: Browser, prefix: string, admin = false): Promise<StorageState> {
  const page = await openPage(browser);
  await logIn(page, uniqueName(prefix), { admin });
  const state = await page.context().storageState();
  await page.context().close();
  return state;
}

/**
 * Creates the player the dynamic routes show, with a cape, a gallery texture and a report on each from another player.
 */
async function createSeed(browser: Browser): Promise<Seed> {
  const page = await openPage(browser);
  const username = uniqueName('Shown');
  await logIn(page, username);
  const cape = await page.request.post('/api/upload-cape', {
    headers: await xsrf(page),
    multipart: { file: { name: 'cape.png', mimeType: 'image/png', buffer: await noisePng(64, 32) } },
  });
  expect(cape.status(), await cape.text()).toBe(200);
  const created = await page.request.post('/api/gallery/new', {
    headers: await xsrf(page),
    multipart: {
      title: 'shown cape',
      tags: JSON.stringify(['minimal']),
      file: { name: 'texture.png', mimeType: 'image/png', buffer: await noisePng(64, 32) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { hash } = (await created.json()) as { hash: string };
  const { uuid } = (await (await page.request.get('/api/user')).json()) as { uuid: string };
  await page.context().close();

  const reporter = await openPage(browser);
  await logIn(reporter, uniqueName('Reporter'));
  const galleryReport = await reporter.request.post('/api/gallery/report', {
    headers: await xsrf(reporter),
    data: { hash, tac: true, reason: 'nsfw' },
  });
  expect(galleryReport.status(), await galleryReport.text()).toBe(200);
  const userReport = await reporter.request.post('/api/user/report', {
    headers: await xsrf(reporter),
    data: { uuid, terms: true, reason: 'nsfw' },
  });
  expect(userReport.status(), await userReport.text()).toBe(200);
  await reporter.context().close();
  return { username, uuid, hash };
}

/** Routes that are no page of this site: /download sends the browser on to the mod's download site. */
const OFF_SITE = new Set(['download']);

/**
 * Pages an admin sees otherwise than a player: the admin pages, and the gallery and player pages with a moderator's
 * controls.
 */
function showsModeratorTools(route: Route): boolean {
  return route.name.startsWith('admin') || ['gallery-item', 'gallery-user', 'user'].includes(route.name);
}

/** The routes that show a page of this site. */
const pages = routes.filter((route) => !OFF_SITE.has(route.name));

/** The address that opens a route: the route's own path, or for a route with parameters one filled with the seed's. */
function pathFor(route: Route, shown: Seed): string {
  if (!route.dynamic) return route.path;
  const paths: Record<string, string> = {
    premium: '/premium',
    'user-report': `/user/${shown.uuid}/report`,
    user: `/user/${shown.username}`,
    'gallery-item': `/gallery/${shown.hash}`,
    'gallery-user': `/gallery/${shown.uuid}`,
    'admin-edit-user': `/admin/edit-user/${shown.username}`,
  };
  const path = paths[route.name];
  if (!path) throw new Error(`No example address for the route ${route.name} (${route.path}): add one here.`);
  return path;
}

/** Opens a page and waits until its islands have hydrated and its API calls have answered. */
async function openSettled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForIslands(page);
  await page.waitForLoadState('networkidle');
}

/** Checks the page as it is now with axe-core; `path` names it in the failure. */
async function expectNoViolations(page: Page, path: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(describeViolations(violations), `axe-core on ${path} (landed on ${new URL(page.url()).pathname})`).toBe('');
}

test.beforeAll(async ({ browser }) => {
  seed ??= await createSeed(browser);
});

test.describe('as a visitor', () => {
  // A visitor who opens a page that needs a login lands on the login page, which is checked here on its own.
  for (const route of pages.filter((r) => !r.auth)) {
    test(`${route.path} passes axe-core`, async ({ browser }) => {
      const page = await openPage(browser);
      const path = pathFor(route, seed!);
      await openSettled(page, path);
      await expectNoViolations(page, path);
      await page.context().close();
    });
  }

  test('the 404 page passes axe-core', async ({ browser }) => {
    const page = await openPage(browser);
    await openSettled(page, '/no/such/page');
    await expectNoViolations(page, '/no/such/page');
    await page.context().close();
  });

  test('the home page with the daily server advert open passes axe-core', async ({ browser }) => {
    const baseURL = test.info().project.use.baseURL!;
    const context = await browser.newContext({ baseURL, bypassCSP: true });
    const page = await context.newPage();
    await openSettled(page, '/');
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, '/');
    await context.close();
  });
});

for (const [role, admin] of [
  ['player', false],
  ['admin', true],
] as const) {
  test.describe(`as ${role === 'admin' ? 'an admin' : 'a player'}`, () => {
    let state: StorageState | undefined;
    test.beforeAll(async ({ browser }) => {
      state = await session(browser, role === 'admin' ? 'Mod' : 'Player', admin);
    });

    for (const route of role === 'admin' ? pages.filter(showsModeratorTools) : pages) {
      test(`${route.path} passes axe-core`, async ({ browser }) => {
        const page = await openPage(browser, state);
        const path = pathFor(route, seed!);
        await openSettled(page, path);
        await expectNoViolations(page, path);
        await page.context().close();
      });
    }
  });
}
