// The picture layouts other mods read by a player's name or uuid, and CustomSkinAPI's JSON: which texture each serves.
// - `/capes/{id}.png` and `/elytras/{id}.png`: the still cape (OptiFine-style clients, CustomSkinLoader's Legacy
//   loader, Cape Provider's `default` resolver); an elytra is drawn from the cape texture's elytra region.
// - `/capes/strip/{id}.png`: what `cape_url` is, the strip while the animation is on (Cape Provider's `sprite`
//   resolver).
// - `/capes/{id}.gif`: the same as a GIF at 100 ms a frame, one frame for a still cape (Cape Provider's `gif`
//   resolver).
// - `/csl/{name}.json`: `{"username", "cape", "elytra"}` with texture hashes, read from `/csl/textures/{hash}`.
import { PICTURE_PATHS, picturePath, type PictureLayout } from '../../src/lib/mod-setup.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import { answersModifiedAt, type PlayerAnswers } from './player-answers.ts';
import { playerAnswer, type ModAnswer } from './answers.ts';

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
 * The texture a layout is made from, and whether it is sent as its GIF (a derived image) rather than the PNG itself.
 */
export interface PictureSource {
  hash: string;
  gif: boolean;
}

/** What a layout serves for a player; null when they have no cape to show (none, or banned). */
export function pictureSource(profile: PlayerAnswers, layout: PictureLayout): PictureSource | null {
  if (profile.capeHash === null) return null;
  if (layout === 'still' || layout === 'elytra') return { hash: profile.capeHash, gif: false };
  return { hash: profile.stripHash ?? profile.capeHash, gif: layout === 'gif' };
}

/** A picture's content type. */
export function pictureType(source: PictureSource): string {
  return source.gif ? 'image/gif' : 'image/png';
}

/** A picture's ETag: its texture's hash (its content), marked for the GIF made from it. */
export function pictureEtag(source: PictureSource): string {
  return source.gif ? `"${source.hash}.gif"` : `"${source.hash}"`;
}

/** A player's picture answer. */
export function pictureAnswer(profile: PlayerAnswers, source: PictureSource, bytes: Buffer): ModAnswer {
  return playerAnswer(pictureEtag(source), answersModifiedAt(profile), pictureType(source), bytes);
}

/** A picture's bytes when the library's byte cache holds them fresh; otherwise undefined. */
export function cachedPicture(library: TextureLibrary, source: PictureSource): Buffer | undefined {
  return source.gif ? library.cachedDerived(source.hash, 'gif') : library.cachedRegistered(source.hash);
}

/**
 * A picture's bytes; a GIF missing (a cape worn before GIFs were made when a cape is put on) is built once, charged to
 * `owner`, the player whose cape it is, and kept beside it; null when the texture is gone.
 */
export function readPicture(
  library: TextureLibrary,
  imageJobs: ImageJobs,
  source: PictureSource,
  owner: string,
): Promise<Buffer | null> {
  if (!source.gif) return library.readRegistered(source.hash);
  return library.readDerived(source.hash, 'gif', (strip) => imageJobs.run('stripGif', strip, owner));
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
  return layout === undefined ? null : { layout, id: url.slice(prefix.length, -PICTURE_PATHS[layout].suffix.length) };
}
