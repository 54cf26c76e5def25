// API tests for the wardrobe (GET /api/wardrobe, POST /api/wardrobe/wear, /take-off, /rename, /remove), on both
// databases: every cape and ears a player uploads or wears comes in once (an upload named by its file), any of them is
// worn again at once in the mod API, a player names their items, a full wardrobe lets its oldest unworn item go and
// says so, and a moderator's removal empties every wardrobe of the picture.
import { beforeAll, describe, expect, it } from 'vitest';
import { WARDROBE_NAME_MAX, wardrobeMessages, wardrobeNameMessages } from '../../../src/lib/wardrobe-rules.ts';
import { backends } from '../../../support/backends.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { galleryForm, TEXTURE_URL } from '../../helpers/gallery.ts';
import { modProfile } from '../../helpers/mod-profile.ts';
import { loginNewUser, newBrowser, serverForSuite } from '../../helpers/server.ts';

/** Items a wardrobe keeps in this suite. */
const LIMIT = 4;

interface Item {
  id: string;
  kind: 'cape' | 'ears';
  texture: string;
  animated_texture: string | null;
  source: string;
  gallery_hash: string | null;
  title: string | null;
  name: string | null;
  added_at: number;
  worn: boolean;
}
interface Wardrobe {
  items: Item[];
  limit: number;
  dropped: { kind: string; title: string | null; added_at: number; dropped_at: number } | null;
}

