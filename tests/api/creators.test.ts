// API tests for the cape creators: each generator's output (dimensions and layout), every rule and message, the cache,
// the outside services' failures, and wearing or sharing a made cape; on SQLite and PostgreSQL.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorMessages } from '../../src/lib/creator-rules.ts';
import { textureMessages } from '../../src/lib/texture-rules.ts';
import { createTextureLibrary } from '../../server/operations/create-library.ts';
import { sweepLeftovers } from '../../server/operations/sweep.ts';
import { animatedGif, frameColour, pixelAt, rgbaPixels, solidPng, twoColourPng, type Rgba } from '../../support/textures.ts';
import { backends } from '../../support/backends.ts';
import type { CookieJar } from '../helpers/cookie-jar.ts';
import { startGameServicesStandIn, type GameServicesStandIn } from '../helpers/game-services.ts';
import { loginNewUser, newBrowser, randomUuid, serverForSuite } from '../helpers/server.ts';

const JSON_ACCEPT = { accept: 'application/json' };
const PNG_ACCEPT = { accept: 'image/png' };

/** The message of an error answer: `{error}` or `{message, errors}`. */
async function messageOf(response: Response): Promise<string> {
  const body = (await response.json()) as { error?: string; message?: string };
  return body.error ?? body.message ?? '';
}

/** A 64 x 64 skin whose face is one colour and whose helmet layer covers the face's top half in another. */
async function skinPng(face: Rgba, helmet: Rgba): Promise<Buffer> {
  const pixels = Buffer.alloc(64 * 64 * 4);
  const paint = (x0: number, y0: number, w: number, h: number, colour: Rgba) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) pixels.set(colour, (y * 64 + x) * 4);
  };
  paint(0, 0, 64, 64, [90, 90, 90, 255]);
  paint(8, 8, 8, 8, face);
  paint(40, 8, 8, 8, [0, 0, 0, 0]);
  paint(40, 8, 8, 4, helmet);
  return sharp(pixels, { raw: { width: 64, height: 64, channels: 4 } })
    .png()
    .toBuffer();
}

const services: GameServicesStandIn = await startGameServicesStandIn();
const SKIN_PLAYER = { uuid: randomUuid(), name: 'SkinPlayer' };
const CAPE_PLAYER = { uuid: randomUuid(), name: 'CapePlayer' };

beforeAll(async () => {
  services.addPlayer({ ...SKIN_PLAYER, skin: await skinPng([200, 150, 100, 255], [20, 40, 220, 255]) });
  services.addPlayer({ ...CAPE_PLAYER, optifineCape: await solidPng(46, 22, [10, 200, 30, 255]) });
  services.addPlayer({ uuid: randomUuid(), name: 'NoSkin' });
});
afterAll(() => services.close());

