// Unit tests for the banner URL rules (src/lib/banner-url.ts) and the LivzMC and Planet Minecraft banner code decoders
// (server/textures/generators/banner/codes.ts).
import { describe, expect, it } from 'vitest';
import { bannerIdFromUrl, bannerServiceFromUrl, unsupportedBannerMessage } from '../../../src/lib/banner-url.ts';
import {
  decodeBannerCode,
  decodeLivzmc,
  decodePlanetMinecraft,
} from '../../../server/textures/generators/banner/codes.ts';
import { DYE_COLOURS, DYE_RGB, type DyeColour } from '../../../server/textures/generators/banner/colours.ts';
import { PATTERN_IDS } from '../../../server/textures/generators/banner/patterns.ts';
import { renderBanner } from '../../../server/textures/generators/banner/render.ts';
import type { RawImage, Rgba } from '../../../server/textures/pipeline/raw-image.ts';

/** The colour of one pixel of an image. */
function pixelAt(image: RawImage, x: number, y: number): Rgba {
  const offset = (y * image.width + x) * 4;
  return {
    r: image.data[offset] ?? -1,
    g: image.data[offset + 1] ?? -1,
    b: image.data[offset + 2] ?? -1,
    a: image.data[offset + 3] ?? -1,
  };
}

/** Every pixel of a row range has the dye's colour. */
function expectRowsOf(image: RawImage, firstRow: number, lastRow: number, colour: DyeColour): void {
  for (let y = firstRow; y <= lastRow; y++) {
    for (let x = 0; x < image.width; x++) expect(pixelAt(image, x, y), `pixel ${x},${y}`).toEqual(DYE_RGB[colour]);
  }
}

/** Every letter that names a pattern in LivzMC codes (`a` is the base pattern). */
const LIVZMC_PATTERN_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM';
/** Every character that names a pattern in Planet Minecraft codes. */
const PLANET_MINECRAFT_PATTERN_CHARACTERS = '3456789abcdefghijklmnopqrstuvwxyzABCDEFGHI';

describe('unsupportedBannerMessage', () => {
  it('is the not-implemented message word for word, with the URL first', () => {
    expect(unsupportedBannerMessage('https://example.com/banner?b=1')).toBe(
      'https://example.com/banner?b=1 has not yet been implemented. Join our discord to request this service!',
    );
  });
});

describe('bannerServiceFromUrl', () => {
  it.each([
    ['https://www.livzmc.net/banner/?=pabE', 'lmc'],
    ['https://livzmc.net/banner/?=pa', 'lmc'],
    ['HTTPS://WWW.LIVZMC.NET/banner/?=pa', 'lmc'],
    ['livzmc.net/banner/?=pa', 'lmc'],
    ['https://livzmc.net./banner/?=pa', 'lmc'],
    ['http://optifine.net/showBanner?format=pabE&valign=t', 'lmc'],
    ['https://www.optifine.net/showBanner?format=pa', 'lmc'],
    ['https://www.planetminecraft.com/banner/?b=g2v', 'pmc'],
    ['https://planetminecraft.com/banner/?e=g2v', 'pmc'],
    ['  www.planetminecraft.com/banner/?b=g  ', 'pmc'],
  ])('%s is %s', (url, service) => {
    expect(bannerServiceFromUrl(url)).toBe(service);
  });

  it.each([
    'https://livzmc.net.evil.example/banner/?=pa',
    'https://www.livzmc.net.evil.example/banner/?=pa',
    'https://evil.example/livzmc.net/banner/?=pa',
    'https://evil.example/?next=https://www.livzmc.net/banner/?=pa',
    'https://livzmc.net@evil.example/banner/?=pa',
    'https://notlivzmc.net/banner/?=pa',
    'https://api.livzmc.net/banner/?=pa',
    'https://www.planetminecraft.com.evil.example/banner/?b=g',
    'https://planetminecraft.co/banner/?b=g',
    'ftp://livzmc.net/banner/?=pa',
    'javascript:alert(1)//livzmc.net',
    'https://needcoolshoes.com/banner?=pa',
    'not a url at all',
    '',
  ])('%s is refused', (url) => {
    expect(bannerServiceFromUrl(url)).toBeNull();
  });
});

