// Once a moderator removes a picture, no route answers it to the public any more, on both databases: the routes that
// answer pictures (an image/* answer, or JSON whose schema holds an image/* string, such as a base64 PNG) are found by
// walking the API description, and each needs a case here that serves the picture to a player, removes it through one
// of the moderators' real removal paths and asks again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { BLOCKLISTED_MESSAGE } from '../../../server/textures/library/blocklist.ts';
import { backends } from '../../../support/backends.ts';
import { blobsDesign, designGif, designPng } from '../../../support/textures.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { CAPE_PLAYER, PNG_ACCEPT, startCreatorServices } from '../../helpers/creators.ts';
import { galleryForm } from '../../helpers/gallery.ts';
import { startOpenAiImagesStandIn } from '../../helpers/openai-images.ts';
import { loginNewUser, serverForSuite, type LoggedIn } from '../../helpers/server.ts';
import {
  describeAnswer,
  expectPicture,
  expectRefused,
  isPicture,
  once,
  pictureRoutesOf,
  REMOVAL_PATHS,
  removeOnEditUser,
  removeOnGalleryReport,
  removeOnPlayerReport,
  type ApiDescription,
  type Case,
} from '../../helpers/served-pictures.ts';

const AI_KEY = 'sk-test-served-pictures';
const services = await startCreatorServices();
const images = await startOpenAiImagesStandIn({ apiKey: AI_KEY });
afterAll(() => images.close());

