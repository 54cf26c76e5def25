// The layouts other mods read (Cape Provider, CustomSkinLoader's Legacy, CustomSkinAPI and MinecraftCapesAPI loaders,
// OptiFine-style URLs), read back the way each mod reads them (tests/helpers/other-mods.ts), on both databases:
// statuses, types, sizes, frames, caching and invalidation.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { offlineUuid } from '../../../server/auth/player-ids.ts';
import { createBlobStore } from '../../../server/storage/index.ts';
import { derivedKey } from '../../../server/textures/library/texture-library.ts';
import { animatedGif, frameColour, sha256Hex, solidPng, timedGif } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { adminAndPlayerForSuite, startServer, serverForSuite } from '../../helpers/server.ts';
import { front, layoutPaths, MINECRAFT_CAPES_ROOT, onlinePlayer } from '../../helpers/mod-api.ts';
import { dashedUuid } from '../../../src/lib/ids.ts';
import {
  capeProviderDefault,
  capeProviderFetch,
  capeProviderFrameAt,
  capeProviderGif,
  capeProviderSprite,
  capeProviderUrl,
  customSkinApi,
  legacyTexture,
  legacyUrl,
  minecraftCapesApi,
} from '../../helpers/other-mods.ts';

async function upload(jar: CookieJar, bytes: Buffer, gif = false): Promise<string> {
  const response = await jar.upload(
    '/api/upload-cape',
    bytes,
    gif ? { type: 'image/gif', filename: 'cape.gif' } : undefined,
  );
  const body = (await response.json()) as { cape: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.cape;
}

describe.each(backends)('the layouts other mods read, on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  const accounts = adminAndPlayerForSuite(suite);
  const capes: Record<string, Buffer> = {};
  beforeAll(async () => {
    capes.still = await solidPng(64, 32, frameColour(1));
    capes.hd = await solidPng(128, 64, frameColour(2));
    capes.threeFrames = await animatedGif(64, 32, [frameColour(3), frameColour(4), frameColour(5)]);
    capes.other = await solidPng(64, 32, frameColour(6));
  });
  const url = (path: string) => `${suite.server.url}${path}`;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(url(path), { headers, redirect: 'manual' });

  it('gives Cape Provider default and CustomSkinLoader Legacy the still cape by name (any case), uuid and dashed uuid', async () => {
    const player = await onlinePlayer(suite.server);
    const capeUrl = await upload(player.jar, capes.hd!);
    const stored = Buffer.from(await (await get(new URL(capeUrl).pathname)).arrayBuffer());
    for (const template of ['/capes/$name.png', '/capes/§id.png', '/elytras/$id.png']) {
      const bytes = await capeProviderFetch(
        url(capeProviderUrl(template, { ...player, name: player.name.toUpperCase() })),
        player.uuid,
      );
      expect(bytes?.equals(stored), template).toBe(true);
      const seen = await capeProviderDefault(bytes!);
      expect([seen.canvas.width, seen.canvas.height]).toEqual([128, 64]);
      expect(seen.elytra, 'a 2:1 cape draws the elytra').toBe(true);
      expect(front(seen.canvas)).toEqual(frameColour(2));
    }
    for (const template of [
      '/capes/{USERNAME}.png',
      '/capes/{UUID}.png',
      '/capes/{STANDARD_UUID}.png',
      '/elytras/{USERNAME}.png',
      '/elytras/{STANDARD_UUID}.png',
    ]) {
      const bytes = await legacyTexture(url(legacyUrl(template, { ...player, name: player.name.toLowerCase() })));
      expect(bytes?.equals(stored), template).toBe(true);
    }
    const response = await get(`/capes/${player.name}.png`);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(response.headers.get('content-length'))).toBe(stored.length);
  });

  it("gives CustomSkinLoader's MinecraftCapesAPI the still cape's PNG in base64 at {root}{uuid}, as JSON", async () => {
    const player = await onlinePlayer(suite.server);
    const capeUrl = await upload(player.jar, capes.hd!);
    const stored = Buffer.from(await (await get(new URL(capeUrl).pathname)).arrayBuffer());
    const seen = await minecraftCapesApi(url(MINECRAFT_CAPES_ROOT), player.dashedUuid);
    expect(seen?.equals(stored), 'the stored cape, byte for byte').toBe(true);
    const response = await get(`${MINECRAFT_CAPES_ROOT}${player.uuid}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ textures: { cape: stored.toString('base64') } });
    // Every id the other layouts take works too (the loader only ever sends the undashed uuid).
    for (const id of [player.dashedUuid, player.name, player.name.toLowerCase(), player.uuid.toUpperCase()]) {
      const other = await get(`${MINECRAFT_CAPES_ROOT}${id}`);
      expect(other.status, id).toBe(200);
      expect((await other.json()) as unknown, id).toEqual({ textures: { cape: stored.toString('base64') } });
    }
  });

  it('gives the animation to the gif and sprite resolvers while it is on, its first frame to the still URLs, and one frame once it is off', async () => {
    const player = await onlinePlayer(suite.server, { animated: true });
    await upload(player.jar, capes.threeFrames!, true);
    const gif = await capeProviderFetch(url(capeProviderUrl('/capes/$id.gif', player)), player.uuid);
    const response = await get(`/capes/${player.name}.gif`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    const played = await capeProviderGif(gif!);
    expect(played.delays).toEqual([100, 100, 100]);
    expect(played.frames.map(front)).toEqual([frameColour(3), frameColour(4), frameColour(5)]);
    expect([played.frames[0]!.width, played.frames[0]!.height]).toEqual([64, 32]);

    const strip = await capeProviderFetch(url(capeProviderUrl('/capes/strip/$name.png', player)), player.uuid);
    expect((await sharp(strip!).metadata()).height).toBe(96);
    const sprite = await capeProviderSprite(strip!);
    expect(sprite.frames.map(front)).toEqual([frameColour(3), frameColour(4), frameColour(5)]);
    const profile = (await (await get(`/profile/${player.uuid}`)).json()) as { cape_url: string };
    expect(sha256Hex(strip!), 'the strip is what cape_url is').toBe(
      new URL(profile.cape_url).pathname.slice('/textures/'.length),
    );

    const still = await capeProviderDefault(
      (await capeProviderFetch(url(`/capes/${player.dashedUuid}.png`), player.uuid))!,
    );
    expect([still.canvas.width, still.canvas.height]).toEqual([64, 32]);
    expect(front(still.canvas)).toEqual(frameColour(3));
    // MinecraftCapesAPI shows what it decodes as a still cape: the first frame, never the strip.
    const decoded = (await minecraftCapesApi(url(MINECRAFT_CAPES_ROOT), player.uuid))!;
    expect((await sharp(decoded).metadata()).height).toBe(32);
    expect(front((await capeProviderDefault(decoded)).canvas)).toEqual(frameColour(3));

    // A moderator takes the animation away: the gif is one frame, the strip URL the still cape, at once.
    const off = await accounts.admin.jar.post('/api/admin/user/profile', { uuid: player.uuid, animatedCape: false });
    expect(off.status, await off.clone().text()).toBe(200);
    const oneFrame = await capeProviderGif((await capeProviderFetch(url(`/capes/${player.name}.gif`), player.uuid))!);
    expect(oneFrame.delays).toEqual([100]);
    expect(oneFrame.frames.map(front)).toEqual([frameColour(3)]);
    const stripOff = (await capeProviderFetch(url(`/capes/strip/${player.name}.png`), player.uuid))!;
    expect((await sharp(stripOff).metadata()).height).toBe(32);
  });

  it("serves the GIF at the strip's speed: a frame held for two ticks is one frame of 200 ms", async () => {
    const player = await onlinePlayer(suite.server, { animated: true });
    const uploaded = await timedGif(64, 32, [
      { colour: frameColour(8), delay: 200 },
      { colour: frameColour(9), delay: 100 },
    ]);
    await upload(player.jar, uploaded, true);
    const sprite = await capeProviderSprite(
      (await capeProviderFetch(url(`/capes/strip/${player.uuid}.png`), player.uuid))!,
    );
    expect(sprite.frames.map(front)).toEqual([frameColour(8), frameColour(8), frameColour(9)]);
    const played = await capeProviderGif((await capeProviderFetch(url(`/capes/${player.uuid}.gif`), player.uuid))!);
    expect(played.delays).toEqual([200, 100]);
    for (const [index, frame] of sprite.frames.entries())
      expect(front(played.frames[capeProviderFrameAt(played.delays, index * 100 + 50)]!), `tick ${index}`).toEqual(
        front(frame),
      );
  });

  it('makes the GIF of a cape when it is put on, keeps it beside the texture, and serves that one', async () => {
    const player = await onlinePlayer(suite.server);
    const capeUrl = await upload(player.jar, capes.still!);
    const hash = new URL(capeUrl).pathname.slice('/textures/'.length);
    const store = createBlobStore(suite.server.config);
    const made = await store.get(derivedKey(hash, 'gif'));
    expect(made, 'made by the upload, before anyone asked').not.toBeNull();
    const answers = await Promise.all(
      [0, 1, 2].map(async () => Buffer.from(await (await get(`/capes/${player.uuid}.gif`)).arrayBuffer())),
    );
    for (const answer of answers) expect(answer.equals(made!)).toBe(true);
    expect((await capeProviderGif(made!)).delays).toEqual([100]);
    // The GIF, held in memory since it was served, is never a texture: its blob key is not a texture URL.
    for (const layout of ['/textures', '/csl/textures'])
      expect((await get(`${layout}/${derivedKey(hash, 'gif')}`)).status, layout).toBe(404);
  });

  it('answers 404 with a body, never a redirect or an empty 2xx, to a player without a cape, an unknown, a banned player or a bad id', async () => {
    const bare = await onlinePlayer(suite.server);
    const banned = await onlinePlayer(suite.server);
    await upload(banned.jar, capes.other!);
    expect((await get(`/capes/${banned.name}.png`)).status).toBe(200);
    const ban = await accounts.admin.jar.post('/api/admin/user/ban', {
      uuid: banned.uuid,
      confirm: true,
      reason: 'nsfw',
    });
    expect(ban.status, await ban.clone().text()).toBe(200);
    for (const id of [
      bare.name,
      bare.uuid,
      banned.name,
      banned.dashedUuid,
      'NobodyHasThis',
      randomUUID(),
      'bad%20name',
      'a'.repeat(17),
    ]) {
      for (const path of layoutPaths(id)) {
        const response = await get(path);
        expect(response.status, path).toBe(404);
        expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
        expect(await response.json(), path).toEqual({ error: 'Not found' });
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
      }
    }
    expect(await customSkinApi(url('/csl/'), 'NobodyHasThis')).toBeNull();
    expect((await get('/csl/NobodyHasThis.json')).status).toBe(404);
    expect(await customSkinApi(url('/csl/'), bare.name), 'no cape: the loader goes on to its next entry').toBeNull();
    expect(await customSkinApi(url('/csl/'), banned.name)).toBeNull();
    for (const player of [bare, banned])
      expect(await minecraftCapesApi(url(MINECRAFT_CAPES_ROOT), player.uuid), player.name).toBeNull();
    // A player with ears but no cape shows something (a profile), and still nothing here.
    const earsOnly = await onlinePlayer(suite.server);
    const ears = await earsOnly.jar.upload('/api/upload-ears', await solidPng(14, 7, frameColour(7)));
    expect(ears.status, await ears.clone().text()).toBe(200);
    expect((await get(`/profile/${earsOnly.uuid}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const response = await get(`${MINECRAFT_CAPES_ROOT}${earsOnly.uuid}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found' });
    }
  });

  it('reaches an offline-mode player by name, whose offline uuid it does not know', async () => {
    const player = await onlinePlayer(suite.server);
    await upload(player.jar, capes.still!);
    const offline = offlineUuid(player.name);
    expect(
      await capeProviderFetch(url(`/capes/${dashedUuid(offline)}.png`), offline),
      'Cape Provider never asks for a version 3 uuid',
    ).toBeNull();
    expect((await get(`/capes/${offline}.png`)).status).toBe(404);
    expect(await legacyTexture(url(`/capes/${player.name.toLowerCase()}.png`))).not.toBeNull();
    expect(await customSkinApi(url('/csl/'), player.name.toUpperCase())).not.toBeNull();
  });

  it('gives CustomSkinAPI the cape and elytra hashes, read from {root}textures/{hash}', async () => {
    const player = await onlinePlayer(suite.server);
    const capeUrl = await upload(player.jar, capes.still!);
    const hash = new URL(capeUrl).pathname.slice('/textures/'.length);
    const response = await get(`/csl/${player.name.toLowerCase()}.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await response.json()).toEqual({ username: player.name, cape: hash, elytra: hash });
    const seen = (await customSkinApi(url('/csl/'), player.name))!;
    expect(seen).toEqual({ capeUrl: url(`/csl/textures/${hash}`), elytraUrl: url(`/csl/textures/${hash}`) });
    const texture = await get(`/csl/textures/${hash}`);
    expect(texture.status).toBe(200);
    expect(texture.headers.get('content-type')).toBe('image/png');
    expect(texture.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(sha256Hex(Buffer.from(await texture.arrayBuffer()))).toBe(hash);
    expect((await get(`/csl/textures/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await get('/csl/textures/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
  });

  it('answers 304 to the ETag and to If-Modified-Since on every per-player URL, and HEAD with the headers only', async () => {
    const player = await onlinePlayer(suite.server);
    await upload(player.jar, capes.still!);
    for (const path of [...layoutPaths(player.name), `/csl/${player.name}.json`, `/profile/${player.uuid}`]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const etag = response.headers.get('etag')!;
      const lastModified = response.headers.get('last-modified')!;
      expect(etag, path).toMatch(/^".+"$/);
      expect(Date.parse(lastModified), path).not.toBeNaN();
      for (const headers of [{ 'if-none-match': etag }, { 'if-modified-since': lastModified }] as Array<
        Record<string, string>
      >) {
        const again = await get(path, headers);
        expect(again.status, `${path} ${JSON.stringify(headers)}`).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
      }
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      expect((await get(path, { 'if-modified-since': earlier })).status, path).toBe(200);
      expect(
        (await get(path, { 'if-none-match': '"other"', 'if-modified-since': lastModified })).status,
        'the ETag decides when both are sent',
      ).toBe(200);
      const head = await fetch(url(path), { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type')).toBe(response.headers.get('content-type'));
      expect(await head.text()).toBe('');
    }
  });

  it('shows a new cape, a removed one and a deleted account at once on every layout', async () => {
    const player = await onlinePlayer(suite.server);
    const firstUrl = await upload(player.jar, capes.still!);
    const before = await get(`/capes/${player.name}.png`);
    const etag = before.headers.get('etag')!;
    expect(sha256Hex(Buffer.from(await before.arrayBuffer()))).toBe(new URL(firstUrl).pathname.slice(10));
    await get(`/capes/${player.name}.gif`);
    await get(`/csl/${player.name}.json`);

    const secondUrl = await upload(player.jar, capes.other!);
    const second = new URL(secondUrl).pathname.slice(10);
    const after = await get(`/capes/${player.name}.png`, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(sha256Hex(Buffer.from(await after.arrayBuffer()))).toBe(second);
    expect(
      front(
        (await capeProviderGif(Buffer.from(await (await get(`/capes/${player.name}.gif`)).arrayBuffer()))).frames[0]!,
      ),
    ).toEqual(frameColour(6));
    expect(((await (await get(`/csl/${player.name}.json`)).json()) as { cape: string }).cape).toBe(second);
    expect(sha256Hex((await minecraftCapesApi(url(MINECRAFT_CAPES_ROOT), player.uuid))!)).toBe(second);

    expect((await player.jar.request('DELETE', '/api/upload-cape')).status).toBe(200);
    for (const path of layoutPaths(player.name)) expect((await get(path)).status, path).toBe(404);
    expect(await customSkinApi(url('/csl/'), player.name)).toBeNull();

    await upload(player.jar, capes.still!);
    expect((await get(`/capes/${player.uuid}.png`)).status).toBe(200);
    expect((await player.jar.post('/api/account/delete', { confirm: true })).status).toBe(200);
    for (const path of layoutPaths(player.name)) expect((await get(path)).status, path).toBe(404);
    expect((await get(`/csl/${player.name}.json`)).status).toBe(404);
  });

  it('answers a request that asks to upgrade to h2c (as Cape Provider sends over plain http) as a normal request', async () => {
    const player = await onlinePlayer(suite.server);
    await upload(player.jar, capes.still!);
    const { port } = new URL(suite.server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
      socket.write(
        [
          `GET /capes/${player.dashedUuid}.png HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Connection: Upgrade, HTTP2-Settings, close',
          'Upgrade: h2c',
          'HTTP2-Settings: AAEAAEAAAAIAAAAAAAMAAAAAAAQBAAAAAAUAAEAA',
          'User-Agent: CP',
          '',
          '',
        ].join('\r\n'),
      );
    });
    const [head, ...rest] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/\r\ncontent-type: image\/png\r\n/i);
    expect(Buffer.from(rest.join('\r\n\r\n'), 'latin1').subarray(1, 4).toString()).toBe('PNG');
  });

  it('keeps every layout answering in maintenance mode', async () => {
    const player = await onlinePlayer(suite.server);
    await upload(player.jar, capes.still!);
    const maintenance = await startServer(suite.database.url, {
      MAINTENANCE: 'true',
      DATA_DIR: suite.server.config.dataDir,
    });
    try {
      expect((await fetch(`${maintenance.url}/api/home`)).status).toBe(503);
      for (const path of [...layoutPaths(player.name), `/csl/${player.name}.json`])
        expect((await fetch(`${maintenance.url}${path}`)).status, path).toBe(200);
    } finally {
      await maintenance.close();
    }
  });
});
