// API tests for "Wear this" (POST /api/gallery/wear), on both databases: a listed item's cape, animation or ears become
// the player's at once in the mod API, the item counts the wear, and what is not in the gallery cannot be worn.
import { beforeAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { backends } from '../../../support/backends.ts';
import { animatedGif, frameColour, solidPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { galleryForm, TEXTURE_URL } from '../../helpers/gallery.ts';
import { modProfile } from '../../helpers/mod-profile.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';

/** Wears allowed per player per 10 minutes in this suite. */
const WEARS = 4;

describe.each(backends)('wearing a gallery item on $name', (backend) => {
  const suite = serverForSuite(backend, {
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: String(WEARS),
  });
  let author: { jar: CookieJar; uuid: string; username: string };
  let colour = 600;
  beforeAll(async () => {
    author = await loginNewUser(suite.server);
  });

  /** Shares a picture to the gallery (as the author unless `by` is given); returns the item's hash. */
  async function share(file: Buffer, type = 'image/png', by = author): Promise<string> {
    const form = galleryForm({ title: 'Wear me', tags: ['cute'], file, type });
    const response = await by.jar.sendForm('POST', '/api/gallery/new', form);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { hash: string }).hash;
  }
  const wear = (jar: CookieJar, hash: string) => jar.post('/api/gallery/wear', { hash });
  const shownHash = (url: string | null | undefined) => TEXTURE_URL.exec(url ?? '')?.[1] ?? null;
  const wears = async (jar: CookieJar, hash: string) =>
    ((await (await jar.get(`/api/gallery/${hash}`)).json()) as { wears: number }).wears;

  it('puts a cape on the player at once in the mod API, and the item counts the wear', async () => {
    const hash = await share(await solidPng(64, 32, frameColour(colour++)));
    const player = await loginNewUser(suite.server);
    expect(await wears(player.jar, hash)).toBe(0);
    const answer = await wear(player.jar, hash);
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(await answer.json()).toEqual({
      success: true,
      slot: 'cape',
      url: expect.stringMatching(new RegExp(`/textures/${hash}$`)),
      wears: 1,
    });
    expect(shownHash((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(hash);
    expect(await wears(player.jar, hash)).toBe(1);
  });

  it('puts ears on the ears slot, and an author may wear their own item', async () => {
    const hash = await share(await solidPng(14, 7, frameColour(colour++)));
    const answer = await wear(author.jar, hash);
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect((await answer.json()).slot).toBe('ears');
    expect(shownHash((await modProfile(suite.server.url, author.uuid)).ear_url)).toBe(hash);
  });

  it('wears an animated item as its animation with its first frame as the still, which shows without the animated feature', async () => {
    const hash = await share(await animatedGif(64, 32, [frameColour(colour++), frameColour(colour++)]), 'image/gif');
    const player = await loginNewUser(suite.server);
    const answer = await wear(player.jar, hash);
    expect(answer.status, await answer.clone().text()).toBe(200);
    const still = shownHash((await answer.json()).url);
    expect(still).not.toBe(hash);
    const row = await suite.server.db
      .selectFrom('users')
      .select(['cape_hash', 'cape_strip_hash'])
      .where('uuid', '=', player.uuid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cape_hash: still, cape_strip_hash: hash });
    expect(shownHash((await modProfile(suite.server.url, player.uuid)).cape_url)).toBe(still);
  });

  it('counts each player once however often they wear an item, and tells the wearer (only) that they wear it', async () => {
    const hash = await share(await solidPng(64, 32, frameColour(colour++)));
    const other = await share(await solidPng(64, 32, frameColour(colour++)));
    const player = await loginNewUser(suite.server);
    const wearsIt = async (jar: CookieJar) =>
      ((await (await jar.get(`/api/gallery/${hash}`)).json()) as { user_wears: boolean }).user_wears;
    expect(await wearsIt(player.jar)).toBe(false);

    expect((await (await wear(player.jar, hash)).json()).wears).toBe(1);
    expect(await wearsIt(player.jar)).toBe(true);
    expect(await wearsIt(author.jar), 'someone else').toBe(false);
    const listed = (await (await player.jar.get('/api/gallery/get')).json()) as {
      data: Array<{ hash: string; user_wears: boolean }>;
    };
    expect(listed.data.find((item) => item.hash === hash)?.user_wears, 'in the listing too').toBe(true);

    // Again, and after another item and back: still one player.
    expect((await (await wear(player.jar, hash)).json()).wears).toBe(1);
    expect((await wear(player.jar, other)).status).toBe(200);
    expect(await wearsIt(player.jar), 'wears the other one now').toBe(false);
    expect((await (await wear(player.jar, hash)).json()).wears).toBe(1);
    const second = await loginNewUser(suite.server);
    expect((await (await wear(second.jar, hash)).json()).wears, 'a second player counts').toBe(2);
    expect(await wears(player.jar, hash)).toBe(2);
  });

  it('refuses what is not in the gallery (404), visitors (401), and more wears than the limit (429 with its message)', async () => {
    const player = await loginNewUser(suite.server);
    const unknown = await wear(player.jar, 'f'.repeat(64));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('That texture does not exist.');
    expect((await wear(await newBrowser(suite.server), 'f'.repeat(64))).status).toBe(401);
    // A banned author's item is hidden from the gallery: it cannot be worn.
    const bannedAuthor = await loginNewUser(suite.server);
    const hidden = await share(await solidPng(64, 32, frameColour(colour++)), 'image/png', bannedAuthor);
    await suite.server.db.updateTable('users').set({ banned: 1 }).where('uuid', '=', bannedAuthor.uuid).execute();
    await suite.server.db.updateTable('gallery_items').set({ hidden: 1 }).where('hash', '=', hidden).execute();
    expect((await wear(player.jar, hidden)).status).toBe(404);

    const item = await share(await solidPng(64, 32, frameColour(colour++)));
    const limited = await loginNewUser(suite.server);
    for (let i = 0; i < WEARS; i++) expect((await wear(limited.jar, item)).status).toBe(200);
    const refused = await wear(limited.jar, item);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(galleryMessages.tooManyWears);
  });
});
