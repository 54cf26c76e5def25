// What the other mods a player can point at the site show for a player, read the way their own download code reads
// our answers (docs/mod-api.md):
// - Cape Provider (remote custom provider): a URL template with `$name` / `$id` (dashed uuid), `§` for `$` too; asks
//   only for version 4 uuids, sends User-Agent `CP`, follows no redirect, and counts only a 2xx answer. Its resolvers:
//   `default` pads a PNG into a 64·2ⁿ × 32·2ⁿ canvas and draws an elytra only when width/height is 2; `sprite` plays a
//   vertical strip of width × width/2 frames at 100 ms; `gif` plays a GIF with each frame's own delay.
// - CustomSkinLoader: `Legacy` PNG templates with {USERNAME}, {UUID} (no dashes), {STANDARD_UUID}; `CustomSkinAPI`
//   reads `{root}{username}.json` (a 4xx/5xx or empty body, or a non-zero `errno`, means not found) and takes `cape`,
//   `elytra` (or the same under `textures`/`skins`) as hashes read from `{root}textures/{hash}`. `MinecraftCapesAPI`
//   asks Mojang's API for the uuid of the player's name and reads `{root}{uuid}` (32 lowercase hex digits, no dashes:
//   Java's UUID.toString() without its dashes); a 4xx/5xx or empty body, a non-zero `errno`, or no `textures.cape`
//   means not found, and `textures.cape` is the cape's PNG in base64, decoded and shown as a still cape. It follows up
//   to four redirects, and counts any 2xx as an answer.
import sharp from 'sharp';
import { isVersion4, padIntoCapeCanvas, type Pixels } from './mod-client.ts';

/** How Cape Provider plays a sprite strip. */
const SPRITE_FRAME_MS = 100;

