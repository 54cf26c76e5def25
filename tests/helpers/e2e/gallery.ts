// The gallery in the e2e tests: titles unique to a test, textures seeded through the API, and the cards, tag chips and
// card titles on a page.
import { expect, type Locator, type Page } from '@playwright/test';
import { noisePng } from '../../../support/textures';
import { uniqueName } from './session';

/** A word for titles unique to one test (titles allow letters, digits, underscores and spaces, at most 20). */
export function uniqueWord(): string {
  return uniqueName('t').toLowerCase();
}

/** Uploads a texture through POST /api/gallery/new with the page's session and XSRF cookie; returns its hash. */
export async function seedTexture(
  page: Page,
  title: string,
  tags: string[] = ['minimal'],
  image?: Buffer,
): Promise<string> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  expect(token, 'the XSRF-TOKEN cookie').toBeTruthy();
  const response = await page.request.post('/api/gallery/new', {
    headers: { 'x-xsrf-token': token! },
    multipart: {
      title,
      tags: JSON.stringify(tags),
      file: { name: 'texture.png', mimeType: 'image/png', buffer: image ?? (await noisePng()) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { hash: string };
  return body.hash;
}

/** The card with a title. */
export function card(page: Page, title: string): Locator {
  return page
    .getByTestId('gallery-card')
    .filter({ has: page.getByTestId('card-title').getByText(title, { exact: true }) });
}

/** The tag chip with a name (in the sidebar, the upload form or the edit form). */
export function chip(page: Page, name: string): Locator {
  return page
    .getByTestId('tag-chips')
    .locator('label')
    .filter({ has: page.getByRole('checkbox', { name, exact: true }) });
}

/** The titles of the listed cards, in order. */
export function cardTitles(page: Page): Promise<string[]> {
  return page.getByTestId('card-title').allTextContents();
}