describe.each(backends)('served pictures on $name', (backend) => {
  const suite = serverForSuite(backend, {
    MOJANG_API_URL: services.url,
    MOJANG_SESSION_URL: services.url,
    OPTIFINE_CAPES_URL: services.url,
    // The stand-ins are on 127.0.0.1.
    OUTSIDE_URLS_ALLOW_PRIVATE: 'true',
    AI_API_URL: images.url,
    AI_API_KEY: AI_KEY,
    AI_PROMPTS_PER_HOUR: '1000',
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
    CREATOR_CALLS_PER_MINUTE: '1000',
    GALLERY_DOWNLOADS_PER_MINUTE: '1000',
  });
  let admin: LoggedIn;
  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
  });

  /** A GET without a session, as a game or another mod asks. */
  const publicGet = (path: string) => fetch(`${suite.server.url}${path}`, { redirect: 'manual' });

  /** A new player who owns the animated cape feature, so the strip layouts serve their animation. */
  async function animatedPlayer(): Promise<LoggedIn> {
    const player = await loginNewUser(suite.server);
    await suite.server.db.insertInto('premium').values({ user_uuid: player.uuid, animated: 1 }).execute();
    return player;
  }

  /** Uploads a cape (a GIF when `gif`) or ears as the player; the upload must be accepted. */
  async function uploadTexture(jar: CookieJar, slot: 'cape' | 'ears', bytes: Buffer, gif = false): Promise<void> {
    const response = await jar.upload(
      `/api/upload-${slot}`,
      bytes,
      gif ? { type: 'image/gif', filename: 'cape.gif' } : undefined,
    );
    expect(response.status, await response.clone().text()).toBe(200);
  }

  /** The texture hashes a player wears. */
  function wornHashes(uuid: string) {
    return suite.server.db
      .selectFrom('users')
      .select(['cape_hash', 'cape_strip_hash', 'ears_hash'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
  }

  /**
   * Two players wearing the same animated cape (still and strip), each with the animation on; the cape is removed on a
   * player report against the first one. Answers the players and the hashes.
   */
  const wornCape = once(async () => {
    const picture = await designGif(64, 32, [blobsDesign(101), blobsDesign(102), blobsDesign(103)]);
    const first = await animatedPlayer();
    const second = await animatedPlayer();
    await uploadTexture(first.jar, 'cape', picture, true);
    await uploadTexture(second.jar, 'cape', picture, true);
    const worn = await wornHashes(first.uuid);
    expect(await wornHashes(second.uuid), 'the same bytes are the same textures').toEqual(worn);
    expect(worn.cape_strip_hash, 'an animated cape has its strip').toBeTruthy();
    return { players: [first, second], still: worn.cape_hash!, strip: worn.cape_strip_hash! };
  });

  /**
   * Every URL of a route for the worn cape: asked (twice: the second from the caches and the fast path) before the
   * removal, which runs once for all the mod routes' cases, then asked again after it.
   */
  const wornCapeRemoval = once(async () => {
    const cape = await wornCape();
    const urls = (route: string) => modCapeUrls[route]!(cape);
    for (const route of Object.keys(modCapeUrls))
      for (const url of urls(route)) {
        await expectPicture(await publicGet(url), `before: ${url}`);
        await expectPicture(await publicGet(url), `before, cached: ${url}`);
      }
    await removeOnPlayerReport(suite.server, admin, cape.players[0]!.uuid);
    return urls;
  });

  /** The URLs of each mod route that serves the worn cape, by both players' uuid and name. */
  const modCapeUrls: Record<string, (cape: Awaited<ReturnType<typeof wornCape>>) => string[]> = {
    'GET /profile/{id}/cape': ({ players }) => players.map((player) => `/profile/${player.uuid}/cape`),
    'GET /textures/{hash}': ({ still, strip }) => [`/textures/${still}`, `/textures/${strip}.png`],
    'GET /csl/textures/{hash}': ({ still, strip }) => [`/csl/textures/${still}`, `/csl/textures/${strip}.png`],
    'GET /capes/{id}.png': ({ players }) =>
      players.flatMap((p) => [`/capes/${p.uuid}.png`, `/capes/${p.username}.png`]),
    'GET /capes/strip/{id}.png': ({ players }) =>
      players.flatMap((p) => [`/capes/strip/${p.uuid}.png`, `/capes/strip/${p.username}.png`]),
    'GET /capes/{id}.gif': ({ players }) =>
      players.flatMap((p) => [`/capes/${p.uuid}.gif`, `/capes/${p.username}.gif`]),
    'GET /elytras/{id}.png': ({ players }) =>
      players.flatMap((p) => [`/elytras/${p.uuid}.png`, `/elytras/${p.username}.png`]),
    'GET /csl-minecraftcapes/{id}': ({ players }) =>
      players.flatMap((p) => [`/csl-minecraftcapes/${p.uuid}`, `/csl-minecraftcapes/${p.username}`]),
  };

  /** A mod route's case: every URL of the worn cape answers 404 once it was removed on a player report. */
  const modCapeCase = (route: string): Case => ({
    removals: ['player report: REMOVE'],
    run: async () => {
      const urls = await wornCapeRemoval();
      for (const url of urls(route)) await expectRefused(await publicGet(url), 404, 'Not found', `after: ${url}`);
    },
  });

  /**
   * Two gallery items (a still cape, removed on a gallery report, and an animated one, removed by a moderator's
   * Delete), each worn by a player; every gallery picture route asked by a player before and after the removals.
   */
  const galleryRemoval = once(async () => {
    const author = await loginNewUser(suite.server);
    const viewer = await loginNewUser(suite.server);
    const upload = async (file: Buffer, type: string) => {
      const form = galleryForm({ title: 'Served picture', tags: ['cute'], file, type });
      const response = await author.jar.sendForm('POST', '/api/gallery/new', form);
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as { hash: string }).hash;
    };
    const still = await upload(await designPng(64, 32, blobsDesign(201)), 'image/png');
    const animated = await upload(await designGif(64, 32, [blobsDesign(202), blobsDesign(203)]), 'image/gif');
    const wearers: LoggedIn[] = [];
    for (const hash of [still, animated]) {
      const wearer = await loginNewUser(suite.server);
      const worn = await wearer.jar.post('/api/gallery/wear', { hash });
      expect(worn.status, await worn.clone().text()).toBe(200);
      expect((await publicGet(`/profile/${wearer.uuid}`)).status, 'the wearer shows the item').toBe(200);
      wearers.push(wearer);
    }
    const page = (await (await viewer.jar.get(`/api/gallery/user/${author.uuid}`)).json()) as {
      gallery: { data: Array<{ hash: string }> };
    };
    expect(page.gallery.data.map((item) => item.hash).sort(), "on the author's page").toEqual([still, animated].sort());
    const listed = (await (await viewer.jar.get('/api/gallery/get')).json()) as { data: Array<{ hash: string }> };
    expect(listed.data.map((item) => item.hash).sort(), 'in the gallery').toEqual([still, animated].sort());
    const urls = (route: string) => galleryUrls[route]!([still, animated]);
    for (const route of Object.keys(galleryUrls))
      for (const url of urls(route)) await expectPicture(await viewer.jar.get(url), `before: ${url}`);
    await removeOnGalleryReport(suite.server, admin, still);
    const deleted = await admin.jar.post('/api/gallery/delete', { hash: animated, reason: 'nsfw' });
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    return { author, viewer, wearers, hashes: [still, animated], urls };
  });

  /** The URLs of each gallery picture route for the two items. */
  const galleryUrls: Record<string, (hashes: string[]) => string[]> = {
    'GET /api/gallery/{hash}/preview': (hashes) => hashes.map((hash) => `/api/gallery/${hash}/preview`),
    'GET /api/gallery/{hash}/preview/map': (hashes) => hashes.map((hash) => `/api/gallery/${hash}/preview/map`),
    'GET /api/gallery/{hash}/download': (hashes) => hashes.map((hash) => `/api/gallery/${hash}/download`),
  };

  /** A gallery route's case: both removed items answer 404 to a player. */
  const galleryCase = (route: string): Case => ({
    removals: ['gallery report: REMOVE', "moderator's gallery Delete"],
    run: async () => {
      const { viewer, urls } = await galleryRemoval();
      for (const url of urls(route))
        await expectRefused(await viewer.jar.get(url), 404, galleryMessages.noSuchTexture, `after: ${url}`);
    },
  });

  /**
   * A creator's case: a player makes a cape (the picture, with its hash in x-texture-hash), wears it, a moderator
   * deletes it on the edit user page, and the same request then answers the blocklist's refusal, not the picture.
   */
  const creatorCase = (send: (jar: CookieJar) => Promise<Response>): Case => ({
    removals: ['edit user: delete cape'],
    run: async () => {
      const maker = await loginNewUser(suite.server);
      const made = await send(maker.jar);
      await expectPicture(made, 'the creation');
      const hash = made.headers.get('x-texture-hash')!;
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      const used = await maker.jar.post('/api/gallery/creations/use', { hash });
      expect(used.status, await used.clone().text()).toBe(200);
      await removeOnEditUser(admin, maker.uuid, 'cape');
      await expectRefused(await send(maker.jar), 422, BLOCKLISTED_MESSAGE, 'the same request after the removal');
    },
  });

  /** The image to cape creator's form for one picture. */
  const capeCreatorForm = (picture: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'picture.png');
    for (const [name, value] of Object.entries({ scale: '1', color: '00ff00', elytra: 'false' }))
      form.append(name, value);
    return form;
  };
  let creatorPicture: Buffer;
  beforeAll(async () => {
    creatorPicture = await designPng(40, 64, blobsDesign(301));
  });

  /** The AI creator's prompt in this file. */
  const AI_PROMPT = 'a picture a moderator removes';
  /** Asks the AI creator for the picture of AI_PROMPT. */
  const askAi = (jar: CookieJar) => jar.post('/api/gallery/ai-cape-creator', { prompt: AI_PROMPT }, PNG_ACCEPT);

  /**
   * An AI creation worn by its maker, with its log entry (whose picture the moderator sees, and a player may not), and
   * removed on the edit user page.
   */
  const aiRemoval = once(async () => {
    images.setBehaviour({ kind: 'image' });
    images.setImage({ width: 1024, height: 1024, background: '#3c1e64', square: '#14c8a0' });
    const maker = await loginNewUser(suite.server);
    const made = await askAi(maker.jar);
    await expectPicture(made, 'the AI creation');
    const hash = made.headers.get('x-texture-hash')!;
    const log = (await (await admin.jar.get('/api/admin/ai-cape-logs')).json()) as {
      logs: Array<{ id: number; request_head: string }>;
    };
    const entry = log.logs.find((row) => row.request_head === AI_PROMPT);
    expect(entry, 'the request is logged').toBeDefined();
    const logUrl = `/api/admin/ai-cape-logs/${entry!.id}`;
    await expectPicture(await admin.jar.get(logUrl), 'the log picture, to the moderator, before');
    expect((await maker.jar.get(logUrl)).status, 'the log picture, to a player, before').toBe(403);
    const used = await maker.jar.post('/api/gallery/creations/use', { hash });
    expect(used.status, await used.clone().text()).toBe(200);
    await removeOnEditUser(admin, maker.uuid, 'cape');
    return { maker, logUrl };
  });

  /** Every route that answers a picture, by "METHOD path" as the API description writes it. */
  const cases: Record<string, Case> = {
    'GET /profile/{id}/cape': modCapeCase('GET /profile/{id}/cape'),
    'GET /profile/{id}/ears': {
      removals: ['edit user: delete ears'],
      run: async () => {
        const ears = await designPng(14, 7, blobsDesign(401));
        const players = [await loginNewUser(suite.server), await loginNewUser(suite.server)];
        for (const player of players) await uploadTexture(player.jar, 'ears', ears);
        const { ears_hash: hash } = await wornHashes(players[0]!.uuid);
        // Both players' ears, and the ears' texture by its hash.
        const urls = [...players.map((player) => `/profile/${player.uuid}/ears`), `/textures/${hash}`];
        for (const url of urls) {
          await expectPicture(await publicGet(url), `before: ${url}`);
          await expectPicture(await publicGet(url), `before, cached: ${url}`);
        }
        await removeOnEditUser(admin, players[0]!.uuid, 'ears');
        for (const url of urls) await expectRefused(await publicGet(url), 404, 'Not found', `after: ${url}`);
      },
    },
    'GET /textures/{hash}': modCapeCase('GET /textures/{hash}'),
    'GET /csl/textures/{hash}': modCapeCase('GET /csl/textures/{hash}'),
    'GET /capes/{id}.png': modCapeCase('GET /capes/{id}.png'),
    'GET /capes/strip/{id}.png': modCapeCase('GET /capes/strip/{id}.png'),
    'GET /capes/{id}.gif': modCapeCase('GET /capes/{id}.gif'),
    'GET /elytras/{id}.png': modCapeCase('GET /elytras/{id}.png'),
    'GET /csl-minecraftcapes/{id}': modCapeCase('GET /csl-minecraftcapes/{id}'),
    // The moderators' evidence view: the log keeps showing the moderator the picture a removal took off the public
    // routes (it reads it with `read`), while a player was never let in.
    'GET /api/admin/ai-cape-logs/{id}': {
      removals: ['edit user: delete cape'],
      run: async () => {
        const { maker, logUrl } = await aiRemoval();
        const refused = await maker.jar.get(logUrl);
        expect(await isPicture(refused), await describeAnswer(refused)).toBe(false);
        expect(refused.status).toBe(403);
        await expectPicture(await admin.jar.get(logUrl), 'the log picture, to the moderator, after the removal');
      },
    },
    'GET /api/gallery/{hash}/preview': galleryCase('GET /api/gallery/{hash}/preview'),
    'GET /api/gallery/{hash}/preview/map': galleryCase('GET /api/gallery/{hash}/preview/map'),
    'GET /api/gallery/{hash}/download': galleryCase('GET /api/gallery/{hash}/download'),
    'POST /api/gallery/cape-creator': creatorCase((jar) =>
      jar.sendForm('POST', '/api/gallery/cape-creator', capeCreatorForm(creatorPicture), { headers: PNG_ACCEPT }),
    ),
    'POST /api/gallery/head-capes/{username}/{red}/{green}/{blue}/{brightness}/{helmetOverlay}': creatorCase((jar) =>
      jar.post('/api/gallery/head-capes/SkinPlayer/10/0/0/0/true', {}, PNG_ACCEPT),
    ),
    'POST /api/gallery/optifine-capes/custom/{top}/{bottom}/{text}/{shadow}': creatorCase((jar) =>
      jar.post('/api/gallery/optifine-capes/custom/ff0000/0000ff/ffffff/000000', {}, PNG_ACCEPT),
    ),
    'POST /api/gallery/optifine-capes/{name}': creatorCase((jar) =>
      jar.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`, {}, PNG_ACCEPT),
    ),
    'POST /api/gallery/banner-capes/{service}/{bannerId}/{top}/{bottom}/{alignment}': creatorCase((jar) =>
      jar.post('/api/gallery/banner-capes/lmc/pabE/ff0000/00ff00/scale', {}, PNG_ACCEPT),
    ),
    'POST /api/gallery/ai-cape-creator': {
      removals: ['edit user: delete cape'],
      run: async () => {
        const { maker } = await aiRemoval();
        await expectRefused(await askAi(maker.jar), 422, BLOCKLISTED_MESSAGE, 'the same prompt after the removal');
      },
    },
    'GET /api/gallery/creations/{hash}/preview': {
      removals: ['edit user: delete cape'],
      run: async () => {
        const maker = await loginNewUser(suite.server);
        const form = capeCreatorForm(await designPng(40, 64, blobsDesign(302)));
        const made = await maker.jar.sendForm('POST', '/api/gallery/cape-creator', form, { headers: PNG_ACCEPT });
        await expectPicture(made, 'the creation');
        const hash = made.headers.get('x-texture-hash')!;
        const url = `/api/gallery/creations/${hash}/preview`;
        await expectPicture(await maker.jar.get(url), 'the preview, before');
        const used = await maker.jar.post('/api/gallery/creations/use', { hash });
        expect(used.status, await used.clone().text()).toBe(200);
        await removeOnEditUser(admin, maker.uuid, 'cape');
        await expectRefused(await maker.jar.get(url), 404, creatorMessages.expired, 'the preview, to its maker, after');
      },
    },
  };

  let pictureRoutes: string[] = [];
  beforeAll(async () => {
    pictureRoutes = pictureRoutesOf((await (await publicGet('/api/openapi.json')).json()) as ApiDescription);
  });

  it('has a case for every route that answers a picture, and none for a route that is gone', () => {
    console.log(
      `routes answering pictures on ${backend.name}:\n${pictureRoutes.map((route) => `  ${route}`).join('\n')}`,
    );
    expect(pictureRoutes.length, 'the walk found the picture routes').toBeGreaterThan(0);
    expect(
      pictureRoutes.filter((route) => !(route in cases)),
      'routes answering pictures without a case',
    ).toEqual([]);
    expect(
      Object.keys(cases).filter((route) => !pictureRoutes.includes(route)),
      'cases naming no route',
    ).toEqual([]);
    const used = new Set(Object.values(cases).flatMap((entry) => entry.removals));
    expect(
      REMOVAL_PATHS.filter((path) => !used.has(path)),
      'removal paths no case takes',
    ).toEqual([]);
  });

  for (const [route, entry] of Object.entries(cases))
    it(`${route} stops serving a picture removed by ${entry.removals.join(' and ')}`, () => entry.run());

  it('removed gallery items leave the listings, cannot be liked, and their wearers show nothing', async () => {
    const { author, viewer, wearers, hashes } = await galleryRemoval();
    const listed = (await (await viewer.jar.get('/api/gallery/get')).json()) as { data: Array<{ hash: string }> };
    expect(listed.data.map((item) => item.hash).filter((hash) => hashes.includes(hash))).toEqual([]);
    const page = (await (await viewer.jar.get(`/api/gallery/user/${author.uuid}`)).json()) as {
      gallery: { data: Array<{ hash: string }>; total: number };
    };
    expect(page.gallery.data.map((item) => item.hash)).toEqual([]);
    for (const hash of hashes)
      await expectRefused(
        await viewer.jar.post('/api/gallery/like', { hash }),
        404,
        galleryMessages.noSuchTexture,
        `like ${hash}`,
      );
    for (const wearer of wearers)
      await expectRefused(await publicGet(`/profile/${wearer.uuid}`), 404, 'Not found', `the wearer's profile`);
  });
});
