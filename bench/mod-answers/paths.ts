// The mod answers bench's paths files, which wrk walks: the layouts a player is asked for by, and for each case the
// paths asked of its target beside the same answers' paths on the static baseline (known players, unknown ones,
// textures, the mix).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CUSTOM_SKIN_API_ROOT, picturePath } from '../../src/lib/mod-setup.ts';
import type { SeededWearer } from '../mod-seed.ts';
import { zipfSampler } from '../zipf.ts';
import { LIST, MIX, MIX_NAMES, UNKNOWN_POOL, UNKNOWN_SHARE, ZIPF } from './settings.ts';

/**
 * A layout a player is asked for by: its URL path for an id, the id the mods give it, and the baseline's file for a
 * texture's bytes.
 */
export interface PlayerLayout {
  by: 'uuid' | 'name';
  path: (id: string) => string;
  file: (hash: string) => string;
}

/**
 * The layouts a player is asked for by: the profile, the cape still, GIF and strip, the elytra, CustomSkinAPI and
 * MinecraftCapesAPI.
 */
export const PLAYER_LAYOUTS = {
  profile: { by: 'uuid', path: (id) => `/profile/${id}`, file: (hash) => `/profile/${hash}` },
  still: { by: 'name', path: (id) => picturePath('still', id), file: (hash) => picturePath('still', hash) },
  gif: { by: 'uuid', path: (id) => picturePath('gif', id), file: (hash) => picturePath('gif', hash) },
  strip: { by: 'uuid', path: (id) => picturePath('strip', id), file: (hash) => picturePath('strip', hash) },
  elytra: { by: 'name', path: (id) => picturePath('elytra', id), file: (hash) => picturePath('elytra', hash) },
  csl: {
    by: 'name',
    path: (id) => `${CUSTOM_SKIN_API_ROOT}${id}.json`,
    file: (hash) => `${CUSTOM_SKIN_API_ROOT}${hash}.json`,
  },
  minecraftCapesApi: {
    by: 'uuid',
    path: (id) => picturePath('minecraftCapesApi', id),
    file: (hash) => picturePath('minecraftCapesApi', hash),
  },
} satisfies Record<string, PlayerLayout>;
/** The name of a layout a player is asked for by. */
export type LayoutName = keyof typeof PLAYER_LAYOUTS;
/** Where the static baseline answers 404: `return 404` in a location of its own. */
export const MISSING_PREFIX = '/missing';

/** A random v4 uuid as the mod asks for it: 32 lowercase hex digits. */
export const freshUuid = () => randomUUID().replaceAll('-', '');

const NAME_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
/**
 * A random player name of 3–16 characters: as the game spells names (a capital first, then letters of both cases,
 * digits and `_`), or in lowercase.
 */
function randomName(spelling: 'game' | 'lower'): string {
  const length = 3 + Math.floor(Math.random() * 14);
  let name = String.fromCharCode(65 + Math.floor(Math.random() * 26));
  for (let i = 1; i < length; i++) name += NAME_LETTERS[Math.floor(Math.random() * NAME_LETTERS.length)];
  return spelling === 'lower' ? name.toLowerCase() : name;
}

/** Picks a key by weight. */
function weightedPicker<K extends string>(weights: Array<[K, number]>): () => K {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return () => {
    let x = Math.random() * total;
    for (const [key, weight] of weights) if ((x -= weight) < 0) return key;
    return weights.at(-1)![0];
  };
}

/** The mix's layouts and weights from MIX (`layout:weight,…`). */
function parseMix(text: string): Array<[LayoutName | 'textures', number]> {
  return text.split(',').map((entry) => {
    const [name, weight] = entry.split(':');
    if (name !== 'textures' && !(name! in PLAYER_LAYOUTS))
      throw new Error(`MIX: unknown layout ${name} (${Object.keys(PLAYER_LAYOUTS).join(', ')}, textures)`);
    return [name as LayoutName | 'textures', Number(weight)];
  });
}

