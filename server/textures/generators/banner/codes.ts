// Reads the banner codes of the two banner editors (LivzMC's, which uses OptiFine's format, and Planet Minecraft's)
// into banners.
import type { BannerService } from '../../../../src/lib/banner-url.ts';
import type { DyeColour } from './colours.ts';
import type { PatternId } from './patterns.ts';
import { MAX_BANNER_LAYERS, type Banner, type BannerLayer } from './render.ts';

/**
 * LivzMC (OptiFine format) colour letters.
 * From github.com/LivzMC/website public/js/banner.js and src/utils/BannerUtils.ts (COLOUR_ARRAY: a black … p white; its
 * "dark_gray", "light_green" and "light_purple" are the game's gray, lime and magenta), checked against its
 * public/js/import-pmc.js COLOUR_MAP, which maps Planet Minecraft's colour digits onto these letters.
 */
const LIVZMC_COLOURS: Readonly<Record<string, DyeColour>> = {
  a: 'black',
  b: 'red',
  c: 'green',
  d: 'brown',
  e: 'blue',
  f: 'purple',
  g: 'cyan',
  h: 'light_gray',
  i: 'gray',
  j: 'pink',
  k: 'lime',
  l: 'yellow',
  m: 'light_blue',
  n: 'magenta',
  o: 'orange',
  p: 'white',
};

/**
 * LivzMC (OptiFine format) pattern letters: `a` is the base, then one letter per pattern in the order of the game's
 * old short pattern codes (bl, bo, br, bri, bs, …). From github.com/tritonmc/Triton
 * triton-spigot/src/main/java/com/rexcantor64/triton/spigot/banners/Patterns.java, checked against
 * github.com/LivzMC/website public/js/import-pmc.js LAYER_MAP (Planet Minecraft pattern → LivzMC letter) and against
 * the tiles public/js/banner.js draws for each letter. The old codes `rd` and `rud` are today's diagonal_up_right and
 * diagonal_right. This format has no letters for globe, piglin, flow and guster.
 */
const LIVZMC_PATTERNS: Readonly<Record<string, PatternId>> = {
  a: 'base',
  b: 'square_bottom_left',
  c: 'border',
  d: 'square_bottom_right',
  e: 'bricks',
  f: 'stripe_bottom',
  g: 'triangle_bottom',
  h: 'triangles_bottom',
  i: 'curly_border',
  j: 'cross',
  k: 'creeper',
  l: 'stripe_center',
  m: 'stripe_downleft',
  n: 'stripe_downright',
  o: 'flower',
  p: 'gradient',
  q: 'half_horizontal',
  r: 'diagonal_left',
  s: 'stripe_left',
  t: 'circle',
  u: 'mojang',
  v: 'rhombus',
  w: 'stripe_middle',
  x: 'diagonal_up_right',
  y: 'stripe_right',
  z: 'straight_cross',
  A: 'skull',
  B: 'small_stripes',
  C: 'square_top_left',
  D: 'square_top_right',
  E: 'stripe_top',
  F: 'triangle_top',
  G: 'triangles_top',
  H: 'half_vertical',
  I: 'diagonal_up_left',
  J: 'diagonal_right',
  K: 'gradient_up',
  L: 'half_horizontal_bottom',
  M: 'half_vertical_right',
};

/**
 * Planet Minecraft colour characters ('1' black … 'g' white).
 * From github.com/magicus/loom-assistant
 * src/main/java/se/icus/mag/loomassistant/types/recipe/BannerParserPlanetMinecraft.java (COLORS by index in its
 * ALPHABET) and github.com/JackFred2/JacksServerSideTweaks src/main/java/red/jackf/jsst/util/sgui/banners/PMC.java.
 */
const PLANET_MINECRAFT_COLOURS: Readonly<Record<string, DyeColour>> = {
  '1': 'black',
  '2': 'red',
  '3': 'green',
  '4': 'brown',
  '5': 'blue',
  '6': 'purple',
  '7': 'cyan',
  '8': 'light_gray',
  '9': 'gray',
  a: 'pink',
  b: 'lime',
  c: 'yellow',
  d: 'light_blue',
  e: 'magenta',
  f: 'orange',
  g: 'white',
};

/**
 * Planet Minecraft pattern characters. From the same two files (loom-assistant's PATTERNS by ALPHABET index, JSST's
 * PMC.PATTERNS, where DIAGONAL_RIGHT_MIRROR / DIAGONAL_RIGHT / DIAGONAL_LEFT_MIRROR are today's diagonal_right /
 * diagonal_up_right / diagonal_up_left); 'H' flow and 'I' guster come from loom-assistant only.
 */
