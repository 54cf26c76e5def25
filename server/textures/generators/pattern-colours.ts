// Colour arithmetic for prompt patterns (mixing, contrast, tones) and the seeded random numbers that keep a prompt's
// pixels the same.
import { parseHexColour, type Rgba } from '../pipeline/raw-image.ts';

export const WHITE = hex('#f7f7f7');
export const BLACK = hex('#141414');

/** A colour from a hex string in the tables above. */
export function hex(text: string): Rgba {
  const colour = parseHexColour(text);
  if (!colour) throw new Error(`Not a colour: ${text}`);
  return colour;
}

/** a blended towards b by t (0..1). */
export function mix(a: Rgba, b: Rgba, t: number): Rgba {
  return {
    r: Math.round(a.r + (b.r - a.r) * t),
    g: Math.round(a.g + (b.g - a.g) * t),
    b: Math.round(a.b + (b.b - a.b) * t),
    a: 255,
  };
}

/** How light a colour looks, 0..1. */
export function luma(colour: Rgba): number {
  return (0.299 * colour.r + 0.587 * colour.g + 0.114 * colour.b) / 255;
}

/** How far apart two colours look, 0..~1.5 (lightness counts double). */
export function distance(a: Rgba, b: Rgba): number {
  const rgb = Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b) / 441;
  return rgb + Math.abs(luma(a) - luma(b));
}

/** The first candidate that stands out against `ground`, else the one that stands out most. */
export function contrasting(candidates: Rgba[], ground: Rgba): Rgba {
  const clear = candidates.find((candidate) => distance(candidate, ground) >= 0.45);
  if (clear) return clear;
  return candidates.reduce((best, candidate) =>
    distance(candidate, ground) > distance(best, ground) ? candidate : best,
  );
}

/** A darker tone of a light colour or a lighter tone of a dark one. */
export function tone(colour: Rgba, strength: number): Rgba {
  return luma(colour) >= 0.3
    ? mix(colour, { r: 0, g: 0, b: 0, a: 255 }, strength)
    : mix(colour, { r: 255, g: 255, b: 255, a: 255 }, strength);
}

/** A small fast PRNG (sfc32) seeded from 16 bytes; returns numbers in [0, 1). */
export function seededRandom(seed: Buffer): () => number {
  let a = seed.readUInt32LE(0);
  let b = seed.readUInt32LE(4);
  let c = seed.readUInt32LE(8);
  let d = seed.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