/** Writes a paths file (one path a line); returns its path. */
export function writePaths(dir: string, name: string, paths: string[]): string {
  const file = path.join(dir, `${name}.txt`);
  fs.writeFileSync(file, paths.join('\n') + '\n');
  return file;
}

/**
 * A case's paths files: the target's, the static baseline's for the same answers, and the share of 404s they ask for.
 */
export interface PathLists {
  target: string;
  baseline: string;
  notFound: number;
  /** The same-files baseline's paths when they may not be the target's (new ids each, for the flood of new ids). */
  sameFiles?: string;
}

/**
 * Writes the paths files of every case: known players uniformly and with Zipf popularity, unknown players each new or
 * again and again, each layout, textures, and the mix.
 */
export function writePathLists(dir: string, wearers: SeededWearer[], hashes: string[]) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
  const lists = (name: string, make: () => [string, string]) => {
    const target: string[] = [];
    const baseline: string[] = [];
    for (let i = 0; i < LIST; i++) {
      const [a, b] = make();
      target.push(a);
      baseline.push(b);
    }
    return {
      target: writePaths(dir, name, target),
      baseline: writePaths(dir, `${name}-static`, baseline),
      notFound: baseline.filter((line) => line.startsWith(MISSING_PREFIX)).length / LIST,
    };
  };
  const layoutLists = (layout: LayoutName) =>
    lists(layout, () => {
      const wearer = pick(wearers);
      return [PLAYER_LAYOUTS[layout].path(wearer[PLAYER_LAYOUTS[layout].by]), PLAYER_LAYOUTS[layout].file(wearer.hash)];
    });
  const unknown: PathLists = {
    ...lists('unknown', () => {
      const urlPath = `/profile/${freshUuid()}`;
      return [urlPath, `${MISSING_PREFIX}${urlPath}`];
    }),
    // Ids of its own: the target's, once looked up, would be cheaper to look up again.
    sameFiles: writePaths(
      dir,
      'unknown-same-files',
      Array.from({ length: LIST }, () => `/profile/${freshUuid()}`),
    ),
  };
  const unknownPool = Array.from({ length: UNKNOWN_POOL }, () => freshUuid());
  const unknownNames = Array.from({ length: UNKNOWN_POOL }, () => randomName(MIX_NAMES));
  const unknownZipf = zipfSampler(unknownPool.length, ZIPF);
  const unknownSeen = lists('unknown-seen', () => {
    const urlPath = `/profile/${unknownPool[unknownZipf()]!}`;
    return [urlPath, `${MISSING_PREFIX}${urlPath}`];
  });
  const textures = lists('textures', () => {
    const urlPath = `/textures/${pick(hashes)}`;
    return [urlPath, urlPath];
  });
  const mixWeights = parseMix(MIX);
  const knownLayout = weightedPicker(mixWeights);
  const unknownLayout = weightedPicker(
    mixWeights.filter(([name]) => name !== 'textures') as Array<[LayoutName, number]>,
  );
  const zipf = zipfSampler(wearers.length, ZIPF);
  const mix = lists('mix', () => {
    if (Math.random() < UNKNOWN_SHARE) {
      const layout = PLAYER_LAYOUTS[unknownLayout()];
      const rank = unknownZipf();
      const urlPath = layout.path(layout.by === 'uuid' ? unknownPool[rank]! : unknownNames[rank]!);
      return [urlPath, `${MISSING_PREFIX}${urlPath}`];
    }
    const wearer = wearers[zipf()]!;
    const name = knownLayout();
    if (name === 'textures') return [`/textures/${wearer.hash}`, `/textures/${wearer.hash}`];
    const layout = PLAYER_LAYOUTS[name];
    return [layout.path(wearer[layout.by]), layout.file(wearer.hash)];
  });
  const profiles = layoutLists('profile');
  const profilesZipf = lists('profile-zipf', () => {
    const wearer = wearers[zipf()]!;
    return [PLAYER_LAYOUTS.profile.path(wearer.uuid), PLAYER_LAYOUTS.profile.file(wearer.hash)];
  });
  return { profiles, profilesZipf, unknown, unknownSeen, textures, mix, layoutLists };
}
