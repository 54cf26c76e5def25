// API tests for capes from the creators: wearing and sharing them, who may use them and for how long, and sweeping the
// ones nobody keeps.
import { describe, expect, it } from 'vitest';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { createTextureLibrary } from '../../../server/operations/create-library.ts';
import { sweepLeftovers } from '../../../server/operations/sweep.ts';
import { animatedGif, frameColour, solidPng } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, newBrowser } from '../../helpers/server.ts';
import { creatorsSuite, JSON_ACCEPT, messageOf, startCreatorServices } from '../../helpers/creators.ts';

const services = await startCreatorServices();

describe.each(backends)('cape creators on $name', (backend) => {
  const { suite, player } = creatorsSuite(backend, services);

  it('use: wears a cape from a creator (an animation with its strip) and the mod API follows', async () => {
    const made = (await (await player.jar.post('/api/gallery/optifine-capes/blue', {}, JSON_ACCEPT)).json()) as {
      hash: string;
    };
    const used = await player.jar.post('/api/gallery/creations/use', { hash: made.hash });
    expect(used.status).toBe(200);
    const profile = (await (await fetch(`${suite.server.url}/profile/${player.uuid}`)).json()) as { cape_url: string };
    expect(profile.cape_url).toMatch(new RegExp(`/textures/${made.hash}$`));

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await animatedGif(20, 32, 2))], { type: 'image/gif' }), 'a.gif');
    form.append('scale', '1');
    const animated = (await (await player.jar.sendForm('POST', '/api/gallery/animated-cape-creator', form)).json()) as {
      hash: string;
    };
    expect((await player.jar.post('/api/gallery/creations/use', { hash: animated.hash })).status).toBe(200);
    const row = await suite.server.db
      .selectFrom('users')
      .select(['cape_hash', 'cape_strip_hash'])
      .where('uuid', '=', player.uuid)
      .executeTakeFirstOrThrow();
    expect(row.cape_strip_hash).toBe(animated.hash);
    expect(row.cape_hash).not.toBe(animated.hash);

    const gone = await player.jar.post('/api/gallery/creations/use', { hash: 'a'.repeat(64) });
    expect(gone.status).toBe(410);
    expect((await gone.json()).error).toBe(creatorMessages.expired);
  });

  it('share: a cape from a creator becomes a gallery item with the title and tags, checked like an upload', async () => {
    const made = (await (await player.jar.post('/api/gallery/optifine-capes/purple', {}, JSON_ACCEPT)).json()) as {
      hash: string;
    };
    const tags = (await (await player.jar.get('/api/gallery/tags')).json()) as Array<{ tag_key: string }>;
    const badTitle = await player.jar.post('/api/gallery/creations/share', {
      hash: made.hash,
      title: 'no!',
      tags: [tags[0]!.tag_key],
    });
    expect(badTitle.status).toBe(422);
    const shared = await player.jar.post('/api/gallery/creations/share', {
      hash: made.hash,
      title: 'Purple OF',
      tags: [tags[0]!.tag_key],
    });
    expect(shared.status).toBe(201);
    const item = (await (await player.jar.get(`/api/gallery/${made.hash}`)).json()) as { title?: string };
    expect(JSON.stringify(item)).toContain('Purple OF');
  });

  it("use, share and the preview take only the caller's own creation, within its lifetime, or a listed gallery item", async () => {
    const other = await loginNewUser(suite.server);
    const visitor = await newBrowser(suite.server);
    const expired = async (response: Response) => {
      expect(response.status).toBe(410);
      expect(await messageOf(response)).toBe(creatorMessages.expired);
    };
    const tags = (await (await player.jar.get('/api/gallery/tags')).json()) as Array<{ tag_key: string }>;
    const share = (who: CookieJar, hash: string) =>
      who.post('/api/gallery/creations/share', { hash, title: 'Not mine', tags: [tags[0]!.tag_key] });
    const capeOf = async (player: string) =>
      (
        await suite.server.db
          .selectFrom('users')
          .select('cape_hash')
          .where('uuid', '=', player)
          .executeTakeFirstOrThrow()
      ).cape_hash;

    // Another player's fresh creation: neither worn, nor shared, nor previewed by anyone else.
    const made = (await (
      await player.jar.post('/api/gallery/optifine-capes/custom/0a0b0c/0c0b0a/ffffff/000000', {}, JSON_ACCEPT)
    ).json()) as { hash: string };
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
    expect(
      await suite.server.db.selectFrom('gallery_items').select('hash').where('hash', '=', worn).executeTakeFirst(),
    ).toBeUndefined();
    expect(await capeOf(other.uuid)).toBeNull();

    // The maker's own creation, until its lifetime ends.
    expect((await player.jar.get(`/api/gallery/creations/${made.hash}/preview`)).status).toBe(200);
    expect((await player.jar.post('/api/gallery/creations/use', { hash: made.hash })).status).toBe(200);
    const old = (await (
      await player.jar.post('/api/gallery/optifine-capes/custom/0d0e0f/0f0e0d/ffffff/000000', {}, JSON_ACCEPT)
    ).json()) as { hash: string };
    await suite.server.db
      .updateTable('creation_makers')
      .set({ made_at: Date.now() - 61 * 60_000 })
      .where('hash', '=', old.hash)
      .execute();
    await expired(await player.jar.post('/api/gallery/creations/use', { hash: old.hash }));
    await expired(await share(player.jar, old.hash));

    // A listed gallery item may be worn by anyone, and sharing it again says it exists.
    const author = await loginNewUser(suite.server);
    const listed = (await (
      await author.jar.post('/api/gallery/optifine-capes/custom/1a1b1c/1c1b1a/ffffff/000000', {}, JSON_ACCEPT)
    ).json()) as {
      hash: string;
    };
    expect((await share(author.jar, listed.hash)).status).toBe(201);
    expect((await other.jar.post('/api/gallery/creations/use', { hash: listed.hash })).status).toBe(200);
    expect(await capeOf(other.uuid)).toBe(listed.hash);
    const again = await share(other.jar, listed.hash);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ existing: true });
    expect((await other.jar.get(`/api/gallery/creations/${listed.hash}/preview`)).status).toBe(200);

    // Once its author is banned, the item is hidden: nobody can wear it, learn from sharing that it exists, or see its
    // preview.
    const admin = await loginNewUser(suite.server, undefined, { admin: true });
    const hiddenItem = (await (
      await author.jar.post('/api/gallery/optifine-capes/custom/2a2b2c/2c2b2a/ffffff/000000', {}, JSON_ACCEPT)
    ).json()) as {
      hash: string;
    };
    expect((await share(author.jar, hiddenItem.hash)).status).toBe(201);
    expect(
      (await admin.jar.post('/api/admin/user/ban', { uuid: author.uuid, confirm: true, reason: 'nsfw' })).status,
    ).toBe(200);
    await expired(await other.jar.post('/api/gallery/creations/use', { hash: hiddenItem.hash }));
    await expired(await share(other.jar, hiddenItem.hash));
    expect((await other.jar.get(`/api/gallery/creations/${hiddenItem.hash}/preview`)).status).toBe(404);
    expect((await visitor.get(`/api/gallery/creations/${hiddenItem.hash}/preview`)).status).toBe(401);
    expect((await admin.jar.get(`/api/gallery/creations/${hiddenItem.hash}/preview`)).status).toBe(200);
    // Even a player who makes the same picture himself does not learn from sharing it that a hidden item holds it.
    expect(
      (await other.jar.post('/api/gallery/optifine-capes/custom/2a2b2c/2c2b2a/ffffff/000000', {}, JSON_ACCEPT)).status,
    ).toBe(200);
    await expired(await share(other.jar, hiddenItem.hash));
    expect(await capeOf(other.uuid)).toBe(listed.hash);
  });

  it('a cape from a creator nobody wears or shares is swept after the grace period; a worn one stays', async () => {
    const made = (await (
      await player.jar.post('/api/gallery/optifine-capes/custom/123456/654321/ffffff/000000', {}, JSON_ACCEPT)
    ).json()) as { hash: string };
    const worn = (await (
      await player.jar.post('/api/gallery/optifine-capes/custom/112233/332211/ffffff/000000', {}, JSON_ACCEPT)
    ).json()) as { hash: string };
    // Another player who asks for the same cape makes it too (from the cache), so it is theirs to wear.
    const other = await loginNewUser(suite.server);
    expect(
      (
        await other.jar.post('/api/gallery/optifine-capes/custom/112233/332211/ffffff/000000', {}, JSON_ACCEPT)
      ).headers.get('x-creation-cache'),
    ).toBe('hit');
    expect((await other.jar.post('/api/gallery/creations/use', { hash: worn.hash })).status).toBe(200);
    const library = createTextureLibrary(suite.server.config, suite.server.db);
    const report = await sweepLeftovers(suite.server.db, library, { graceMs: 0, now: Date.now() + 1000 });
    expect(report.textures).toContain(made.hash);
    expect(report.textures).not.toContain(worn.hash);
    // Who made what is forgotten with the leftovers, so the record does not grow without end.
    expect(
      await suite.server.db
        .selectFrom('creation_makers')
        .select('hash')
        .where('hash', 'in', [made.hash, worn.hash])
        .execute(),
    ).toEqual([]);
  });
});