describe.each(backends)('cape creators on $name', (backend) => {
  const suite = serverForSuite(backend, {
    MOJANG_API_URL: services.url,
    MOJANG_SESSION_URL: services.url,
    OPTIFINE_CAPES_URL: services.url,
    // The stand-in's skin URLs are on 127.0.0.1.
    OUTSIDE_URLS_ALLOW_PRIVATE: 'true',
    CREATOR_CALLS_PER_MINUTE: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
  });
  let jar: CookieJar;
  let uuid: string;

  beforeAll(async () => {
    ({ jar, uuid } = await loginNewUser(suite.server));
  });

  /** The decoded pixels of a PNG answer. */
  async function pixelsOf(response: Response) {
    expect(response.headers.get('content-type')).toBe('image/png');
    return rgbaPixels(Buffer.from(await response.arrayBuffer()));
  }

  /** Posts the cape creator's form. */
  function capeCreator(fields: Record<string, string>, file: Buffer | null, headers: Record<string, string> = PNG_ACCEPT) {
    const form = new FormData();
    if (file) form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'picture.png');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return jar.sendForm('POST', '/api/gallery/cape-creator', form, { headers });
  }

  it('answers 401 to a visitor on every creator call', async () => {
    const visitor = await newBrowser(suite.server);
    for (const path of [
      '/api/gallery/cape-creator',
      '/api/gallery/head-capes/SkinPlayer/0/0/0/0/true',
      '/api/gallery/optifine-capes/red',
      '/api/gallery/creations/use',
    ]) {
      expect((await visitor.post(path, {})).status, path).toBe(401);
    }
  });

  it('image to cape: scale 1 is 64 x 32 with the picture on the front and the colour on the edges', async () => {
    const picture = await twoColourPng(100, 160, [255, 0, 0, 255], [0, 0, 255, 255]);
    const response = await capeCreator({ scale: '1', color: '#00ff00', elytra: 'false' }, picture);
    expect(response.status).toBe(200);
    const cape = await pixelsOf(response);
    expect([cape.width, cape.height]).toEqual([64, 32]);
    expect(pixelAt(cape, 1, 8)).toEqual([255, 0, 0, 255]); // the front's left half
    expect(pixelAt(cape, 10, 8)).toEqual([0, 0, 255, 255]); // the front's right half
    expect(pixelAt(cape, 0, 8)).toEqual([0, 255, 0, 255]); // a side edge
    expect(pixelAt(cape, 40, 10)).toEqual([0, 255, 0, 255]); // the elytra without the picture
  });

  it('image to cape: scale 6 is 2048 x 1024, auto colour is the average colour, and the elytra flag paints the wings', async () => {
    const picture = await solidPng(40, 64, [200, 100, 50, 255]);
    const response = await capeCreator({ scale: '6', color: 'auto', elytra: 'true' }, picture);
    expect(response.status).toBe(200);
    const cape = await pixelsOf(response);
    expect([cape.width, cape.height]).toEqual([2048, 1024]);
    expect(pixelAt(cape, 0, 100)).toEqual([200, 100, 50, 255]);
    expect(pixelAt(cape, 36 * 32 + 5, 2 * 32 + 5)).toEqual([200, 100, 50, 255]);
  });

  it('answers a repeated request from the cache, and as JSON with the preview when asked', async () => {
    const picture = await solidPng(30, 30, frameColour(7));
    const first = await capeCreator({ scale: '2', color: 'ff00ff', elytra: 'false' }, picture, JSON_ACCEPT);
    const second = await capeCreator({ scale: '2', color: 'ff00ff', elytra: 'false' }, picture, JSON_ACCEPT);
    expect(first.headers.get('x-creation-cache')).toBe('miss');
    expect(second.headers.get('x-creation-cache')).toBe('hit');
    const body = (await first.json()) as { hash: string; cape: string; preview: string; width: number; frames: number };
    expect(await second.json()).toEqual(body);
    expect(body).toMatchObject({ width: 128, frames: 1 });
    const preview = await jar.get(new URL(body.preview).pathname);
    expect(preview.status).toBe(200);
    const previewPixels = await pixelsOf(preview);
    expect([previewPixels.width, previewPixels.height]).toEqual([320, 180]);
    const texture = await fetch(new URL(new URL(body.cape).pathname, suite.server.url));
    expect((await rgbaPixels(Buffer.from(await texture.arrayBuffer()))).width).toBe(128);
  });

  it('refuses a missing picture, a bad scale or colour, a file that is not an image and one over 2 MB', async () => {
    const picture = await solidPng(10, 10);
    const cases: Array<[Record<string, string>, Buffer | null, number, string]> = [
      [{ scale: '1' }, null, 422, creatorMessages.inputMissing],
      [{ scale: '7' }, picture, 422, creatorMessages.badScale],
      [{ scale: '0' }, picture, 422, creatorMessages.badScale],
      [{ scale: '1.5' }, picture, 422, creatorMessages.badScale],
      [{ scale: '1', color: 'red' }, picture, 422, creatorMessages.badColour],
      [{ scale: '1' }, Buffer.from('not an image at all'), 422, textureMessages.invalidImage],
      [{ scale: '1' }, Buffer.alloc(2_000_001, 1), 413, creatorMessages.inputTooBig],
    ];
    for (const [fields, file, status, message] of cases) {
      const response = await capeCreator(fields, file);
      expect(response.status, message).toBe(status);
      expect(JSON.stringify(await response.json())).toContain(message);
    }
  });

  it('animated: a GIF becomes a strip of 100 ms frames over the background, answered as {cape, preview}', async () => {
    const gif = await animatedGif(40, 64, [
      [255, 0, 0, 255],
      [0, 0, 255, 255],
      [255, 255, 0, 255],
    ]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(gif)], { type: 'image/gif' }), 'anim.gif');
    form.append('background', new Blob([new Uint8Array(await solidPng(64, 32, [0, 128, 0, 255]))], { type: 'image/png' }), 'bg.png');
    form.append('scale', '2');
    form.append('color', '333333');
    form.append('elytra', 'false');
    const response = await jar.sendForm('POST', '/api/gallery/animated-cape-creator', form);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cape: string; preview: string; frames: number; width: number; height: number };
    expect(body).toMatchObject({ frames: 3, width: 128, height: 192 });
    const strip = await rgbaPixels(Buffer.from(await (await fetch(new URL(new URL(body.cape).pathname, suite.server.url))).arrayBuffer()));
    expect(pixelAt(strip, 10, 10)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(strip, 10, 64 + 10)).toEqual([0, 0, 255, 255]);
    expect(pixelAt(strip, 10, 128 + 10)).toEqual([255, 255, 0, 255]);
    expect(pixelAt(strip, 30, 10)).toEqual([0, 128, 0, 255]); // the inside shows the background
    expect(pixelAt(strip, 0, 10)).toEqual([51, 51, 51, 255]); // an edge in the colour
  });

  it('animated: refuses a PNG as the animation, a JPEG-like background and more than 64 frames', async () => {
    const send = async (file: Buffer, type: string, background?: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)], { type }), 'anim');
      if (background) form.append('background', new Blob([new Uint8Array(background)], { type: 'image/jpeg' }), 'bg');
      form.append('scale', '1');
      return jar.sendForm('POST', '/api/gallery/animated-cape-creator', form);
    };
    const png = await send(await solidPng(10, 10), 'image/png');
    expect(png.status).toBe(422);
    expect(await messageOf(png)).toBe(creatorMessages.animatedType);
    const jpeg = await send(
      await animatedGif(10, 10, 2),
      'image/gif',
      await sharp(await solidPng(10, 10))
        .jpeg()
        .toBuffer(),
    );
    expect(await messageOf(jpeg)).toBe(creatorMessages.backgroundType);
    const tooMany = await send(await animatedGif(8, 8, 65), 'image/gif');
    expect(tooMany.status).toBe(422);
    expect(await messageOf(tooMany)).toBe(textureMessages.capeTooManyFrames);
  });

  it("head: the player's face on the cape, the helmet layer when ticked, shifted by the sliders", async () => {
    const plain = await pixelsOf(await jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/false', {}, PNG_ACCEPT));
    expect([plain.width, plain.height]).toEqual([128, 64]);
    // The face fills the front less a border: cape pixels (4..19, 8..23) at 2 per skin pixel.
    expect(pixelAt(plain, 6, 10)).toEqual([200, 150, 100, 255]);
    const helmet = await pixelsOf(await jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/true', {}, PNG_ACCEPT));
    expect(pixelAt(helmet, 6, 10)).toEqual([20, 40, 220, 255]);
    expect(pixelAt(helmet, 6, 22)).toEqual([200, 150, 100, 255]);
    const shifted = await pixelsOf(await jar.post('/api/gallery/head-capes/SkinPlayer/100/0/-100/0/false', {}, PNG_ACCEPT));
    expect(pixelAt(shifted, 6, 10)).toEqual([255, 150, 0, 255]);
    const dark = await pixelsOf(await jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/-100/false', {}, PNG_ACCEPT));
    expect(pixelAt(dark, 6, 10)).toEqual([0, 0, 0, 255]);
  });

  it('head: an unknown player or one without a skin is 404, a failing service 502, and bad input 422', async () => {
    expect((await jar.post('/api/gallery/head-capes/Nobody/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(404);
    expect((await jar.post('/api/gallery/head-capes/NoSkin/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(404);
    expect((await jar.post('/api/gallery/head-capes/SkinPlayer/101/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(422);
    expect((await jar.post('/api/gallery/head-capes/Skin-Player/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(422);
    expect((await jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/maybe', {}, PNG_ACCEPT)).status).toBe(422);
    services.failWith(500);
    try {
      expect((await jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(502);
    } finally {
      services.failWith(null);
    }
  });

  it('optifine: every design and custom colours make a cape with the fade and the mark', async () => {
    for (const design of ['standard', 'white', 'gray', 'black', 'red', 'green', 'blue', 'yellow', 'purple', 'cyan']) {
      const response = await jar.post(`/api/gallery/optifine-capes/${design}`, {}, PNG_ACCEPT);
      expect(response.status, design).toBe(200);
      expect((await pixelsOf(response)).width).toBe(128);
    }
    const custom = await pixelsOf(await jar.post('/api/gallery/optifine-capes/custom/ff0000/0000ff/ffffff/000000', {}, PNG_ACCEPT));
    expect(pixelAt(custom, 2, 0)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(custom, 2, 33)).toEqual([0, 0, 255, 255]);
    const markColours = new Set<string>();
    for (let y = 10; y < 22; y++) for (let x = 2; x < 22; x++) markColours.add(pixelAt(custom, x, y).join());
    expect(markColours).toContain('255,255,255,255');
    expect(markColours).toContain('0,0,0,255');
    expect((await jar.post('/api/gallery/optifine-capes/custom/ff0000/0000ff/fff/000000', {}, PNG_ACCEPT)).status).toBe(422);
  });

  it("optifine: a player's cape is placed on a 64 x 32 canvas; none is 404 and a failing server 502, both with the no-cape message", async () => {
    const cape = await pixelsOf(await jar.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`, {}, PNG_ACCEPT));
    expect([cape.width, cape.height]).toEqual([64, 32]);
    expect(pixelAt(cape, 45, 21)).toEqual([10, 200, 30, 255]);
    expect(pixelAt(cape, 50, 25)[3]).toBe(0);
    const none = await jar.post('/api/gallery/optifine-capes/NoCapeHere');
    expect(none.status).toBe(404);
    expect((await none.json()).error).toBe(creatorMessages.optifineNoCape);
    services.failWith(503);
    try {
      const down = await jar.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`);
      expect(down.status).toBe(502);
      expect((await down.json()).error).toBe(creatorMessages.optifineNoCape);
    } finally {
      services.failWith(null);
    }
  });

  it('banner: an lmc or pmc code drawn on the front, stretched or at its own shape, over the top-to-bottom fade', async () => {
    for (const [service, code] of [
      ['lmc', 'pabE'],
      ['pmc', 'g2v'],
    ]) {
      const scaled = await pixelsOf(await jar.post(`/api/gallery/banner-capes/${service}/${code}/ff0000/00ff00/scale`, {}, PNG_ACCEPT));
      expect([scaled.width, scaled.height], service).toEqual([256, 128]);
      // The front is (4, 4)-(44, 68): the red top stripe over the white banner.
      expect(pixelAt(scaled, 10, 6)).toEqual([176, 46, 38, 255]);
      expect(pixelAt(scaled, 10, 60)).toEqual([249, 255, 254, 255]);
      expect(pixelAt(scaled, 0, 0)).toEqual([255, 0, 0, 255]);
      expect(pixelAt(scaled, 0, 67)).toEqual([0, 255, 0, 255]);
      const top = await pixelsOf(await jar.post(`/api/gallery/banner-capes/${service}/${code}/ff0000/00ff00/top`, {}, PNG_ACCEPT));
      // At its own shape (20 x 40) in the middle of the front's width, one pixel from its top: the fade shows beside it.
      expect(pixelAt(top, 15, 6)).toEqual([176, 46, 38, 255]);
      expect(pixelAt(top, 15, 44)).toEqual([249, 255, 254, 255]);
      expect(pixelAt(top, 6, 6)).not.toEqual([176, 46, 38, 255]);
      const bottom = await pixelsOf(await jar.post(`/api/gallery/banner-capes/${service}/${code}/ff0000/00ff00/bottom`, {}, PNG_ACCEPT));
      expect(pixelAt(bottom, 15, 6)).not.toEqual(pixelAt(top, 15, 6));
    }
    for (const path of ['lmc/pa-bE/ff0000/00ff00/scale', 'xyz/pabE/ff0000/00ff00/scale', 'lmc/pabE/ff0000/00ff00/left', 'lmc/zz/ff0000/00ff00/scale']) {
      expect((await jar.post(`/api/gallery/banner-capes/${path}`, {}, PNG_ACCEPT)).status, path).toBe(422);
    }
  });

  it('use: wears a made cape (an animation with its strip) and the mod API follows', async () => {
    const made = (await (await jar.post('/api/gallery/optifine-capes/blue', {}, JSON_ACCEPT)).json()) as { hash: string };
    const used = await jar.post('/api/gallery/creations/use', { hash: made.hash });
    expect(used.status).toBe(200);
    const profile = (await (await fetch(`${suite.server.url}/profile/${uuid}`)).json()) as { cape_url: string };
    expect(profile.cape_url).toMatch(new RegExp(`/textures/${made.hash}$`));

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await animatedGif(20, 32, 2))], { type: 'image/gif' }), 'a.gif');
    form.append('scale', '1');
    const animated = (await (await jar.sendForm('POST', '/api/gallery/animated-cape-creator', form)).json()) as { hash: string };
    expect((await jar.post('/api/gallery/creations/use', { hash: animated.hash })).status).toBe(200);
    const row = await suite.server.db.selectFrom('users').select(['cape_hash', 'cape_strip_hash']).where('uuid', '=', uuid).executeTakeFirstOrThrow();
    expect(row.cape_strip_hash).toBe(animated.hash);
    expect(row.cape_hash).not.toBe(animated.hash);

    const gone = await jar.post('/api/gallery/creations/use', { hash: 'a'.repeat(64) });
    expect(gone.status).toBe(410);
    expect((await gone.json()).error).toBe(creatorMessages.expired);
  });

  it('share: a made cape becomes a gallery item with the title and tags, checked like an upload', async () => {
    const made = (await (await jar.post('/api/gallery/optifine-capes/purple', {}, JSON_ACCEPT)).json()) as { hash: string };
    const tags = (await (await jar.get('/api/gallery/tags')).json()) as Array<{ tag_key: string }>;
    const badTitle = await jar.post('/api/gallery/creations/share', { hash: made.hash, title: 'no!', tags: [tags[0]!.tag_key] });
    expect(badTitle.status).toBe(422);
    const shared = await jar.post('/api/gallery/creations/share', { hash: made.hash, title: 'Purple OF', tags: [tags[0]!.tag_key] });
    expect(shared.status).toBe(201);
    const item = (await (await jar.get(`/api/gallery/${made.hash}`)).json()) as { title?: string };
    expect(JSON.stringify(item)).toContain('Purple OF');
  });

  it("use, share and the preview take only the caller's own creation, within its lifetime, or a listed gallery item", async () => {
    const other = await loginNewUser(suite.server);
    const visitor = await newBrowser(suite.server);
    const expired = async (response: Response) => {
      expect(response.status).toBe(410);
      expect(await messageOf(response)).toBe(creatorMessages.expired);
    };
    const tags = (await (await jar.get('/api/gallery/tags')).json()) as Array<{ tag_key: string }>;
    const share = (who: CookieJar, hash: string) => who.post('/api/gallery/creations/share', { hash, title: 'Not mine', tags: [tags[0]!.tag_key] });
    const capeOf = async (player: string) =>
      (await suite.server.db.selectFrom('users').select('cape_hash').where('uuid', '=', player).executeTakeFirstOrThrow()).cape_hash;

    // Another player's fresh creation: neither worn, nor shared, nor previewed by anyone else.
    const made = (await (await jar.post('/api/gallery/optifine-capes/custom/0a0b0c/0c0b0a/ffffff/000000', {}, JSON_ACCEPT)).json()) as { hash: string };
    await expired(await other.jar.post('/api/gallery/creations/use', { hash: made.hash }));
    await expired(await share(other.jar, made.hash));
    expect((await other.jar.get(`/api/gallery/creations/${made.hash}/preview`)).status).toBe(404);
    expect((await visitor.get(`/api/gallery/creations/${made.hash}/preview`)).status).toBe(401);
    expect(await capeOf(other.uuid)).toBeNull();

    // A cape another player uploaded and wears.
    const wearer = await loginNewUser(suite.server);
    expect((await wearer.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(811)))).status).toBe(200);
    const worn = (await capeOf(wearer.uuid))!;
    await expired(await other.jar.post('/api/gallery/creations/use', { hash: worn }));
    await expired(await share(other.jar, worn));
    expect(await suite.server.db.selectFrom('gallery_items').select('hash').where('hash', '=', worn).executeTakeFirst()).toBeUndefined();
    expect(await capeOf(other.uuid)).toBeNull();

    // The maker's own creation, until its lifetime ends.
    expect((await jar.get(`/api/gallery/creations/${made.hash}/preview`)).status).toBe(200);
    expect((await jar.post('/api/gallery/creations/use', { hash: made.hash })).status).toBe(200);
    const old = (await (await jar.post('/api/gallery/optifine-capes/custom/0d0e0f/0f0e0d/ffffff/000000', {}, JSON_ACCEPT)).json()) as { hash: string };
    await suite.server.db
      .updateTable('creation_makers')
      .set({ made_at: Date.now() - 61 * 60_000 })
      .where('hash', '=', old.hash)
      .execute();
    await expired(await jar.post('/api/gallery/creations/use', { hash: old.hash }));
    await expired(await share(jar, old.hash));

    // A listed gallery item may be worn by anyone, and sharing it again says it exists.
    const author = await loginNewUser(suite.server);
    const listed = (await (await author.jar.post('/api/gallery/optifine-capes/custom/1a1b1c/1c1b1a/ffffff/000000', {}, JSON_ACCEPT)).json()) as {
      hash: string;
    };
    expect((await share(author.jar, listed.hash)).status).toBe(201);
    expect((await other.jar.post('/api/gallery/creations/use', { hash: listed.hash })).status).toBe(200);
    expect(await capeOf(other.uuid)).toBe(listed.hash);
    const again = await share(other.jar, listed.hash);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ existing: true });
    expect((await other.jar.get(`/api/gallery/creations/${listed.hash}/preview`)).status).toBe(200);

    // Once its author is banned, the item is hidden: nobody can wear it, learn from sharing that it exists, or see its preview.
    const admin = await loginNewUser(suite.server, undefined, { admin: true });
    const hiddenItem = (await (await author.jar.post('/api/gallery/optifine-capes/custom/2a2b2c/2c2b2a/ffffff/000000', {}, JSON_ACCEPT)).json()) as {
      hash: string;
    };
    expect((await share(author.jar, hiddenItem.hash)).status).toBe(201);
    expect((await admin.jar.post('/api/admin/user/ban', { uuid: author.uuid, confirm: true, reason: 'nsfw' })).status).toBe(200);
    await expired(await other.jar.post('/api/gallery/creations/use', { hash: hiddenItem.hash }));
    await expired(await share(other.jar, hiddenItem.hash));
    expect((await other.jar.get(`/api/gallery/creations/${hiddenItem.hash}/preview`)).status).toBe(404);
    expect((await visitor.get(`/api/gallery/creations/${hiddenItem.hash}/preview`)).status).toBe(401);
    expect((await admin.jar.get(`/api/gallery/creations/${hiddenItem.hash}/preview`)).status).toBe(200);
    // Even a player who makes the same picture himself does not learn from sharing it that a hidden item holds it.
    expect((await other.jar.post('/api/gallery/optifine-capes/custom/2a2b2c/2c2b2a/ffffff/000000', {}, JSON_ACCEPT)).status).toBe(200);
    await expired(await share(other.jar, hiddenItem.hash));
    expect(await capeOf(other.uuid)).toBe(listed.hash);
  });

  it('a made cape nobody wears or shares is swept after the grace period; a worn one stays', async () => {
    const made = (await (await jar.post('/api/gallery/optifine-capes/custom/123456/654321/ffffff/000000', {}, JSON_ACCEPT)).json()) as { hash: string };
    const worn = (await (await jar.post('/api/gallery/optifine-capes/custom/112233/332211/ffffff/000000', {}, JSON_ACCEPT)).json()) as { hash: string };
    // Another player who asks for the same cape makes it too (from the cache), so it is theirs to wear.
    const other = await loginNewUser(suite.server);
    expect((await other.jar.post('/api/gallery/optifine-capes/custom/112233/332211/ffffff/000000', {}, JSON_ACCEPT)).headers.get('x-creation-cache')).toBe(
      'hit',
    );
    expect((await other.jar.post('/api/gallery/creations/use', { hash: worn.hash })).status).toBe(200);
    const library = createTextureLibrary(suite.server.config, suite.server.db);
    const report = await sweepLeftovers(suite.server.db, library, { graceMs: 0, now: Date.now() + 1000 });
    expect(report.textures).toContain(made.hash);
    expect(report.textures).not.toContain(worn.hash);
    // Who made what is forgotten with the leftovers, so the record does not grow without end.
    expect(await suite.server.db.selectFrom('creation_makers').select('hash').where('hash', 'in', [made.hash, worn.hash]).execute()).toEqual([]);
  });
});