const PLANET_MINECRAFT_PATTERNS: Readonly<Record<string, PatternId>> = {
  '3': 'border',
  '4': 'bricks',
  '5': 'circle',
  '6': 'creeper',
  '7': 'cross',
  '8': 'curly_border',
  '9': 'diagonal_left',
  a: 'diagonal_right',
  b: 'flower',
  c: 'gradient',
  d: 'half_horizontal',
  e: 'half_vertical',
  f: 'mojang',
  g: 'rhombus',
  h: 'skull',
  i: 'small_stripes',
  j: 'square_bottom_left',
  k: 'square_bottom_right',
  l: 'square_top_left',
  m: 'square_top_right',
  n: 'straight_cross',
  o: 'stripe_bottom',
  p: 'stripe_center',
  q: 'stripe_downleft',
  r: 'stripe_downright',
  s: 'stripe_left',
  t: 'stripe_middle',
  u: 'stripe_right',
  v: 'stripe_top',
  w: 'triangles_bottom',
  x: 'triangles_top',
  y: 'triangle_bottom',
  z: 'triangle_top',
  A: 'diagonal_up_left',
  B: 'diagonal_up_right',
  C: 'gradient_up',
  D: 'half_horizontal_bottom',
  E: 'half_vertical_right',
  F: 'globe',
  G: 'piglin',
  H: 'flow',
  I: 'guster',
};

/** Own-property look-up in a code table (so names like "constructor" are never found). */
function lookUp<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | null {
  return key !== undefined && Object.hasOwn(table, key) ? (table[key] ?? null) : null;
}

/**
 * Reads layer pairs (colour character, pattern character) from `start` to the end of the code; null at the first
 * unknown character.
 */
function readLayers(
  code: string,
  start: number,
  colours: Readonly<Record<string, DyeColour>>,
  patterns: Readonly<Record<string, PatternId>>,
): BannerLayer[] | null {
  const layers: BannerLayer[] = [];
  for (let index = start; index < code.length; index += 2) {
    const colour = lookUp(colours, code[index]);
    const pattern = lookUp(patterns, code[index + 1]);
    if (colour === null || pattern === null) return null;
    layers.push({ pattern, colour });
  }
  return layers;
}

/**
 * Reads a LivzMC banner code (the text after `?=` in `https://www.livzmc.net/banner/?=…`, OptiFine's `format`): two
 * letters per layer, colour then pattern; the first pair is the base colour with the base pattern `a` (e.g. `pa` a
 * plain white banner, `pabE` white with a red top stripe). Null when the code is empty, of odd length, has more than 16
 * layers over the base, or has an unknown letter.
 */
export function decodeLivzmc(code: string): Banner | null {
  if (code.length < 2 || code.length % 2 !== 0 || code.length > 2 * (1 + MAX_BANNER_LAYERS)) return null;
  const base = lookUp(LIVZMC_COLOURS, code[0]);
  if (base === null || code[1] !== 'a') return null;
  const layers = readLayers(code, 2, LIVZMC_COLOURS, LIVZMC_PATTERNS);
  return layers === null ? null : { base, layers };
}

/**
 * Reads a Planet Minecraft banner code (the text after `?b=` or `?e=` in
 * `https://www.planetminecraft.com/banner/?b=…`): one character for the base colour, then two per layer, colour then
 * pattern (e.g. `g` a plain white banner, `g2v` white with a red top stripe). Null when the code is empty, of even
 * length, has more than 16 layers, or has an unknown character.
 */
export function decodePlanetMinecraft(code: string): Banner | null {
  if (code.length < 1 || code.length % 2 !== 1 || code.length > 1 + 2 * MAX_BANNER_LAYERS) return null;
  const base = lookUp(PLANET_MINECRAFT_COLOURS, code[0]);
  if (base === null) return null;
  const layers = readLayers(code, 1, PLANET_MINECRAFT_COLOURS, PLANET_MINECRAFT_PATTERNS);
  return layers === null ? null : { base, layers };
}

/** Reads a banner code of the given banner editor; null for an invalid code. */
export function decodeBannerCode(service: BannerService, code: string): Banner | null {
  return service === 'lmc' ? decodeLivzmc(code) : decodePlanetMinecraft(code);
}