describe('bannerIdFromUrl', () => {
  it.each([
    ['https://www.livzmc.net/banner/?=pabE', 'pabE'],
    ['https://www.livzmc.net/banner/?=pabE&valign=s&colTop=ff0000', 'pabE'],
    ['https://optifine.net/showBanner?format=pabE&valign=t', 'pabE'],
    ['https://www.planetminecraft.com/banner/?b=g2v', 'g2v'],
    ['https://www.planetminecraft.com/banner/?b=2c729cmcf28&e=other', '2c729cmcf28'],
  ])('%s has the id %s', (url, id) => {
    expect(bannerIdFromUrl(url)).toBe(id);
  });

  it.each([
    'https://www.livzmc.net/banner/',
    'https://www.livzmc.net/banner/?=',
    'https://www.livzmc.net/banner/?=&valign=s',
    'https://www.livzmc.net/banner/?=pa-bE',
    'https://www.livzmc.net/banner/?=pa%20bE',
    'https://www.livzmc.net/banner/?=pa;a',
    'https://www.livzmc.net/banner/?=pa=bE',
    'https://www.planetminecraft.com/banner/?b=g2v#top',
    'https://www.planetminecraft.com/banner/?b=g2v/',
  ])('%s has no valid id', (url) => {
    expect(bannerIdFromUrl(url)).toBeNull();
  });
});

describe('decodeLivzmc', () => {
  it('reads a base colour alone', () => {
    expect(decodeLivzmc('pa')).toEqual({ base: 'white', layers: [] });
    expect(decodeLivzmc('aa')).toEqual({ base: 'black', layers: [] });
  });

  it('reads a red top stripe on white, which draws the top third red and the rest white', () => {
    const banner = decodeLivzmc('pabE');
    expect(banner).toEqual({ base: 'white', layers: [{ pattern: 'stripe_top', colour: 'red' }] });
    const image = renderBanner(banner!);
    expectRowsOf(image, 0, 13, 'red');
    expectRowsOf(image, 14, 39, 'white');
  });

  it('reads several layers in order, the later ones drawn over the earlier', () => {
    const banner = decodeLivzmc('aaoBlvbz');
    expect(banner).toEqual({
      base: 'black',
      layers: [
        { pattern: 'small_stripes', colour: 'orange' },
        { pattern: 'rhombus', colour: 'yellow' },
        { pattern: 'straight_cross', colour: 'red' },
      ],
    });
    const image = renderBanner(banner!);
    expect(pixelAt(image, 0, 0)).toEqual(DYE_RGB.black);
    expect(pixelAt(image, 2, 2)).toEqual(DYE_RGB.orange);
    expect(pixelAt(image, 4, 2)).toEqual(DYE_RGB.black);
    expect(pixelAt(image, 6, 16)).toEqual(DYE_RGB.yellow);
    expect(pixelAt(image, 10, 20)).toEqual(DYE_RGB.red);
    expect(pixelAt(image, 10, 2)).toEqual(DYE_RGB.red);
  });

  it('reads the four diagonals the right way round', () => {
    const cases: Array<[string, string, [number, number], [number, number]]> = [
      ['r', 'diagonal_left', [1, 1], [18, 38]],
      ['J', 'diagonal_right', [18, 1], [1, 38]],
      ['I', 'diagonal_up_left', [1, 38], [18, 1]],
      ['x', 'diagonal_up_right', [18, 38], [1, 1]],
    ];
    for (const [letter, pattern, red, white] of cases) {
      const banner = decodeLivzmc(`pab${letter}`);
      expect(banner?.layers).toEqual([{ pattern, colour: 'red' }]);
      const image = renderBanner(banner!);
      expect(pixelAt(image, ...red), `${pattern} covers ${red.join(',')}`).toEqual(DYE_RGB.red);
      expect(pixelAt(image, ...white), `${pattern} leaves ${white.join(',')}`).toEqual(DYE_RGB.white);
    }
  });

  it('knows 16 colour letters and 39 pattern letters, each a different colour or pattern', () => {
    const colours = [...'abcdefghijklmnop'].map((letter) => decodeLivzmc(`${letter}a`)?.base);
    expect(new Set(colours)).toEqual(new Set(DYE_COLOURS));
    const patterns = [...LIVZMC_PATTERN_LETTERS].map((letter) => decodeLivzmc(`pab${letter}`)?.layers[0]?.pattern);
    expect(patterns).not.toContain(undefined);
    expect(new Set(patterns).size).toBe(39);
    expect(PATTERN_IDS.filter((pattern) => !patterns.includes(pattern))).toEqual(['globe', 'piglin', 'flow', 'guster']);
  });

  it('reads up to 16 layers over the base and refuses 17', () => {
    expect(decodeLivzmc(`pa${'bE'.repeat(16)}`)?.layers).toHaveLength(16);
    expect(decodeLivzmc(`pa${'bE'.repeat(17)}`)).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['a lone letter', 'p'],
    ['an odd length', 'pab'],
    ['an unknown colour', 'qa'],
    ['an upper-case colour', 'Pa'],
    ['a base pair without the base pattern', 'pb'],
    ['an unknown pattern', 'pabN'],
    ['a digit', 'pa1E'],
    ['punctuation', 'pa;a'],
  ])('refuses %s', (_what, code) => {
    expect(decodeLivzmc(code)).toBeNull();
  });
});

