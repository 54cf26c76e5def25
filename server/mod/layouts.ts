// The picture layouts other mods read by a player's name or uuid, and CustomSkinAPI's JSON: which texture each serves
// (the layouts are listed on pictureSource).
import { PICTURE_PATHS, picturePath, type PictureLayout } from '../../src/lib/mod-setup.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { answersModifiedAt, type PlayerAnswers } from './player-answers.ts';
import { playerAnswer, PROFILE_CONTENT_TYPE, type ModAnswer } from './answer-http.ts';

export type { PictureLayout };

const LAYOUTS = Object.keys(PICTURE_PATHS) as PictureLayout[];
/** The layouts' path prefixes, longest first, so `/capes/strip/` is found before `/capes/`. */
const PREFIXES = [...new Set(LAYOUTS.map((layout) => PICTURE_PATHS[layout].prefix))].sort(
  (a, b) => b.length - a.length,
);

/** Each layout's route pattern (and the fast path's series name). */
export const PICTURE_ROUTES = Object.fromEntries(
  LAYOUTS.map((layout) => [layout, picturePath(layout, ':id')]),
) as Record<PictureLayout, string>;

/**
 * How a layout sends its texture: the PNG itself, the GIF made from it (a derived image), or the PNG in base64 inside
 * MinecraftCapes-style JSON (`base64Json`).
 */
export type PictureForm = 'png' | 'gif' | 'base64Json';

/** The texture a layout is made from, and the form it is sent in. */
export interface PictureSource {
  hash: string;
  form: PictureForm;
}

/**
 * What a layout serves for a player; null when they have no cape to show (none, or banned):
 * - `/capes/{id}.png` and `/elytras/{id}.png`: the still cape (OptiFine-style clients, CustomSkinLoader's Legacy
 *   loader, Cape Provider's `default` resolver); an elytra is drawn from the cape texture's elytra region.
 * - `/capes/strip/{id}.png`: what `cape_url` is, the strip while the animation is on (Cape Provider's `sprite`
 *   resolver).
 * - `/capes/{id}.gif`: the same as a GIF at the strip's speed (equal frames in a row merged into one longer frame),
 *   one frame for a still cape (Cape Provider's `gif` resolver).
 * - `/csl-minecraftcapes/{id}`: `{"textures":{"cape":"<base64 of the still cape>"}}`, what CustomSkinLoader's
 *   MinecraftCapesAPI loader reads from `{root}{uuid}` (it decodes the PNG and shows it as a still cape).
 * - `/csl/{name}.json`: `{"username", "cape", "elytra"}` with texture hashes, read from `/csl/textures/{hash}`.
 */
export function pictureSource(profile: PlayerAnswers, layout: PictureLayout): PictureSource | null {
  if (profile.capeHash === null) return null;
  if (layout === 'still' || layout === 'elytra') return { hash: profile.capeHash, form: 'png' };
  // CustomSkinLoader shows what it decodes as a still cape: never the strip.
  if (layout === 'minecraftCapesApi') return { hash: profile.capeHash, form: 'base64Json' };
  return { hash: profile.stripHash ?? profile.capeHash, form: layout === 'gif' ? 'gif' : 'png' };
}

/** The content type of each form. */
const FORM_TYPES: Record<PictureForm, string> = {
  png: 'image/png',
  gif: 'image/gif',
  base64Json: PROFILE_CONTENT_TYPE,
};

/** A picture's content type. */
export function pictureType(source: PictureSource): string {
  return FORM_TYPES[source.form];
}

/** A picture's ETag: its texture's hash (its content), marked for the GIF made from it and for the JSON holding it. */
export function pictureEtag(source: PictureSource): string {
  if (source.form === 'gif') return `"${source.hash}.gif"`;
  return source.form === 'base64Json' ? `"${source.hash}.json"` : `"${source.hash}"`;
}

/** Each PNG's JSON, made once while its bytes are held (the byte cache keeps one Buffer per texture). */
const base64Answers = new WeakMap<Buffer, Buffer>();

/**
 * The JSON CustomSkinLoader's MinecraftCapesAPI loader reads: `{"textures":{"cape":"<base64 of the PNG>"}}` (it reads
 * `textures.cape` and nothing else).
 */
export function base64CapeJson(png: Buffer): Buffer {
  let json = base64Answers.get(png);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify({ textures: { cape: png.toString('base64') } }));
    base64Answers.set(png, json);
  }
  return json;
}

/** A layout's bytes from the texture's bytes (or, for the GIF, the derived image's). */
function inForm(source: PictureSource, bytes: Buffer): Buffer {
  return source.form === 'base64Json' ? base64CapeJson(bytes) : bytes;
}

/** A player's picture answer. */
export function pictureAnswer(profile: PlayerAnswers, source: PictureSource, bytes: Buffer): ModAnswer {
  return playerAnswer(pictureEtag(source), answersModifiedAt(profile), pictureType(source), bytes);
}

/** A picture's bytes when the library's byte cache holds them fresh; otherwise undefined. */
export function cachedPicture(library: TextureLibrary, source: PictureSource): Buffer | undefined {
  if (source.form === 'gif') return library.cachedDerived(source.hash, 'gif');
  const bytes = library.cachedRegistered(source.hash);
  return bytes && inForm(source, bytes);
}

/**
 * A picture's bytes; a GIF missing (a cape worn before GIFs were made when a cape is put on) is built once, charged to
 * `owner`, the player whose cape it is, and kept beside it; null when the texture is gone.
 */
export async function readPicture(
  library: TextureLibrary,
  imageJobs: ImageJobs,
  source: PictureSource,
  owner: string,
): Promise<Buffer | null> {
  if (source.form === 'gif')
    return library.readDerived(source.hash, 'gif', (strip) => imageJobs.run('stripGif', strip, owner));
  const bytes = await library.readRegistered(source.hash);
  return bytes && inForm(source, bytes);
}

/**
 * The layout a fast-path URL asks for and the id in it, or null when the URL is not one (an encoded path or a query
 * string goes to the routes).
 */
export function parsePicturePath(url: string): { layout: PictureLayout; id: string } | null {
  const prefix = PREFIXES.find((candidate) => url.startsWith(candidate));
  if (prefix === undefined) return null;
  const layout = LAYOUTS.find(
    (candidate) => PICTURE_PATHS[candidate].prefix === prefix && url.endsWith(PICTURE_PATHS[candidate].suffix),
  );
  if (layout === undefined) return null;
  return { layout, id: url.slice(prefix.length, url.length - PICTURE_PATHS[layout].suffix.length) };
}
