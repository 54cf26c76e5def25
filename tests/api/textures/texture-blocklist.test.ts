// API tests for the blocklist of removed pictures, on both databases: what a moderator removes (gallery report REMOVE,
// player report REMOVE, the edit user cape delete) is refused at every upload afterwards, also re-saved or nudged, with
// nothing stored; an unrelated picture still goes through.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDIT_USER_REMOVAL_REASON } from '../../../server/admin/players.ts';
import { BLOCKLISTED_MESSAGE } from '../../../server/textures/library/blocklist.ts';
import { NO_PERCEPTUAL_HASH, perceptualHash } from '../../../server/textures/pipeline/perceptual-hash.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';
import {
  blobsDesign,
  designGif,
  designPng,
  reencodedGif,
  shiftedPng,
  solidPng,
  withChangedPixels,
} from '../../../support/textures.ts';

type Player = { jar: CookieJar; uuid: string; username: string };

describe.each(backends)('texture blocklist on $name', (backend) => {
  const suite = serverForSuite(backend, {
    GALLERY_UPLOADS_PER_10_MINUTES: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
  });
  let admin: Player;
  let reporter: Player;
  let uploader: Player;

  beforeAll(async () => {
    admin = await loginNewUser(suite.server, undefined, { admin: true });
    reporter = await loginNewUser(suite.server);
    uploader = await loginNewUser(suite.server);
  });

  const galleryUpload = (player: Player, png: Buffer, type = 'image/png') => {
    const form = new FormData();
    form.append('title', 'Blocklist test');
    form.append('tags', JSON.stringify(['cute']));
    form.append(
      'file',
      new Blob([new Uint8Array(png)], { type }),
      type === 'image/gif' ? 'texture.gif' : 'texture.png',
    );
    return player.jar.sendForm('POST', '/api/gallery/new', form);
  };
  const capeUpload = (player: Player, bytes: Buffer, type = 'image/png') =>
    player.jar.upload('/api/upload-cape', bytes, { type, filename: type === 'image/gif' ? 'cape.gif' : 'cape.png' });

  /** The textures rows and stored files, to see that a refusal stored nothing. */
  async function stored(): Promise<{ rows: number; files: number }> {
    const rows = (await suite.server.db.selectFrom('textures').select('hash').execute()).length;
    const directory = path.join(suite.server.config.dataDir, 'textures');
    const files = fs.existsSync(directory)
      ? fs.readdirSync(directory, { recursive: true }).filter((name) => String(name).endsWith('.png')).length
      : 0;
    return { rows, files };
  }

  /** Expects a cape upload to be refused with the blocklist message. */
  async function expectCapeRefused(response: Response): Promise<void> {
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ success: false, msg: BLOCKLISTED_MESSAGE });
  }

  /** Expects a gallery upload to be refused with the blocklist message. */
  async function expectGalleryRefused(response: Response): Promise<void> {
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: BLOCKLISTED_MESSAGE });
  }

  const blocklist = (hash: string) =>
    suite.server.db
      .selectFrom('texture_blocklist')
      .select(['hash', 'phash', 'reason', 'admin_uuid'])
      .where('hash', '=', hash)
      .executeTakeFirst();

  it('after a gallery report REMOVE refuses the same file, a re-saved and a nudged copy at gallery and cape upload, storing nothing; an unrelated cape goes through', async () => {
    const author = await loginNewUser(suite.server);
    const picture = await designPng(64, 32, blobsDesign(1), 'cape-and-elytra');
    const created = await galleryUpload(author, picture);
    expect(created.status).toBe(201);
    const { hash } = (await created.json()) as { hash: string };
    expect((await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
    const report = await suite.server.db
      .selectFrom('gallery_reports')
      .select('id')
      .where('hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(
      (await admin.jar.post('/api/admin/reports/gallery', { id: report.id, action: 'REMOVE', reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await blocklist(hash)).toEqual({
      hash,
      phash: expect.stringMatching(/^[0-7][0-9a-f]{15}$/),
      reason: 'NSFW or NSFL image',
      admin_uuid: admin.uuid,
    });

    const before = await stored();
    await expectGalleryRefused(await galleryUpload(uploader, picture));
    await expectGalleryRefused(await galleryUpload(uploader, await reencodedGif(picture), 'image/gif'));
    await expectCapeRefused(await capeUpload(uploader, picture));
    await expectCapeRefused(await capeUpload(uploader, await shiftedPng(await withChangedPixels(picture, 2, 5), 1, 1)));
    await expectCapeRefused(await capeUpload(author, await shiftedPng(picture, 2, 0)));
    expect(await stored()).toEqual(before);

    const unrelated = await designPng(64, 32, blobsDesign(7), 'cape-and-elytra');
    expect((await capeUpload(uploader, unrelated)).status).toBe(200);
    expect((await galleryUpload(uploader, unrelated)).status).toBe(201);
  });

  it('refuses a copy of a picture that a moderator on another host blocklisted after this host last checked', async () => {
    const picture = await designPng(64, 32, blobsDesign(10), 'cape-and-elytra');
    // A first upload: this host has read the blocklist since.
    expect((await capeUpload(uploader, await designPng(64, 32, blobsDesign(12), 'cape-and-elytra'))).status).toBe(200);
    // Another host's removal writes its row: this host hears nothing of it.
    await suite.server.db
      .insertInto('texture_blocklist')
      .values({
        hash: 'b'.repeat(64),
        phash: await perceptualHash(picture),
        reason: 'nsfw',
        admin_uuid: admin.uuid,
        created_at: Date.now(),
      })
      .execute();
    const before = await stored();
    await expectCapeRefused(await capeUpload(uploader, await shiftedPng(picture, 1, 0)));
    await expectGalleryRefused(await galleryUpload(reporter, await withChangedPixels(picture, 3, 8)));
    expect(await stored()).toEqual(before);
  });

  it('after a gallery report BAN refuses the animation by its strip and by its first frame', async () => {
    const author = await loginNewUser(suite.server);
    const animation = await designGif(64, 32, [blobsDesign(2), blobsDesign(3)], 'cape');
    const created = await galleryUpload(author, animation, 'image/gif');
    expect(created.status).toBe(201);
    const { hash } = (await created.json()) as { hash: string };
    expect((await reporter.jar.post('/api/gallery/report', { hash, tac: true, reason: 'nsfw' })).status).toBe(200);
    const report = await suite.server.db
      .selectFrom('gallery_reports')
      .select('id')
      .where('hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(
      (await admin.jar.post('/api/admin/reports/gallery', { id: report.id, action: 'BAN', reason: 'hate' })).status,
    ).toBe(200);
    expect((await blocklist(hash))?.reason).toBe('Sexism, racism or other hateful content');

    await expectGalleryRefused(await galleryUpload(uploader, animation, 'image/gif'));
    await expectCapeRefused(await capeUpload(uploader, animation, 'image/gif'));
    await expectCapeRefused(await capeUpload(uploader, await designPng(64, 32, blobsDesign(2), 'cape')));
  });

  it("after a player report REMOVE refuses the player's cape for everyone, and the plain ears by their content", async () => {
    const target = await loginNewUser(suite.server);
    const cape = await designPng(64, 32, blobsDesign(4), 'full');
    const ears = await solidPng(14, 7, [90, 40, 200, 255]);
    expect((await capeUpload(target, cape)).status).toBe(200);
    expect((await target.jar.upload('/api/upload-ears', ears)).status).toBe(200);
    expect(
      (await reporter.jar.post('/api/user/report', { uuid: target.uuid, terms: true, reason: 'nsfw' })).status,
    ).toBe(200);
    const report = await suite.server.db
      .selectFrom('user_reports')
      .select(['id', 'cape_hash', 'ears_hash'])
      .where('user_uuid', '=', target.uuid)
      .executeTakeFirstOrThrow();
    expect(
      (await admin.jar.post('/api/admin/reports/user', { id: report.id, action: 'REMOVE', reason: 'drugs' })).status,
    ).toBe(200);
    expect((await blocklist(report.cape_hash!))?.reason).toBe('Promotes drugs');
    // Plain ears are too simple to recognise by their look: they are blocked by their content alone.
    expect((await blocklist(report.ears_hash!))?.phash).toBe(NO_PERCEPTUAL_HASH);

    const before = await stored();
    await expectCapeRefused(await capeUpload(target, cape));
    await expectCapeRefused(await capeUpload(uploader, cape));
    await expectCapeRefused(await capeUpload(uploader, await withChangedPixels(cape, 3, 2)));
    await expectGalleryRefused(await galleryUpload(uploader, cape));
    const earsAgain = await uploader.jar.upload('/api/upload-ears', ears);
    expect(earsAgain.status).toBe(422);
    expect(await earsAgain.json()).toEqual({ success: false, msg: BLOCKLISTED_MESSAGE });
    expect(await stored()).toEqual(before);
    expect((await uploader.jar.upload('/api/upload-ears', await solidPng(14, 7, [91, 40, 200, 255]))).status).toBe(200);
  });

  it('refuses to wear or share a creation made before a near-duplicate of it was blocklisted', async () => {
    const maker = await loginNewUser(suite.server);
    const author = await loginNewUser(suite.server);
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await designPng(64, 32, blobsDesign(9), 'full'))], { type: 'image/png' }),
      'picture.png',
    );
    form.append('scale', '1');
    form.append('color', '000000');
    const made = await maker.jar.sendForm('POST', '/api/gallery/cape-creator', form, {
      headers: { accept: 'application/json' },
    });
    expect(made.status).toBe(200);
    const { hash, cape } = (await made.json()) as { hash: string; cape: string };
    const bytes = Buffer.from(await (await fetch(new URL(new URL(cape).pathname, suite.server.url))).arrayBuffer());

    const created = await galleryUpload(author, await withChangedPixels(bytes, 3, 4));
    expect(created.status).toBe(201);
    const nearCopy = ((await created.json()) as { hash: string }).hash;
    expect((await reporter.jar.post('/api/gallery/report', { hash: nearCopy, tac: true, reason: 'nsfw' })).status).toBe(
      200,
    );
    const report = await suite.server.db
      .selectFrom('gallery_reports')
      .select('id')
      .where('hash', '=', nearCopy)
      .executeTakeFirstOrThrow();
    expect(
      (await admin.jar.post('/api/admin/reports/gallery', { id: report.id, action: 'REMOVE', reason: 'nsfw' })).status,
    ).toBe(200);
    expect(await blocklist(hash)).toBeUndefined();

    for (const response of [
      await maker.jar.post('/api/gallery/creations/use', { hash }),
      await maker.jar.post('/api/gallery/creations/share', { hash, title: 'Blocklist test', tags: ['cute'] }),
    ]) {
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ error: BLOCKLISTED_MESSAGE });
    }
  });

  it('the edit user cape delete blocklists the cape, an animated one with its strip', async () => {
    const target = await loginNewUser(suite.server);
    const animation = await designGif(64, 32, [blobsDesign(5), blobsDesign(6), blobsDesign(8)], 'cape-and-elytra');
    expect((await capeUpload(target, animation, 'image/gif')).status).toBe(200);
    const worn = await suite.server.db
      .selectFrom('users')
      .select(['cape_hash', 'cape_strip_hash'])
      .where('uuid', '=', target.uuid)
      .executeTakeFirstOrThrow();
    expect((await admin.jar.post('/api/admin/user/cape/delete', { uuid: target.uuid })).status).toBe(200);
    const still = await blocklist(worn.cape_hash!);
    expect(still).toMatchObject({ reason: EDIT_USER_REMOVAL_REASON, admin_uuid: admin.uuid });
    expect(await blocklist(worn.cape_strip_hash!)).toMatchObject({
      phash: still!.phash,
      reason: EDIT_USER_REMOVAL_REASON,
    });

    const before = await stored();
    await expectCapeRefused(await capeUpload(target, animation, 'image/gif'));
    await expectCapeRefused(await capeUpload(uploader, await designPng(64, 32, blobsDesign(5), 'cape-and-elytra')));
    await expectGalleryRefused(await galleryUpload(uploader, animation, 'image/gif'));
    expect(await stored()).toEqual(before);
  });
});