describe.each(backends)('the wardrobe on $name', (backend) => {
  const suite = serverForSuite(backend, {
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
    WARDROBE_ITEMS: String(LIMIT),
  });
  let admin: { jar: CookieJar; uuid: string };
  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
  });
  let colour = 700;
  const hashOf = (url: string | null | undefined) => TEXTURE_URL.exec(url ?? '')?.[1] ?? null;
  const picture = async (width = 64, height = 32) => solidPng(width, height, frameColour(colour++));

  /** Uploads a cape (or ears) as the player; returns its hash. */
  async function upload(jar: CookieJar, slot: 'cape' | 'ears' = 'cape', file?: Buffer): Promise<string> {
    const bytes = file ?? (slot === 'cape' ? await picture() : await picture(14, 7));
    const response = await jar.upload(`/api/upload-${slot}`, bytes);
    expect(response.status, await response.clone().text()).toBe(200);
    return hashOf(((await response.json()) as Record<string, string>)[slot])!;
  }
  async function wardrobe(jar: CookieJar): Promise<Wardrobe> {
    const response = await jar.get('/api/wardrobe');
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Wardrobe;
  }
  const itemOf = (listing: Wardrobe, hash: string) => listing.items.find((item) => hashOf(item.texture) === hash)!;
  const shownCape = async (uuid: string) => hashOf((await modProfile(suite.server.url, uuid)).cape_url);

  it('keeps every upload and gallery wear once, newest first, with the one worn marked', async () => {
    const player = await loginNewUser(suite.server);
    const first = await picture();
    const second = await picture();
    const earsPicture = await picture(14, 7);
    const a = await upload(player.jar, 'cape', first);
    const b = await upload(player.jar, 'cape', second);
    const shared = await admin.jar.sendForm(
      'POST',
      '/api/gallery/new',
      galleryForm({ title: 'Fox ears', tags: ['cute'], file: earsPicture }),
    );
    expect(shared.status, await shared.clone().text()).toBe(201);
    const ears = ((await shared.json()) as { hash: string }).hash;
    expect((await player.jar.post('/api/gallery/wear', { hash: ears })).status).toBe(200);
    // The same picture again is not a second item.
    await upload(player.jar, 'cape', first);
    await upload(player.jar, 'cape', second);

    const listing = await wardrobe(player.jar);
    expect(listing.limit).toBe(LIMIT);
    expect(listing.dropped).toBeNull();
    expect(listing.items).toHaveLength(3);
    expect(listing.items.map((item) => item.added_at)).toEqual(
      [...listing.items.map((item) => item.added_at)].sort((x, y) => y - x),
    );
    expect(itemOf(listing, a)).toMatchObject({ kind: 'cape', source: 'upload', title: null, worn: false });
    expect(itemOf(listing, b)).toMatchObject({ kind: 'cape', source: 'upload', worn: true, animated_texture: null });
    expect(itemOf(listing, ears)).toMatchObject({
      kind: 'ears',
      source: 'gallery',
      gallery_hash: ears,
      title: 'Fox ears',
      worn: true,
    });
    for (const item of listing.items) expect(item.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('wears an item again at once in the mod API, takes it off and removes it, and touches no one else’s', async () => {
    const player = await loginNewUser(suite.server);
    const a = await upload(player.jar);
    const b = await upload(player.jar);
    const before = await wardrobe(player.jar);

    const worn = await player.jar.post('/api/wardrobe/wear', { id: itemOf(before, a).id });
    expect(worn.status, await worn.clone().text()).toBe(200);
    expect(itemOf((await worn.json()) as Wardrobe, a).worn).toBe(true);
    expect(await shownCape(player.uuid)).toBe(a);

    const off = await player.jar.post('/api/wardrobe/take-off', { id: itemOf(before, a).id });
    expect(off.status).toBe(200);
    expect(((await off.json()) as Wardrobe).items.every((item) => !item.worn)).toBe(true);
    expect((await fetch(`${suite.server.url}/profile/${player.uuid}`)).status, 'nothing to show').toBe(404);
    expect((await fetch(`${suite.server.url}/textures/${a}`)).status, 'kept in the wardrobe').toBe(200);

    const other = await loginNewUser(suite.server);
    for (const path of ['/api/wardrobe/wear', '/api/wardrobe/take-off', '/api/wardrobe/remove']) {
      const refused = await other.jar.post(path, { id: itemOf(before, b).id });
      expect(refused.status, path).toBe(404);
      expect((await refused.json()).error).toBe(wardrobeMessages.notFound);
      const bad = await player.jar.post(path, { id: '../../etc' });
      expect(bad.status, path).toBe(422);
      expect((await bad.json()).message).toBe(wardrobeMessages.badId);
    }
    expect((await (await newBrowser(suite.server)).get('/api/wardrobe')).status).toBe(401);

    await player.jar.post('/api/wardrobe/wear', { id: itemOf(before, b).id });
    const removed = await player.jar.post('/api/wardrobe/remove', { id: itemOf(before, b).id });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as Wardrobe).items.map((item) => hashOf(item.texture))).toEqual([a]);
    expect((await fetch(`${suite.server.url}/profile/${player.uuid}`)).status, 'the worn item came off').toBe(404);
    expect((await fetch(`${suite.server.url}/textures/${b}`)).status, 'nothing keeps it').toBe(404);
  });

  it('names an upload by its file, and lets the player rename an item or take its name away', async () => {
    const player = await loginNewUser(suite.server);
    const response = await player.jar.upload('/api/upload-cape', await picture(), {
      filename: 'C:\\capes\\my_red_cape.png',
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const uploaded = hashOf(((await response.json()) as { cape: string }).cape)!;
    const item = itemOf(await wardrobe(player.jar), uploaded);
    expect(item.name).toBe('my red cape');

    const renamed = await player.jar.post('/api/wardrobe/rename', { id: item.id, name: '  Winter cape  ' });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    expect(itemOf((await renamed.json()) as Wardrobe, uploaded).name).toBe('Winter cape');
    expect(itemOf(await wardrobe(player.jar), uploaded).name).toBe('Winter cape');

    for (const [name, message] of [
      ['x'.repeat(WARDROBE_NAME_MAX + 1), wardrobeNameMessages.tooLong],
      ['tab\there', wardrobeNameMessages.characters],
    ] as const) {
      const refused = await player.jar.post('/api/wardrobe/rename', { id: item.id, name });
      expect(refused.status, name).toBe(422);
      expect((await refused.json()).message).toBe(message);
    }
    const longest = 'é'.repeat(WARDROBE_NAME_MAX);
    expect((await player.jar.post('/api/wardrobe/rename', { id: item.id, name: longest })).status).toBe(200);
    expect(itemOf(await wardrobe(player.jar), uploaded).name).toBe(longest);

    const other = await loginNewUser(suite.server);
    const foreign = await other.jar.post('/api/wardrobe/rename', { id: item.id, name: 'Mine now' });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toBe(wardrobeMessages.notFound);
    expect(itemOf(await wardrobe(player.jar), uploaded).name, 'unchanged by someone else').toBe(longest);

    const cleared = await player.jar.post('/api/wardrobe/rename', { id: item.id, name: '   ' });
    expect(cleared.status).toBe(200);
    expect(itemOf((await cleared.json()) as Wardrobe, uploaded).name).toBeNull();
  });

  it('lets the oldest unworn item go when full, and says which', async () => {
    const player = await loginNewUser(suite.server);
    const hashes: string[] = [];
    for (let i = 0; i < LIMIT; i++) hashes.push(await upload(player.jar));
    const oldest = itemOf(await wardrobe(player.jar), hashes[0]!);
    await player.jar.post('/api/wardrobe/wear', { id: oldest.id });
    const ears = await upload(player.jar, 'ears');

    const listing = await wardrobe(player.jar);
    expect(listing.items.map((item) => hashOf(item.texture)).sort()).toEqual(
      [hashes[0], hashes[2], hashes[3], ears].sort(),
    );
    // The item it let go is named as the page named it: by its file (the tests upload texture.png).
    expect(listing.dropped).toMatchObject({ kind: 'cape', title: 'texture' });
    expect((await fetch(`${suite.server.url}/textures/${hashes[1]}`)).status).toBe(404);
    expect(await shownCape(player.uuid)).toBe(hashes[0]);
  });

  it('a moderator’s removal takes the picture out of every wardrobe, not only off the player reported', async () => {
    const bad = await picture();
    const keeper = await loginNewUser(suite.server);
    const badHash = await upload(keeper.jar, 'cape', bad);
    const kept = await upload(keeper.jar);
    const wearer = await loginNewUser(suite.server);
    await upload(wearer.jar, 'cape', bad);
    const reporter = await loginNewUser(suite.server);
    expect(
      (await reporter.jar.post('/api/user/report', { uuid: wearer.uuid, terms: true, reason: 'nsfw' })).status,
    ).toBe(200);
    const report = (
      (await (await admin.jar.get('/api/admin/reports/user')).json()) as Array<{ id: number; uuid: string }>
    ).find((row) => row.uuid === wearer.uuid)!;
    const answered = await admin.jar.post('/api/admin/reports/user', {
      id: report.id,
      action: 'REMOVE',
      reason: 'nsfw',
    });
    expect(answered.status).toBe(200);

    expect((await wardrobe(keeper.jar)).items.map((item) => hashOf(item.texture))).toEqual([kept]);
    expect((await wardrobe(wearer.jar)).items).toEqual([]);
    expect((await fetch(`${suite.server.url}/textures/${badHash}`)).status).toBe(404);
  });

  it('an account deletion takes the wardrobe’s pictures with it', async () => {
    const player = await loginNewUser(suite.server);
    const old = await upload(player.jar);
    await upload(player.jar);
    expect((await player.jar.post('/api/account/delete', { confirm: true })).status).toBe(200);
    expect((await fetch(`${suite.server.url}/textures/${old}`)).status).toBe(404);
  });
});