describe('decodePlanetMinecraft', () => {
  it('reads a base colour alone', () => {
    expect(decodePlanetMinecraft('g')).toEqual({ base: 'white', layers: [] });
    expect(decodePlanetMinecraft('1')).toEqual({ base: 'black', layers: [] });
  });

  it('reads a red top stripe on white, which draws the top third red and the rest white', () => {
    const banner = decodePlanetMinecraft('g2v');
    expect(banner).toEqual({ base: 'white', layers: [{ pattern: 'stripe_top', colour: 'red' }] });
    const image = renderBanner(banner!);
    expectRowsOf(image, 0, 13, 'red');
    expectRowsOf(image, 14, 39, 'white');
  });

  it('reads a red banner of five layers (an editor remix link)', () => {
    expect(decodePlanetMinecraft('2c729cmcf28')).toEqual({
      base: 'red',
      layers: [
        { pattern: 'cross', colour: 'yellow' },
        { pattern: 'diagonal_left', colour: 'red' },
        { pattern: 'square_top_right', colour: 'yellow' },
        { pattern: 'mojang', colour: 'yellow' },
        { pattern: 'curly_border', colour: 'red' },
      ],
    });
  });

  it('reads a left arrow: a red lozenge with its right half covered in black', () => {
    const banner = decodePlanetMinecraft('12g1E');
    expect(banner).toEqual({
      base: 'black',
      layers: [
        { pattern: 'rhombus', colour: 'red' },
        { pattern: 'half_vertical_right', colour: 'black' },
      ],
    });
    const image = renderBanner(banner!);
    expect(pixelAt(image, 7, 20)).toEqual(DYE_RGB.red);
    expect(pixelAt(image, 13, 20)).toEqual(DYE_RGB.black);
    expect(pixelAt(image, 7, 2)).toEqual(DYE_RGB.black);
  });

  it('knows 16 colour characters and 42 pattern characters, each a different colour or pattern', () => {
    const colours = [...'123456789abcdefg'].map((character) => decodePlanetMinecraft(character)?.base);
    expect(new Set(colours)).toEqual(new Set(DYE_COLOURS));
    const patterns = [...PLANET_MINECRAFT_PATTERN_CHARACTERS].map(
      (character) => decodePlanetMinecraft(`g2${character}`)?.layers[0]?.pattern,
    );
    expect(patterns).not.toContain(undefined);
    expect(new Set(patterns)).toEqual(new Set(PATTERN_IDS.filter((pattern) => pattern !== 'base')));
  });

  it('reads up to 16 layers and refuses 17', () => {
    expect(decodePlanetMinecraft(`g${'2v'.repeat(16)}`)?.layers).toHaveLength(16);
    expect(decodePlanetMinecraft(`g${'2v'.repeat(17)}`)).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['an even length', 'g2'],
    ['an unknown base colour', 'h'],
    ['a zero', '0'],
    ['an unknown layer colour', 'gh5'],
    ['an unknown pattern', 'g21'],
    ['a pattern past the list', 'g2J'],
    ['punctuation', 'g2-'],
  ])('refuses %s', (_what, code) => {
    expect(decodePlanetMinecraft(code)).toBeNull();
  });
});

describe('decodeBannerCode', () => {
  it('reads each editor with its own decoder', () => {
    expect(decodeBannerCode('lmc', 'pabE')).toEqual(decodeLivzmc('pabE'));
    expect(decodeBannerCode('pmc', 'g2v')).toEqual(decodePlanetMinecraft('g2v'));
    expect(decodeBannerCode('lmc', 'g2v')).toBeNull();
    expect(decodeBannerCode('pmc', 'pabE')).toBeNull();
  });
});
