// API tests for the cape creators that draw a design: the player's head, OptiFine designs and capes, and banners, with
// the outside services' failures.
import { describe, expect, it } from 'vitest';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { pixelAt } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import { CAPE_PLAYER, creatorsSuite, PNG_ACCEPT, startCreatorServices } from '../../helpers/creators.ts';
import { closedPort } from '../../helpers/tcp-proxy.ts';

const services = await startCreatorServices();
/** A player service and cape server that cannot be reached: nothing listens on their port. */
const unreachable = { url: `http://127.0.0.1:${await closedPort()}` };

describe.each(backends)('cape creators on $name', (backend) => {
  const { player, pixelsOf } = creatorsSuite(backend, services);

  it("head: the player's face on the cape, the helmet layer when ticked, shifted by the sliders", async () => {
    const plain = await pixelsOf(
      await player.jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/false', {}, PNG_ACCEPT),
    );
    expect([plain.width, plain.height]).toEqual([128, 64]);
    // The face fills the front less a border: cape pixels (4..19, 8..23) at 2 per skin pixel.
    expect(pixelAt(plain, 6, 10)).toEqual([200, 150, 100, 255]);
    const helmet = await pixelsOf(
      await player.jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/true', {}, PNG_ACCEPT),
    );
    expect(pixelAt(helmet, 6, 10)).toEqual([20, 40, 220, 255]);
    expect(pixelAt(helmet, 6, 22)).toEqual([200, 150, 100, 255]);
    const shifted = await pixelsOf(
      await player.jar.post('/api/gallery/head-capes/SkinPlayer/100/0/-100/0/false', {}, PNG_ACCEPT),
    );
    expect(pixelAt(shifted, 6, 10)).toEqual([255, 150, 0, 255]);
    const dark = await pixelsOf(
      await player.jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/-100/false', {}, PNG_ACCEPT),
    );
    expect(pixelAt(dark, 6, 10)).toEqual([0, 0, 0, 255]);
  });

  it('head: an unknown player or one without a skin is 404, a failing service 502, and bad input 422', async () => {
    expect((await player.jar.post('/api/gallery/head-capes/Nobody/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(404);
    expect((await player.jar.post('/api/gallery/head-capes/NoSkin/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(404);
    expect((await player.jar.post('/api/gallery/head-capes/SkinPlayer/101/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(
      422,
    );
    expect((await player.jar.post('/api/gallery/head-capes/Skin-Player/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(
      422,
    );
    expect((await player.jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/maybe', {}, PNG_ACCEPT)).status).toBe(
      422,
    );
    services.failWith(500);
    try {
      expect((await player.jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/false', {}, PNG_ACCEPT)).status).toBe(
        502,
      );
    } finally {
      services.failWith(null);
    }
  });

  it('optifine: every design and custom colours make a cape with the fade and the mark', async () => {
    for (const design of ['standard', 'white', 'gray', 'black', 'red', 'green', 'blue', 'yellow', 'purple', 'cyan']) {
      const response = await player.jar.post(`/api/gallery/optifine-capes/${design}`, {}, PNG_ACCEPT);
      expect(response.status, design).toBe(200);
      expect((await pixelsOf(response)).width).toBe(128);
    }
    const custom = await pixelsOf(
      await player.jar.post('/api/gallery/optifine-capes/custom/ff0000/0000ff/ffffff/000000', {}, PNG_ACCEPT),
    );
    expect(pixelAt(custom, 2, 0)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(custom, 2, 33)).toEqual([0, 0, 255, 255]);
    const markColours = new Set<string>();
    for (let y = 10; y < 22; y++) for (let x = 2; x < 22; x++) markColours.add(pixelAt(custom, x, y).join());
    expect(markColours).toContain('255,255,255,255');
    expect(markColours).toContain('0,0,0,255');
    expect(
      (await player.jar.post('/api/gallery/optifine-capes/custom/ff0000/0000ff/fff/000000', {}, PNG_ACCEPT)).status,
    ).toBe(422);
  });

  it("optifine: a player's cape is placed on a 64 x 32 canvas; none is 404 with the no-cape message, a failing server 502 naming the server", async () => {
    const cape = await pixelsOf(
      await player.jar.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`, {}, PNG_ACCEPT),
    );
    expect([cape.width, cape.height]).toEqual([64, 32]);
    expect(pixelAt(cape, 45, 21)).toEqual([10, 200, 30, 255]);
    expect(pixelAt(cape, 50, 25)[3]).toBe(0);
    const none = await player.jar.post('/api/gallery/optifine-capes/NoCapeHere');
    expect(none.status).toBe(404);
    expect((await none.json()).error).toBe(creatorMessages.optifineNoCape);
    services.failWith(503);
    try {
      const down = await player.jar.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`);
      expect(down.status).toBe(502);
      expect((await down.json()).error).toBe(creatorMessages.optifineServiceDown);
    } finally {
      services.failWith(null);
    }
  });

  it('banner: an lmc or pmc code drawn on the front, stretched or at its own shape, over the top-to-bottom fade', async () => {
    for (const [service, code] of [
      ['lmc', 'pabE'],
      ['pmc', 'g2v'],
    ]) {
      const scaled = await pixelsOf(
        await player.jar.post(`/api/gallery/banner-capes/${service}/${code}/ff0000/00ff00/scale`, {}, PNG_ACCEPT),
      );
      expect([scaled.width, scaled.height], service).toEqual([256, 128]);
      // The front is (4, 4)-(44, 68): the red top stripe over the white banner.
      expect(pixelAt(scaled, 10, 6)).toEqual([176, 46, 38, 255]);
      expect(pixelAt(scaled, 10, 60)).toEqual([249, 255, 254, 255]);
      expect(pixelAt(scaled, 0, 0)).toEqual([255, 0, 0, 255]);
      expect(pixelAt(scaled, 0, 67)).toEqual([0, 255, 0, 255]);
      const top = await pixelsOf(
        await player.jar.post(`/api/gallery/banner-capes/${service}/${code}/ff0000/00ff00/top`, {}, PNG_ACCEPT),
      );
      // At its own shape (20 x 40) in the middle of the front's width, one pixel from its top: the fade shows beside
      // it.
      expect(pixelAt(top, 15, 6)).toEqual([176, 46, 38, 255]);
      expect(pixelAt(top, 15, 44)).toEqual([249, 255, 254, 255]);
      expect(pixelAt(top, 6, 6)).not.toEqual([176, 46, 38, 255]);
      const bottom = await pixelsOf(
        await player.jar.post(`/api/gallery/banner-capes/${service}/${code}/ff0000/00ff00/bottom`, {}, PNG_ACCEPT),
      );
      expect(pixelAt(bottom, 15, 6)).not.toEqual(pixelAt(top, 15, 6));
    }
    for (const path of [
      'lmc/pa-bE/ff0000/00ff00/scale',
      'xyz/pabE/ff0000/00ff00/scale',
      'lmc/pabE/ff0000/00ff00/left',
      'lmc/zz/ff0000/00ff00/scale',
    ]) {
      expect((await player.jar.post(`/api/gallery/banner-capes/${path}`, {}, PNG_ACCEPT)).status, path).toBe(422);
    }
  });
});

describe.each(backends)('cape creators whose outside services cannot be reached, on $name', (backend) => {
  const { player } = creatorsSuite(backend, unreachable);

  it('head and OptiFine lookups answer 502 naming the service that could not be reached; designs still work', async () => {
    const head = await player.jar.post('/api/gallery/head-capes/SkinPlayer/0/0/0/0/false', {}, PNG_ACCEPT);
    expect(head.status).toBe(502);
    expect((await head.json()).error).toBe(creatorMessages.playerServiceDown);
    const lookup = await player.jar.post(`/api/gallery/optifine-capes/${CAPE_PLAYER.name}`, {}, PNG_ACCEPT);
    expect(lookup.status).toBe(502);
    expect((await lookup.json()).error).toBe(creatorMessages.optifineServiceDown);
    expect((await player.jar.post('/api/gallery/optifine-capes/purple', {}, PNG_ACCEPT)).status).toBe(200);
  });
});