async function decode(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Fills a Cape Provider URL template (`$` or `§` placeholders) for a player. */
export function capeProviderUrl(template: string, player: { name: string; dashedUuid: string }): string {
  return template.replace(/[$§]name/g, player.name).replace(/[$§]id/g, player.dashedUuid);
}

/** Cape Provider's download: null unless the uuid is version 4 and the answer is a 2xx (redirects are not followed). */
export async function capeProviderFetch(url: string, uuid: string): Promise<Buffer | null> {
  if (!isVersion4(uuid)) return null;
  const response = await fetch(url, { headers: { 'user-agent': 'CP' }, redirect: 'manual' });
  if (Math.floor(response.status / 100) !== 2) return null;
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Cape Provider's `default` resolver: the PNG padded into the smallest 64·2ⁿ × 32·2ⁿ canvas, and whether it draws an
 * elytra.
 */
export async function capeProviderDefault(bytes: Buffer): Promise<{ canvas: Pixels; elytra: boolean }> {
  const image = await decode(bytes);
  return { canvas: padIntoCapeCanvas(image), elytra: image.width / image.height === 2 };
}

/** Cape Provider's `sprite` resolver: frames of width × width/2 stacked vertically, 100 ms each. */
export async function capeProviderSprite(bytes: Buffer): Promise<{ frames: Pixels[]; frameMs: number }> {
  const image = await decode(bytes);
  const frameHeight = image.width / 2;
  const rowBytes = image.width * 4;
  const count = Math.floor(image.height / frameHeight);
  const frames = Array.from({ length: count }, (_, i) => ({
    data: Buffer.from(image.data.subarray(i * frameHeight * rowBytes, (i + 1) * frameHeight * rowBytes)),
    width: image.width,
    height: frameHeight,
  }));
  return { frames, frameMs: SPRITE_FRAME_MS };
}

/**
 * Each image's delay as Cape Provider's `gif` resolver reads it: the `delayTime` of the Graphic Control Extension
 * before the image (hundredths of a second) times 10, with no minimum (a browser's "0 or 10 ms counts as 100 ms" is not
 * its rule); 0 for an image without one.
 */
export function gifDelays(bytes: Buffer): number[] {
  if (bytes.subarray(0, 3).toString('latin1') !== 'GIF') throw new Error('Not a GIF');
  const colourTable = (packed: number) => (packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0);
  let offset = 13 + colourTable(bytes[10]!);
  const skipSubBlocks = () => {
    while (bytes[offset] !== 0) offset += bytes[offset]! + 1;
    offset += 1;
  };
  const delays: number[] = [];
  let delay = 0;
  for (;;) {
    const introducer = bytes[offset];
    if (introducer === 0x3b) return delays;
    if (introducer === 0x21) {
      // An extension: label, then sub-blocks; a Graphic Control Extension's delay is after its size and packed bytes.
      if (bytes[offset + 1] === 0xf9) delay = bytes.readUInt16LE(offset + 4) * 10;
      offset += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      // An image: its descriptor, its local colour table, the LZW code size and its data sub-blocks.
      offset += 10 + colourTable(bytes[offset + 9]!) + 1;
      skipSubBlocks();
      delays.push(delay);
      delay = 0;
    } else {
      throw new Error(`Not a GIF block at ${offset}: ${introducer}`);
    }
  }
}

/**
 * Cape Provider's `gif` resolver: each frame as shown (drawn over the frames before it as the GIF's disposal says,
 * which libvips does as Cape Provider's own compositing does) and its own delay (ms, gifDelays).
 */
export async function capeProviderGif(bytes: Buffer): Promise<{ frames: Pixels[]; delays: number[] }> {
  const metadata = await sharp(bytes, { animated: true }).metadata();
  if (metadata.format !== 'gif') throw new Error(`Not a GIF: ${metadata.format}`);
  const pages = metadata.pages ?? 1;
  const frames: Pixels[] = [];
  for (let page = 0; page < pages; page++) frames.push(await decode(await sharp(bytes, { page }).png().toBuffer()));
  const delays = gifDelays(bytes);
  if (delays.length !== pages) throw new Error(`${pages} frames but ${delays.length} images`);
  return { frames, delays };
}

/**
 * The frame Cape Provider shows `ms` into a played GIF's loop: each frame stays for its delay (clamped to 1 ms–1 min),
 * then the next.
 */
export function capeProviderFrameAt(delays: number[], ms: number): number {
  const shown = delays.map((delay) => Math.min(Math.max(delay, 1), 60_000));
  const loop = shown.reduce((sum, delay) => sum + delay, 0);
  let left = ms % loop;
  for (const [index, delay] of shown.entries()) {
    if (left < delay) return index;
    left -= delay;
  }
  return shown.length - 1;
}

/** Fills a CustomSkinLoader Legacy template for a player. */
export function legacyUrl(template: string, player: { name: string; uuid: string; dashedUuid: string }): string {
  return template
    .replace(/\{USERNAME\}/g, player.name)
    .replace(/\{UUID\}/g, player.uuid)
    .replace(/\{STANDARD_UUID\}/g, player.dashedUuid);
}

/** CustomSkinLoader's HTTP: the body of a 2xx answer (after at most four redirects), or null. */
export async function customSkinLoaderFetch(url: string): Promise<Buffer | null> {
  const response = await fetch(url, { redirect: 'manual' });
  const status = response.status;
  if (Math.floor(status / 100) === 4 || Math.floor(status / 100) === 5) return null;
  if (status === 301 || status === 302)
    throw new Error('This reader does not follow redirects: the site should never send one');
  return Buffer.from(await response.arrayBuffer());
}

/** CustomSkinLoader's Legacy loader: a texture counts when the answer is a 2xx with bytes. */
export async function legacyTexture(url: string): Promise<Buffer | null> {
  const bytes = await customSkinLoaderFetch(url);
  return bytes && bytes.length > 0 ? bytes : null;
}

/**
 * What CustomSkinAPI takes from `{root}{username}.json`: the cape and elytra URLs, or null when the loader finds
 * nothing (it goes on to its next entry).
 */
export async function customSkinApi(root: string, username: string): Promise<CustomSkinApiView | null> {
  const body = await customSkinLoaderFetch(`${root}${username}.json`);
  return body ? readCustomSkinApiJson(root, body.toString('utf8')) : null;
}

/** The cape and elytra URLs CustomSkinAPI reads from a profile. */
export interface CustomSkinApiView {
  capeUrl: string | null;
  elytraUrl: string | null;
}

/** CustomSkinAPI's reading of a profile body: null when it is empty, has a non-zero `errno`, or names no texture. */
export function readCustomSkinApiJson(root: string, body: string): CustomSkinApiView | null {
  if (body === '') return null;
  const json = JSON.parse(body) as {
    errno?: number;
    cape?: string;
    elytra?: string;
    textures?: Record<string, string>;
    skins?: Record<string, string>;
  };
  if ((json.errno ?? 0) !== 0) return null;
  const textures = { ...json.skins, ...json.textures };
  const cape = json.cape || textures.cape || null;
  const elytra = json.elytra || textures.elytra || null;
  if (!cape && !elytra && !Object.values(textures).some(Boolean)) return null;
  const url = (hash: string | null) => (hash ? `${root}textures/${hash}` : null);
  return { capeUrl: url(cape), elytraUrl: url(elytra) };
}

/**
 * The address CustomSkinLoader's MinecraftCapesAPI asks for a player: `{root}{uuid}`, the uuid Mojang's API gives the
 * player's name, as Java writes a UUID (lowercase) without its dashes.
 */
export function minecraftCapesApiUrl(root: string, mojangUuid: string): string {
  return root + mojangUuid.toLowerCase().replaceAll('-', '');
}

/**
 * What CustomSkinLoader's MinecraftCapesAPI takes from `{root}{uuid}`: the cape's bytes, or null when the loader finds
 * nothing (it goes on to its next entry).
 */
export async function minecraftCapesApi(root: string, mojangUuid: string): Promise<Buffer | null> {
  const body = await customSkinLoaderFetch(minecraftCapesApiUrl(root, mojangUuid));
  return body ? readMinecraftCapesApiJson(body.toString('utf8')) : null;
}

/**
 * MinecraftCapesAPI's reading of a profile body: null when it is empty, has a non-zero `errno` or no `textures.cape`;
 * otherwise `textures.cape` decoded from base64 (the bytes it stores and shows as the cape; nothing else is read).
 */
export function readMinecraftCapesApiJson(body: string): Buffer | null {
  if (body === '') return null;
  const json = JSON.parse(body) as { errno?: number; textures?: { cape?: string | null } | null };
  if ((json.errno ?? 0) !== 0) return null;
  const cape = json.textures?.cape;
  return typeof cape === 'string' ? Buffer.from(cape, 'base64') : null;
}
