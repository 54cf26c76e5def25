// Decoded pixels as every generator draws them: 8-bit RGBA, row by row, no padding.

/** Decoded 8-bit RGBA pixels (4 bytes a pixel, rows top to bottom). */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
}

/** An RGBA colour, each channel 0..255. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** A new image of width x height filled with one colour (transparent by default). */
export function createImage(width: number, height: number, fill: Rgba = { r: 0, g: 0, b: 0, a: 0 }): RawImage {
  const data = Buffer.alloc(width * height * 4);
  if (fill.a !== 0 || fill.r !== 0 || fill.g !== 0 || fill.b !== 0) {
    for (let offset = 0; offset < data.length; offset += 4) {
      data[offset] = fill.r;
      data[offset + 1] = fill.g;
      data[offset + 2] = fill.b;
      data[offset + 3] = fill.a;
    }
  }
  return { data, width, height };
}

/** Parses `#rgb`, `#rrggbb` or `rrggbb` (any case) into an opaque colour; null when it is not one. */
export function parseHexColour(text: string): Rgba | null {
  const hex = text.replace(/^#/, '');
  const full = /^[0-9a-fA-F]{3}$/.test(hex) ? [...hex].map((digit) => digit + digit).join('') : hex;
  if (!/^[0-9a-fA-F]{6}$/.test(full)) return null;
  const value = Number.parseInt(full, 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255, a: 255 };
}
