// The mod API as the game sees it: uploads read back through the mod's own download rules
// (tests/helpers/mod-client.ts).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { offlineUuid } from '../../../server/auth/player-ids.ts';
import {
  animatedGif,
  frameColour,
  pixelAt,
  rgbaPixels,
  solidPng,
  timedGif,
  type Rgba,
} from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import { modView, type ModCape, type Pixels } from '../../helpers/mod-client.ts';
import { loginNewUser, serverForSuite, type TestServer } from '../../helpers/server.ts';

/** The colour of each frame of a cape the game plays (the centre pixel), or of the still cape. */
function colours(cape: ModCape | null): Rgba[] {
  if (!cape) return [];
  const frames: Pixels[] = cape.kind === 'animated' ? cape.frames : [cape.canvas];
  return frames.map((frame) => pixelAt(frame, Math.floor(frame.width / 4), Math.floor(frame.height / 4)));
}

/** A player logged in with a version 4 uuid, as the game knows online players. */
async function onlinePlayer(server: TestServer, options: { animated?: boolean } = {}) {
  const player = await loginNewUser(server, undefined, { uuid: randomUUID().replaceAll('-', '') });
  if (options.animated) await server.db.insertInto('premium').values({ user_uuid: player.uuid, animated: 1 }).execute();
  return player;
}

describe.each(backends)('the mod reading the mod API on $name', (backend) => {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
  const view = (uuid: string) =>
    modView(suite.server.url, uuid, (url) => new URL(new URL(url).pathname, suite.server.url).toString());

  const capes: Record<string, Buffer> = {};
  beforeAll(async () => {
    capes.still = await solidPng(64, 32, frameColour(1));
    capes.hd = await solidPng(192, 96, frameColour(2));
    capes.ears = await solidPng(14, 7, frameColour(3));
    capes.threeFrames = await animatedGif(64, 32, 3);
    capes.hdFrames = await animatedGif(320, 160, [frameColour(4), frameColour(5)]);
    capes.timed = await timedGif(64, 32, [
      { colour: frameColour(6), delay: 300 },
      { colour: frameColour(7), delay: 100 },
      { colour: frameColour(8), delay: 40 },
      { colour: frameColour(9), delay: 60 },
    ]);
  });

  it('shows a still cape and ears as uploaded, each kept under its content hash', async () => {
    const { jar, uuid } = await onlinePlayer(suite.server);
    expect(
      (await jar.upload('/api/upload-cape', capes.still!, { type: 'image/png', filename: 'cape.png' })).status,
    ).toBe(200);
    expect(
      (await jar.upload('/api/upload-ears', capes.ears!, { type: 'image/png', filename: 'ears.png' })).status,
    ).toBe(200);
    const seen = (await view(uuid))!;
    expect(seen.cape?.kind).toBe('static');
    expect(colours(seen.cape)).toEqual([frameColour(1)]);
    expect(seen.ears && pixelAt(seen.ears, 3, 3)).toEqual(frameColour(3));
    expect(seen.cacheNames).toHaveLength(2);
    for (const name of seen.cacheNames) expect(name).toMatch(/^[0-9a-f]{64}$/);
  });

  it('plays an animated cape frame by frame once the animation is on, and shows its first frame otherwise', async () => {
    const plain = await onlinePlayer(suite.server);
    expect(
      (await plain.jar.upload('/api/upload-cape', capes.threeFrames!, { type: 'image/gif', filename: 'cape.gif' }))
        .status,
    ).toBe(200);
    const still = (await view(plain.uuid))!;
    expect(still.cape?.kind).toBe('static');
    expect(colours(still.cape)).toEqual([frameColour(0)]);

    const premium = await onlinePlayer(suite.server, { animated: true });
    expect(
      (await premium.jar.upload('/api/upload-cape', capes.threeFrames!, { type: 'image/gif', filename: 'cape.gif' }))
        .status,
    ).toBe(200);
    const playing = (await view(premium.uuid))!;
    expect(playing.cape?.kind).toBe('animated');
    expect(colours(playing.cape)).toEqual([frameColour(0), frameColour(1), frameColour(2)]);
  });

  it('plays each GIF frame for as long as the GIF shows it, on the 100 ms tick', async () => {
    const { jar, uuid } = await onlinePlayer(suite.server, { animated: true });
    expect(
      (await jar.upload('/api/upload-cape', capes.timed!, { type: 'image/gif', filename: 'cape.gif' })).status,
    ).toBe(200);
    const seen = (await view(uuid))!;
    expect(seen.cape?.kind).toBe('animated');
    // 300 ms of the first colour is three ticks; the 40 ms and 60 ms frames share one tick, which shows what is on
    // screen at its start.
    expect(colours(seen.cape)).toEqual([
      frameColour(6),
      frameColour(6),
      frameColour(6),
      frameColour(7),
      frameColour(8),
    ]);
  });

  it('fills the whole canvas with an HD cape whose width is not 64·2ⁿ', async () => {
    const { jar, uuid } = await onlinePlayer(suite.server);
    expect((await jar.upload('/api/upload-cape', capes.hd!, { type: 'image/png', filename: 'cape.png' })).status).toBe(
      200,
    );
    const seen = (await view(uuid))!;
    expect(seen.cape?.kind).toBe('static');
    const canvas = (seen.cape as { canvas: Pixels }).canvas;
    expect([canvas.width, canvas.height]).toEqual([256, 128]);
    // Padded rather than scaled, the right and bottom quarters of the canvas would be transparent.
    expect(pixelAt(canvas, 255, 127)).toEqual(frameColour(2));
    expect(pixelAt(canvas, 0, 0)).toEqual(frameColour(2));
  });

  it('plays the frames of an HD animated cape at a 64·2ⁿ width', async () => {
    const { jar, uuid } = await onlinePlayer(suite.server, { animated: true });
    expect(
      (await jar.upload('/api/upload-cape', capes.hdFrames!, { type: 'image/gif', filename: 'cape.gif' })).status,
    ).toBe(200);
    const cape = (await view(uuid))!.cape;
    expect(cape?.kind).toBe('animated');
    const frames = (cape as { frames: Pixels[] }).frames;
    expect(frames.map((frame) => [frame.width, frame.height])).toEqual([
      [512, 256],
      [512, 256],
    ]);
    expect(colours(cape)).toEqual([frameColour(4), frameColour(5)]);
  });

  it('never asks for a player with an offline-mode (version 3) uuid', async () => {
    const name = `Off${randomUUID().slice(0, 8)}`;
    const { jar, uuid } = await loginNewUser(suite.server, name, { uuid: offlineUuid(name) });
    expect(
      (await jar.upload('/api/upload-cape', capes.still!, { type: 'image/png', filename: 'cape.png' })).status,
    ).toBe(200);
    expect((await fetch(`${suite.server.url}/profile/${uuid}`)).status, 'the site has the cape').toBe(200);
    expect(await view(uuid), 'but the game never asks for it').toBeNull();
  });

  it('keeps the first frame of a still cape exactly as uploaded', async () => {
    const { jar, uuid } = await onlinePlayer(suite.server);
    expect(
      (await jar.upload('/api/upload-cape', capes.still!, { type: 'image/png', filename: 'cape.png' })).status,
    ).toBe(200);
    const canvas = ((await view(uuid))!.cape as { canvas: Pixels }).canvas;
    const uploaded = await rgbaPixels(capes.still!);
    expect(canvas.data.equals(uploaded.data)).toBe(true);
  });
});
