// The settings that point other cape mods at this site (Cape Provider, CustomSkinLoader), ready to copy, filled in with
// the mod API's address.

/**
 * A picture layout the mod API serves by a player's name or uuid: a cape as a file, or (`minecraftCapesApi`) the still
 * cape in base64 inside the JSON CustomSkinLoader's MinecraftCapesAPI loader reads.
 */
export type PictureLayout = 'still' | 'strip' | 'gif' | 'elytra' | 'minecraftCapesApi';

/** CustomSkinLoader's MinecraftCapesAPI root: it asks `{root}{uuid}` (32 hex digits) and reads `textures.cape`. */
export const MINECRAFT_CAPES_API_ROOT = '/csl-minecraftcapes/';

/**
 * Each picture layout's path around the player's id: `/capes/{id}.png`, `/capes/strip/{id}.png`, `/capes/{id}.gif`,
 * `/elytras/{id}.png`, `/csl-minecraftcapes/{id}`.
 */
export const PICTURE_PATHS: Record<PictureLayout, { prefix: string; suffix: string }> = {
  still: { prefix: '/capes/', suffix: '.png' },
  strip: { prefix: '/capes/strip/', suffix: '.png' },
  gif: { prefix: '/capes/', suffix: '.gif' },
  elytra: { prefix: '/elytras/', suffix: '.png' },
  minecraftCapesApi: { prefix: MINECRAFT_CAPES_API_ROOT, suffix: '' },
};

/** The path of a picture layout for a player's id (or a mod's placeholder, or a route parameter such as `:id`). */
export function picturePath(layout: PictureLayout, id: string): string {
  const { prefix, suffix } = PICTURE_PATHS[layout];
  return prefix + id + suffix;
}

/** CustomSkinLoader's CustomSkinAPI root: it asks `{root}{username}.json` and `{root}textures/{hash}`. */
export const CUSTOM_SKIN_API_ROOT = '/csl/';

/** The mod API's layouts these settings use, each with the mod's own placeholder for the player's name. */
export const MOD_LAYOUTS = {
  /**
   * The still cape, for Cape Provider's `default` resolver (`$name`) and CustomSkinLoader's Legacy loader
   * (`{USERNAME}`).
   */
  stillCape: (name: string) => picturePath('still', name),
  /** The cape as a GIF, for Cape Provider's `gif` resolver. */
  gifCape: (name: string) => picturePath('gif', name),
  /** The cape as a vertical strip of frames, for Cape Provider's `sprite` resolver. */
  stripCape: (name: string) => picturePath('strip', name),
  /** The texture CustomSkinLoader's Legacy loader reads the elytra from. */
  elytra: (name: string) => picturePath('elytra', name),
  /** CustomSkinLoader's CustomSkinAPI root. */
  customSkinApiRoot: CUSTOM_SKIN_API_ROOT,
  /** CustomSkinLoader's MinecraftCapesAPI root. */
  minecraftCapesApiRoot: MINECRAFT_CAPES_API_ROOT,
} as const;

/** Cape Provider's placeholder for the player's name in a URL template. */
const CAPE_PROVIDER_NAME = '$name';
/** CustomSkinLoader's placeholder for the player's name in a Legacy URL template. */
const CSL_USERNAME = '{USERNAME}';

/** Every setting of the help page, each a complete JSON object as the mod reads it. */
export interface ModSetup {
  /** Cape Provider: a `remoteCustomProviders` entry for still capes (`default` resolver, full colour). */
  capeProviderStill: string;
  /** Cape Provider: a `remoteCustomProviders` entry for animated capes (`gif` resolver). */
  capeProviderAnimated: string;
  /** Cape Provider: the URL template for the `sprite` resolver (animation in full colour). */
  capeProviderStripTemplate: string;
  /** CustomSkinLoader: a `loadlist` entry of type `Legacy` with the cape and elytra URLs. */
  customSkinLoaderLegacy: string;
  /** CustomSkinLoader: a `loadlist` entry of type `CustomSkinAPI`. */
  customSkinLoaderApi: string;
  /** CustomSkinLoader: a `loadlist` entry of type `MinecraftCapesAPI`. */
  customSkinLoaderMinecraftCapes: string;
  /** The file name CustomSkinLoader's `ExtraList` folder takes the entry under. */
  extraListFile: string;
}

/** A short lower-case id made of the site's name (`cloakroom`), for provider ids and file names. */
export function siteSlug(siteName: string): string {
  return (
    siteName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'capes'
  );
}

function json(value: object): string {
  return JSON.stringify(value, null, 2);
}

/** The settings for each mod, pointing at `baseUrl` (the mod API's public address, no trailing slash). */
export function modSetup(baseUrl: string, siteName: string): ModSetup {
  const slug = siteSlug(siteName);
  return {
    capeProviderStill: json({
      id: slug,
      name: siteName,
      uriTemplate: baseUrl + MOD_LAYOUTS.stillCape(CAPE_PROVIDER_NAME),
      textureResolverId: 'default',
    }),
    capeProviderAnimated: json({
      id: `${slug}-animated`,
      name: `${siteName} (animated)`,
      uriTemplate: baseUrl + MOD_LAYOUTS.gifCape(CAPE_PROVIDER_NAME),
      textureResolverId: 'gif',
    }),
    capeProviderStripTemplate: baseUrl + MOD_LAYOUTS.stripCape(CAPE_PROVIDER_NAME),
    customSkinLoaderLegacy: json({
      name: siteName,
      type: 'Legacy',
      cape: baseUrl + MOD_LAYOUTS.stillCape(CSL_USERNAME),
      elytra: baseUrl + MOD_LAYOUTS.elytra(CSL_USERNAME),
    }),
    customSkinLoaderApi: json({
      name: `${siteName} (CustomSkinAPI)`,
      type: 'CustomSkinAPI',
      root: baseUrl + MOD_LAYOUTS.customSkinApiRoot,
    }),
    customSkinLoaderMinecraftCapes: json({
      name: `${siteName} (MinecraftCapesAPI)`,
      type: 'MinecraftCapesAPI',
      root: baseUrl + MOD_LAYOUTS.minecraftCapesApiRoot,
    }),
    extraListFile: `${slug}.json`,
  };
}
