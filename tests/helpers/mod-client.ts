// What a game running the mod shows for a player, read the way the mod's own download code reads the mod API
// (docs/mod-api.md): it asks only for version 4 uuids without dashes, reads cape_url, ear_url, capeGlint and
// upsideDown and nothing else, keeps each texture under its URL's last segment, plays a cape whose height is not half
// its width as a vertical strip of width × width/2 frames (100 ms each), and pads any other cape into a 64·2ⁿ canvas.
import sharp from 'sharp';

/** Decoded RGBA pixels. */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** A cape as the game draws it. */
export type ModCape = { kind: 'static'; canvas: Pixels } | { kind: 'animated'; frames: Pixels[]; frameMs: number };

/** What the game shows for a player, and the names it keeps the downloaded textures under. */
export interface ModView {
  capeGlint: boolean;
  upsideDown: boolean;
  cape: ModCape | null;
  ears: Pixels | null;
  /** The file names the game keeps each texture under, forever (the last segment of its URL). */
  cacheNames: string[];
}

/** How often the mod moves to the next frame of an animated cape. */
const MOD_FRAME_MS = 100;

/** Whether a uuid (with or without dashes) is a version 4 uuid: the only kind the mod asks for directly. */
export function isVersion4(uuid: string): boolean {
  const hex = uuid.replace(/-/g, '');
  return /^[0-9a-f]{32}$/i.test(hex) && hex[12] === '4';
}

async function decode(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Copies a rectangle of rows out of an image (full width). */
function rows(image: Pixels, top: number, height: number): Pixels {
  const rowBytes = image.width * 4;
  return {
    data: Buffer.from(image.data.subarray(top * rowBytes, (top + height) * rowBytes)),
    width: image.width,
    height,
  };
}

/**
 * The mod's split of a cape: frames when height is not width/2 (integer division), else the image padded into a 64·2ⁿ
 * canvas.
 */
export function modCape(image: Pixels): ModCape {
  const frameHeight = Math.floor(image.width / 2);
  if (image.height !== frameHeight) {
    const count = Math.floor(image.height / frameHeight);
    return {
      kind: 'animated',
      frames: Array.from({ length: count }, (_, i) => rows(image, i * frameHeight, frameHeight)),
      frameMs: MOD_FRAME_MS,
    };
  }
  return { kind: 'static', canvas: padIntoCapeCanvas(image) };
}

/** An image padded into the smallest 64·2ⁿ × 32·2ⁿ canvas at its top left, as the cape mods draw a still cape. */
export function padIntoCapeCanvas(image: Pixels): Pixels {
  let width = 64;
  let height = 32;
  while (width < image.width || height < image.height) {
    width *= 2;
    height *= 2;
  }
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < image.height; y++)
    image.data.copy(data, y * width * 4, y * image.width * 4, (y + 1) * image.width * 4);
  return { data, width, height };
}

/**
 * Downloads a player's cosmetics as the mod does; null when the mod would not ask (not a version 4 uuid) or the profile
 * is not found. `reach` maps a URL from an answer to one this process can fetch (the answers carry PUBLIC_BASE_URL).
 */
export async function modView(
  baseUrl: string,
  uuid: string,
  reach: (url: string) => string = (url) => url,
): Promise<ModView | null> {
  if (!isVersion4(uuid)) return null;
  const response = await fetch(`${baseUrl}/profile/${uuid.replace(/-/g, '')}`);
  if (Math.floor(response.status / 100) !== 2) return null;
  const profile = (await response.json()) as {
    capeGlint?: boolean;
    upsideDown?: boolean;
    cape_url?: string | null;
    ear_url?: string | null;
  };
  const cacheNames: string[] = [];
  const download = async (url: string | null | undefined): Promise<Pixels | null> => {
    if (!url) return null;
    cacheNames.push(url.slice(url.lastIndexOf('/') + 1));
    const texture = await fetch(reach(url));
    return Math.floor(texture.status / 100) === 2 ? decode(Buffer.from(await texture.arrayBuffer())) : null;
  };
  const capeImage = await download(profile.cape_url);
  return {
    capeGlint: profile.capeGlint ?? false,
    upsideDown: profile.upsideDown ?? false,
    cape: capeImage ? modCape(capeImage) : null,
    ears: await download(profile.ear_url),
    cacheNames,
  };
}
