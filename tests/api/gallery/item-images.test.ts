// A gallery item's preview and texture map are made when the item is added, as the uploader's image work, and stored
// beside its texture: a view causes no image work; an upload whose renders do not fit in the uploader's image budget is
// refused with the queue's message and adds nothing.
import { describe, expect, it } from 'vitest';
import { IMAGE_WORK_BUDGET_MESSAGE } from '../../../server/image-jobs/job-queue.ts';
import { derivedKey } from '../../../server/textures/library/texture-library.ts';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

/** Sends the gallery upload form with a 64 x 32 cape of the given colour. */
async function addItem(jar: CookieJar, colour: number): Promise<Response> {
  const form = new FormData();
  form.append('title', 'Rendered at upload');
  form.append('tags', JSON.stringify(['cute']));
  form.append(
    'file',
    new Blob([new Uint8Array(await solidPng(64, 32, frameColour(colour)))], { type: 'image/png' }),
    'texture.png',
  );
  return jar.sendForm('POST', '/api/gallery/new', form);
}

describe.each(backends)('a gallery item’s images on $name', (backend) => {
  const suite = serverForSuite(backend);
  /** A server where a player's image budget is spent by their first job. */
  const spent = serverForSuite(backend, { IMAGE_WORK_SECONDS_PER_MINUTE: '0.000001' });

  it('are stored when the item is added, and are what a viewer then gets', async () => {
    const author = await loginNewUser(suite.server);
    const added = await addItem(author.jar, 7);
    expect(added.status).toBe(201);
    const { hash } = (await added.json()) as { hash: string };
    for (const [variant, path] of [
      ['preview', `/api/gallery/${hash}/preview`],
      ['map', `/api/gallery/${hash}/preview/map`],
    ] as const) {
      const stored = await suite.server.app.textureLibrary.read(derivedKey(hash, variant));
      expect(stored, `${variant}: made before the upload answered`).not.toBeNull();
      const viewer = await loginNewUser(suite.server);
      const served = await viewer.jar.get(path);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(stored!)).toBe(true);
    }
  });

  it('that do not fit in the uploader’s budget refuse the upload with the queue’s message, and nothing is added', async () => {
    const author = await loginNewUser(spent.server);
    const added = await addItem(author.jar, 8);
    expect(added.status).toBe(429);
    expect(JSON.stringify(await added.json())).toContain(IMAGE_WORK_BUDGET_MESSAGE);
    expect(await spent.server.db.selectFrom('gallery_items').select('hash').execute()).toEqual([]);
  });
});
