// Shared pieces of the mod API suites (tests/api/mod/): the hash at the end of a texture URL, uploading a cape or ears
// through the site's API for the texture URL it answers, and for the layouts other mods read: their per-player paths, a
// player with a version 4 uuid, and the colour a frame's cape front shows.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { dashedUuid } from '../../src/lib/ids.ts';
import { pixelAt } from '../../support/textures.ts';
import type { CookieJar } from './cookie-jar.ts';
import { loginNewUser, type TestServer } from './server.ts';

/** The 64-hex hash at the end of a texture URL. */
export function hashOf(url: string): string {
  const match = /\/textures\/([0-9a-f]{64})$/.exec(url);
  if (!match) throw new Error(`Not a texture URL: ${url}`);
  return match[1]!;
}

/** Uploads a cape or ears through the API and returns the texture URL from the response. */
export async function uploadTexture(jar: CookieJar, kind: 'cape' | 'ears', bytes: Buffer): Promise<string> {
  const response = await jar.upload(`/api/upload-${kind}`, bytes);
  const body = (await response.json()) as Record<string, string>;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body[kind]!;
}

/** Every per-player picture layout path for an id (MinecraftCapesAPI's JSON holds the picture). */
export function layoutPaths(id: string): string[] {
  return [
    `/capes/${id}.png`,
    `/capes/${id}.gif`,
    `/capes/strip/${id}.png`,
    `/elytras/${id}.png`,
    `/csl-minecraftcapes/${id}`,
  ];
}

/** CustomSkinLoader's MinecraftCapesAPI root on the mod API. */
export const MINECRAFT_CAPES_ROOT = '/csl-minecraftcapes/';

/** A player logged in with a version 4 uuid (what Cape Provider asks for), optionally with the animation owned. */
export async function onlinePlayer(server: TestServer, options: { animated?: boolean } = {}) {
  const player = await loginNewUser(server, undefined, { uuid: randomUUID().replaceAll('-', '') });
  if (options.animated) await server.db.insertInto('premium').values({ user_uuid: player.uuid, animated: 1 }).execute();
  return { ...player, dashedUuid: dashedUuid(player.uuid), name: player.username };
}

/** The centre colour of the cape front of a frame. */
export const front = (frame: { data: Buffer; width: number }) =>
  pixelAt(frame, Math.floor(frame.width / 8), Math.floor(frame.width / 8));
