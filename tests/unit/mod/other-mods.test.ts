// The readers that stand in for Cape Provider and CustomSkinLoader (tests/helpers/other-mods.ts) follow each mod's
// rules.
import { describe, expect, it } from 'vitest';
import { stripToGif } from '../../../server/textures/pipeline/process.ts';
import { frameColour, pixelAt, solidPng, timedGif, type Rgba } from '../../../support/textures.ts';
import {
  capeProviderDefault,
  capeProviderFrameAt,
  capeProviderGif,
  capeProviderSprite,
  capeProviderUrl,
  legacyUrl,
  minecraftCapesApiUrl,
  readCustomSkinApiJson,
  readMinecraftCapesApiJson,
} from '../../helpers/other-mods.ts';
import sharp from 'sharp';

const player = {
  name: 'Steve_1',
  uuid: '0123456789ab4def8123456789abcdef',
  dashedUuid: '01234567-89ab-4def-8123-456789abcdef',
};

describe('Cape Provider', () => {
  it('fills $name, $id and their § forms', () => {
    expect(capeProviderUrl('https://x/capes/$name.png', player)).toBe('https://x/capes/Steve_1.png');
    expect(capeProviderUrl('https://x/capes/§id.gif', player)).toBe(`https://x/capes/${player.dashedUuid}.gif`);
  });

  it('pads a PNG into the smallest 64·2ⁿ × 32·2ⁿ canvas and draws an elytra only when width/height is 2', async () => {
    const odd = await capeProviderDefault(await solidPng(100, 50, frameColour(1)));
    expect([odd.canvas.width, odd.canvas.height, odd.elytra]).toEqual([128, 64, true]);
    expect(pixelAt(odd.canvas, 99, 49)).toEqual(frameColour(1));
    expect(pixelAt(odd.canvas, 100, 50)).toEqual([0, 0, 0, 0]);
    const tall = await capeProviderDefault(await solidPng(64, 96, frameColour(2)));
    expect([tall.canvas.width, tall.canvas.height, tall.elytra]).toEqual([256, 128, false]);
    const stored = await capeProviderDefault(await solidPng(64, 32));
    expect([stored.canvas.width, stored.canvas.height, stored.elytra]).toEqual([64, 32, true]);
  });

  it('plays a sprite strip as width × width/2 frames at 100 ms', async () => {
    const strip = await sharp({
      create: { width: 64, height: 96, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const sprite = await capeProviderSprite(strip);
    expect(sprite.frames.map((frame) => [frame.width, frame.height])).toEqual([
      [64, 32],
      [64, 32],
      [64, 32],
    ]);
    expect(sprite.frameMs).toBe(100);
  });

  it("reads each GIF frame's own delay", async () => {
    const gif = await timedGif(64, 32, [
      { colour: frameColour(1), delay: 50 },
      { colour: frameColour(2), delay: 300 },
    ]);
    const played = await capeProviderGif(gif);
    expect(played.delays).toEqual([50, 300]);
    expect(played.frames.map((frame) => pixelAt(frame, 10, 10))).toEqual([frameColour(1), frameColour(2)]);
    expect((await capeProviderGif(await stripToGif(await solidPng(64, 32)))).delays).toEqual([100]);
  });

  it("plays a cape's GIF at the strip's speed: equal frames in a row are one longer frame, and every moment shows the strip's frame", async () => {
    // Seven strip frames (100 ms each), each two colours side by side; frames 0–1 and 3–5 are equal.
    const halves: Array<[Rgba, Rgba]> = [1, 1, 2, 3, 3, 3, 1].map((i) => [frameColour(i), frameColour(i + 10)]);
    const width = 64;
    const frameHeight = 32;
    const raw = Buffer.alloc(width * frameHeight * 4 * halves.length);
    halves.forEach(([left, right], frame) => {
      for (let y = 0; y < frameHeight; y++)
        for (let x = 0; x < width; x++)
          raw.set(x < width / 2 ? left : right, ((frame * frameHeight + y) * width + x) * 4);
    });
    const strip = await sharp(raw, { raw: { width, height: frameHeight * halves.length, channels: 4 } })
      .png()
      .toBuffer();
    const sprite = await capeProviderSprite(strip);
    const played = await capeProviderGif(await stripToGif(strip));
    expect(played.delays, 'equal frames in a row merged').toEqual([200, 100, 300, 100]);
    expect(
      played.delays.reduce((sum, delay) => sum + delay, 0),
      'one loop lasts as long as the strip',
    ).toBe(sprite.frames.length * sprite.frameMs);
    for (const [index, stripFrame] of sprite.frames.entries()) {
      for (const ms of [0, 50, 99].map((offset) => index * sprite.frameMs + offset)) {
        const shown = played.frames[capeProviderFrameAt(played.delays, ms)]!;
        expect([shown.width, shown.height], `${ms} ms`).toEqual([stripFrame.width, stripFrame.height]);
        expect(shown.data.equals(stripFrame.data), `${ms} ms shows strip frame ${index}`).toBe(true);
      }
    }
  });
});

describe('CustomSkinLoader', () => {
  it('fills the Legacy placeholders', () => {
    expect(legacyUrl('https://x/capes/{USERNAME}.png', player)).toBe('https://x/capes/Steve_1.png');
    expect(legacyUrl('https://x/capes/{UUID}.png', player)).toBe(`https://x/capes/${player.uuid}.png`);
    expect(legacyUrl('https://x/elytras/{STANDARD_UUID}.png', player)).toBe(
      `https://x/elytras/${player.dashedUuid}.png`,
    );
  });

  it('reads CustomSkinAPI hashes under {root}textures/, and finds nothing in an errno, an empty body or a profile without textures', () => {
    const root = 'https://x/csl/';
    expect(readCustomSkinApiJson(root, '{"username":"Steve_1","cape":"abc","elytra":"abc"}')).toEqual({
      capeUrl: 'https://x/csl/textures/abc',
      elytraUrl: 'https://x/csl/textures/abc',
    });
    expect(readCustomSkinApiJson(root, '{"username":"Steve_1","textures":{"cape":"def"}}')).toEqual({
      capeUrl: 'https://x/csl/textures/def',
      elytraUrl: null,
    });
    expect(readCustomSkinApiJson(root, '{"errno":404,"msg":"Not found"}')).toBeNull();
    expect(readCustomSkinApiJson(root, '')).toBeNull();
    expect(readCustomSkinApiJson(root, '{"username":"Steve_1"}')).toBeNull();
  });

  it('asks MinecraftCapesAPI for {root}{uuid} without dashes, decodes textures.cape, and finds nothing without it', () => {
    const root = 'https://x/csl-minecraftcapes/';
    expect(minecraftCapesApiUrl(root, player.dashedUuid.toUpperCase())).toBe(`${root}${player.uuid}`);
    const png = Buffer.from('not really a png');
    const body = JSON.stringify({ textures: { cape: png.toString('base64') } });
    expect(readMinecraftCapesApiJson(body)).toEqual(png);
    expect(readMinecraftCapesApiJson('{"animatedCape":false,"textures":{"cape":null,"ears":null}}')).toBeNull();
    expect(readMinecraftCapesApiJson('{"textures":null}')).toBeNull();
    expect(readMinecraftCapesApiJson('{"errno":404,"msg":"Not found"}')).toBeNull();
    expect(readMinecraftCapesApiJson('')).toBeNull();
  });
});
