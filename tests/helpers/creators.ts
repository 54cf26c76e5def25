// Shared setup of the cape creator API suites: the game services stand-in with its players, the per-backend server with
// a logged-in player, and the form and pixel helpers.
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Backend } from '../../support/backends.ts';
import { rgbaPixels, solidPng, type Rgba } from '../../support/textures.ts';
import type { CookieJar } from './cookie-jar.ts';
import { startGameServicesStandIn, type GameServicesStandIn } from './game-services.ts';
import { loginNewUser, randomUuid, serverForSuite } from './server.ts';

/** Asks for a JSON answer. */
export const JSON_ACCEPT = { accept: 'application/json' };
/** Asks for a PNG answer. */
export const PNG_ACCEPT = { accept: 'image/png' };

/** The message of an error answer: `{error}` or `{message, errors}`. */
export async function messageOf(response: Response): Promise<string> {
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

/** The stand-in player with a skin. */
const SKIN_PLAYER = { uuid: randomUuid(), name: 'SkinPlayer' };
/** The stand-in player with an OptiFine cape. */
export const CAPE_PLAYER = { uuid: randomUuid(), name: 'CapePlayer' };

/**
 * Starts the game services stand-in for the calling file, with a player with a skin, one with an OptiFine cape and one
 * without a skin; closes it after the file.
 */
export async function startCreatorServices(): Promise<GameServicesStandIn> {
  const services = await startGameServicesStandIn();
  beforeAll(async () => {
    services.addPlayer({ ...SKIN_PLAYER, skin: await skinPng([200, 150, 100, 255], [20, 40, 220, 255]) });
    services.addPlayer({ ...CAPE_PLAYER, optifineCape: await solidPng(46, 22, [10, 200, 30, 255]) });
    services.addPlayer({ uuid: randomUuid(), name: 'NoSkin' });
  });
  afterAll(() => services.close());
  return services;
}

/**
 * Gives a creator describe block its server on a backend (its outside services at `services.url`, generous limits), a
 * logged-in player and the helpers that work on it.
 */
export function creatorsSuite(backend: Backend, services: Pick<GameServicesStandIn, 'url'>) {
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
  const player = {} as { jar: CookieJar; uuid: string };

  beforeAll(async () => {
    const { jar, uuid } = await loginNewUser(suite.server);
    Object.assign(player, { jar, uuid });
  });

  /** The decoded pixels of a PNG answer. */
  async function pixelsOf(response: Response) {
    expect(response.headers.get('content-type')).toBe('image/png');
    return rgbaPixels(Buffer.from(await response.arrayBuffer()));
  }

  /** Posts the cape creator's form. */
  function capeCreator(
    fields: Record<string, string>,
    file: Buffer | null,
    headers: Record<string, string> = PNG_ACCEPT,
  ) {
    const form = new FormData();
    if (file) form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'picture.png');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return player.jar.sendForm('POST', '/api/gallery/cape-creator', form, { headers });
  }

  return { suite, player, pixelsOf, capeCreator };
}
