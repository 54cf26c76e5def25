// The game's 16 dye colours as banners show them (each dye's texture diffuse colour).
import type { Rgba } from '../../pipeline/raw-image.ts';

/** The 16 dye colours, in the game's dye id order (white 0 … black 15). */
export const DYE_COLOURS = [
  'white',
  'orange',
  'magenta',
  'light_blue',
  'yellow',
  'lime',
  'pink',
  'gray',
  'light_gray',
  'cyan',
  'purple',
  'blue',
  'brown',
  'green',
  'red',
  'black',
] as const;

/** One of the game's dye colours. */
export type DyeColour = (typeof DYE_COLOURS)[number];

/** An opaque colour from 0xRRGGBB. */
function opaque(value: number): Rgba {
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255, a: 255 };
}

/**
 * The colour each dye tints a banner with: the game's "texture diffuse colour" of the dye.
 * Values as the game's DyeColor enum gives them, repeated for the vanilla dyes in github.com/JDKDigital/Dyenamics
 * src/main/java/cy/jdkdigital/dyenamics/core/util/DyenamicDyeColor.java (WHITE 16383998 = 0xF9FFFE, ORANGE 16351261 =
 * 0xF9801D, …).
 */
export const DYE_RGB: Readonly<Record<DyeColour, Rgba>> = {
  white: opaque(0xf9fffe),
  orange: opaque(0xf9801d),
  magenta: opaque(0xc74ebd),
  light_blue: opaque(0x3ab3da),
  yellow: opaque(0xfed83d),
  lime: opaque(0x80c71f),
  pink: opaque(0xf38baa),
  gray: opaque(0x474f52),
  light_gray: opaque(0x9d9d97),
  cyan: opaque(0x169c9c),
  purple: opaque(0x8932b8),
  blue: opaque(0x3c44aa),
  brown: opaque(0x835432),
  green: opaque(0x5e7c16),
  red: opaque(0xb02e26),
  black: opaque(0x1d1d21),
};

/** True when the text names one of the 16 dye colours. */
export function isDyeColour(name: string): name is DyeColour {
  return (DYE_COLOURS as readonly string[]).includes(name);
}
