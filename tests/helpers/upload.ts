// Shared setup of the cape and ears upload API suites: the images they upload, the per-backend server and the upload,
// profile and row helpers.
import { beforeAll, expect } from 'vitest';
import type { Backend } from '../../support/backends.ts';
import { animatedGif, frameColour, padPng, pngHeaderOnly, solidGif, solidPng } from '../../support/textures.ts';
import { TEXTURE_URL } from './gallery.ts';
import { serverForSuite, type loginNewUser } from './server.ts';
import { modProfile } from './mod-profile.ts';
import type { ModProfile } from '../../src/lib/schemas/types.ts';

/**
 * Every image the upload tests use, made in a beforeAll of the calling file: named images, distinct valid capes (64 x
 * 32, one colour each, so tests on one server never share textures by accident) and distinct valid ears (14 x 7).
 */
export function uploadImagesForFile(): { images: Record<string, Buffer>; capes: Buffer[]; ears: Buffer[] } {
  const images: Record<string, Buffer> = {};
  const capes: Buffer[] = [];
  const ears: Buffer[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 12; i++) capes.push(await solidPng(64, 32, frameColour(100 + i)));
    for (let i = 0; i < 8; i++) ears.push(await solidPng(14, 7, frameColour(200 + i)));
    Object.assign(images, {
      capeTooBig: padPng(await solidPng(64, 32, [1, 1, 1, 255]), 500_001),
      capeMaxBytes: padPng(await solidPng(64, 32, [2, 2, 2, 255]), 500_000),
      text: Buffer.from('This is a text file pretending to be a cape.\n'.repeat(20)),
      invalidPng: (await solidPng(128, 64)).subarray(0, 60),
      wrongDimensions: await solidPng(64, 33),
      squareGif: await solidGif(64, 64),
      tooLarge: await solidPng(4096, 2048),
      tooLargeHeaderOnly: pngHeaderOnly(4096, 2048, Buffer.alloc(1000)),
      bombGif: await animatedGif(64, 32, 65),
      animated: await animatedGif(64, 32, 3),
      hdCape: await solidPng(192, 96, frameColour(300)),
      overBudget: await animatedGif(1024, 512, 17),
      earsTooBig: padPng(await solidPng(14, 7, [3, 3, 3, 255]), 10_001),
      earsMaxBytes: padPng(await solidPng(14, 7, [4, 4, 4, 255]), 10_000),
      earsGif: await solidGif(14, 7),
      ears14x10: await solidPng(14, 10),
      ears15x7: await solidPng(15, 7),
      earsInvalid: (await solidPng(14, 7)).subarray(0, 40),
    });
  });
  return { images, capes, ears };
}

/** Gives an upload describe block its server on a backend and the helpers that work on it. */
export function uploadSuite(backend: Backend) {
  const suite = serverForSuite(backend, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });

  /** The texture URL's path fetched from the test server (URLs carry the configured public origin). */
  function fetchTexture(url: string): Promise<Response> {
    return fetch(new URL(new URL(url).pathname, suite.server.url));
  }

  /** The mod profile of a player, as the mod reads it (NOTHING_SHOWN for a 404). */
  function profile(uuid: string): Promise<ModProfile> {
    return modProfile(suite.server.url, uuid);
  }

  /** Counts the texture rows, all or those of one hash. */
  async function textureRows(hash?: string): Promise<number> {
    let query = suite.server.db.selectFrom('textures').select('hash');
    if (hash) query = query.where('hash', '=', hash);
    return (await query.execute()).length;
  }

  /** Checks that an answer is a refusal {success: false, msg} with the given status. */
  async function expectRefused(response: Response, msg: string, status = 422): Promise<void> {
    expect(response.status, msg).toBe(status);
    expect(await response.json()).toEqual({ success: false, msg });
  }

  /** Uploads a cape or ears that must be accepted (200); returns its texture URL. */
  async function uploadOk(
    jar: Awaited<ReturnType<typeof loginNewUser>>['jar'],
    kind: 'cape' | 'ears',
    bytes: Buffer,
    type = 'image/png',
  ): Promise<string> {
    const response = await jar.upload(`/api/upload-${kind}`, bytes, {
      type,
      filename: type === 'image/gif' ? 'cape.gif' : `${kind}.png`,
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['success', kind].sort());
    expect(body.success).toBe(true);
    expect(body[kind]).toMatch(TEXTURE_URL);
    return body[kind] as string;
  }

  return { suite, fetchTexture, profile, textureRows, expectRefused, uploadOk };
}
