// A cape's GIF (the mod API's /capes/{id}.gif layout) is made when the player puts the cape on, as their own image
// work: stored before the upload answers, so no reader ever causes it; an upload whose GIF does not fit in the player's
// image budget is refused with the queue's message and changes nothing.
import { describe, expect, it } from 'vitest';
import { IMAGE_WORK_BUDGET_MESSAGE } from '../../../server/image-jobs/job-queue.ts';
import { derivedKey } from '../../../server/textures/library/texture-library.ts';
import { backends } from '../../../support/backends.ts';
import { animatedGif, solidPng } from '../../../support/textures.ts';
import { TEXTURE_URL } from '../../helpers/gallery.ts';
import { NOTHING_SHOWN } from '../../../server/mod/player-answers.ts';
import { modProfile } from '../../helpers/mod-profile.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

describe.each(backends)('a cape’s GIF on $name', (backend) => {
  const suite = serverForSuite(backend);
  /** A server where a player's image budget is spent by their first job. */
  const spent = serverForSuite(backend, { IMAGE_WORK_SECONDS_PER_MINUTE: '0.000001' });

  it('is stored when an animated cape is uploaded, and is what an anonymous reader then gets', async () => {
    const { jar, uuid } = await loginNewUser(suite.server);
    const upload = await jar.upload('/api/upload-cape', await animatedGif(64, 32, 3), {
      type: 'image/gif',
      filename: 'cape.gif',
    });
    expect(upload.status).toBe(200);
    // The picture the player shows (the strip while their animation is on, else the still), as the mod reads it.
    const shownHash = TEXTURE_URL.exec((await modProfile(suite.server.url, uuid)).cape_url ?? '')![1]!;
    const stored = await suite.server.app.textureLibrary.read(derivedKey(shownHash, 'gif'));
    expect(stored, 'made before the upload answered').not.toBeNull();

    const served = await fetch(`${suite.server.url}/capes/${uuid}.gif`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(stored!)).toBe(true);
  });

  it('is stored for a still cape too (its one-frame GIF)', async () => {
    const { jar, uuid } = await loginNewUser(suite.server);
    expect(
      (await jar.upload('/api/upload-cape', await solidPng(64, 32), { type: 'image/png', filename: 'cape.png' }))
        .status,
    ).toBe(200);
    const stillHash = TEXTURE_URL.exec((await modProfile(suite.server.url, uuid)).cape_url ?? '')![1]!;
    expect(await suite.server.app.textureLibrary.read(derivedKey(stillHash, 'gif'))).not.toBeNull();
  });

  it('is made when the animation is granted, before any reader asks for it', async () => {
    const admin = await loginNewUser(suite.server, undefined, { admin: true });
    const { jar, uuid } = await loginNewUser(suite.server);
    expect(
      (await jar.upload('/api/upload-cape', await animatedGif(64, 32, 3), { type: 'image/gif', filename: 'cape.gif' }))
        .status,
    ).toBe(200);
    const stillHash = TEXTURE_URL.exec((await modProfile(suite.server.url, uuid)).cape_url ?? '')![1]!;
    const granted = await admin.jar.post('/api/admin/user/profile', {
      uuid,
      animatedCape: true,
      capeGlint: false,
      upsideDown: false,
    });
    expect(granted.status, await granted.clone().text()).toBe(200);
    const stripHash = TEXTURE_URL.exec((await modProfile(suite.server.url, uuid)).cape_url ?? '')![1]!;
    expect(stripHash).not.toBe(stillHash);
    expect(
      await suite.server.app.textureLibrary.read(derivedKey(stripHash, 'gif')),
      'made before the grant answered',
    ).not.toBeNull();
  });

  it('that does not fit in the player’s budget refuses the upload with the queue’s message, and nothing changes', async () => {
    const { jar, uuid } = await loginNewUser(spent.server);
    const upload = await jar.upload('/api/upload-cape', await solidPng(64, 32), {
      type: 'image/png',
      filename: 'cape.png',
    });
    expect(upload.status).toBe(429);
    expect(JSON.stringify(await upload.json())).toContain(IMAGE_WORK_BUDGET_MESSAGE);
    expect(await modProfile(spent.server.url, uuid)).toEqual(NOTHING_SHOWN);
    expect(await spent.server.db.selectFrom('textures').select('hash').execute()).toEqual([]);
  });
});
