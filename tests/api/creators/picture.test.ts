// API tests for the cape creators that start from a picture: image to cape (layout, cache, refusals) and animated
// capes; on SQLite and PostgreSQL.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { textureMessages } from '../../../src/lib/texture-rules.ts';
import { animatedGif, frameColour, pixelAt, rgbaPixels, solidPng, twoColourPng } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import { newBrowser } from '../../helpers/server.ts';
import { creatorsSuite, JSON_ACCEPT, messageOf, startCreatorServices } from '../../helpers/creators.ts';

const services = await startCreatorServices();

describe.each(backends)('cape creators on $name', (backend) => {
  const { suite, player, pixelsOf, capeCreator } = creatorsSuite(backend, services);

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
    const preview = await player.jar.get(new URL(body.preview).pathname);
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
    form.append(
      'background',
      new Blob([new Uint8Array(await solidPng(64, 32, [0, 128, 0, 255]))], { type: 'image/png' }),
      'bg.png',
    );
    form.append('scale', '2');
    form.append('color', '333333');
    form.append('elytra', 'false');
    const response = await player.jar.sendForm('POST', '/api/gallery/animated-cape-creator', form);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      cape: string;
      preview: string;
      frames: number;
      width: number;
      height: number;
    };
    expect(body).toMatchObject({ frames: 3, width: 128, height: 192 });
    const strip = await rgbaPixels(
      Buffer.from(await (await fetch(new URL(new URL(body.cape).pathname, suite.server.url))).arrayBuffer()),
    );
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
      return player.jar.sendForm('POST', '/api/gallery/animated-cape-creator', form);
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
});
