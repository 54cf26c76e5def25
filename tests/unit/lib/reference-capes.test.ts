// Unit tests for the reference capes: the collection data against its schema and each platform's count, and the
// committed artwork (src/content/capes.json, public/images/capes).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  CAPE_PLATFORMS,
  CAPE_PREVIEW,
  ELYTRA_PREVIEW,
  capePreviewPath,
  capeTexturePath,
  capesOfPlatform,
  elytraPreviewPath,
  referenceCapeProblems,
  referenceCapeSchema,
  type ReferenceCape,
} from '../../../src/lib/reference-capes.ts';
import { capePreview, drawReferenceCape, elytraPreview, GLYPHS } from '../../../scripts/reference-cape-art.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const PUBLIC_DIR = path.join(ROOT, 'public');
const rawEntries = JSON.parse(fs.readFileSync(path.join(ROOT, 'src', 'content', 'capes.json'), 'utf8')) as unknown[];
const capes: ReferenceCape[] = rawEntries.map((entry) => referenceCapeSchema.parse(entry));

/** The decoded RGBA pixels and size of a file under public/. */
async function decode(sitePath: string) {
  const { data, info } = await sharp(path.join(PUBLIC_DIR, sitePath))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('reference capes data', () => {
  it('every entry passes the schema', () => {
    for (const [index, entry] of rawEntries.entries()) {
      const result = referenceCapeSchema.safeParse(entry);
      expect(result.success, `entry ${index}: ${result.error?.message}`).toBe(true);
    }
  });

  it('has 8 MINECON, at least 25 Java, 2 Bedrock and 14 cross-edition capes', () => {
    expect(capesOfPlatform(capes, 'minecon')).toHaveLength(8);
    expect(capesOfPlatform(capes, 'java').length).toBeGreaterThanOrEqual(25);
    expect(capesOfPlatform(capes, 'bedrock')).toHaveLength(2);
    expect(capesOfPlatform(capes, 'cross')).toHaveLength(14);
    expect(capes.filter((cape) => !CAPE_PLATFORMS.includes(cape.platform))).toEqual([]);
  });

  it('uses each key and each order number once per platform', () => {
    for (const platform of CAPE_PLATFORMS) {
      const own = capesOfPlatform(capes, platform);
      expect(new Set(own.map((cape) => cape.key)).size, platform).toBe(own.length);
      expect(new Set(own.map((cape) => cape.order)).size, platform).toBe(own.length);
    }
    expect(referenceCapeProblems(capes)).toEqual([]);
  });

  it('names every required reference cape', () => {
    const keys = (platform: ReferenceCape['platform']) => capesOfPlatform(capes, platform).map((cape) => cape.key);
    expect(keys('minecon')).toEqual([
      'minecon-2011',
      'minecon-2012',
      'minecon-2013',
      'minecon-2015',
      'minecon-2016',
      'minecon-2011-unused-1',
      'minecon-2011-unused-2',
      'minecon-2011-unused-3',
    ]);
    expect(keys('bedrock')).toEqual(['xbox-1st-birthday', 'progress-pride']);
    expect(keys('cross')).toEqual(
      expect.arrayContaining([
        'pancape',
        'founders',
        'vanilla',
        'cherry-blossom',
        '15th-anniversary',
        'eyeblossom',
        'copper',
      ]),
    );
    expect(keys('java')).toEqual(
      expect.arrayContaining([
        'mojang-classic',
        'mojang-studios',
        'christmas-2010',
        'new-year-2011',
        'bacon',
        'millionth-customer',
        'translator',
      ]),
    );
    expect(keys('java')).toEqual(
      expect.arrayContaining([
        'scrolls',
        'mojira-moderator',
        'realms-mapmaker',
        'cobalt',
        'migrator',
        'sniffer',
        'snail',
        'frog',
        'oxeye',
      ]),
    );
  });

  it('has a glyph for every character a letter motif may use', () => {
    for (const cape of capes.filter((entry) => entry.motif === 'letter')) {
      for (const char of cape.text ?? '') expect(GLYPHS[char], `${cape.key}: ${char}`).toBeDefined();
    }
    for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?!') expect(GLYPHS[char], char).toMatch(/^[01]{15}$/);
  });

  it('refuses what the rules forbid', () => {
    const valid = {
      title: 'Test',
      description: 'A test cape.',
      key: 'test-cape',
      platform: 'java',
      order: 0,
      palette: ['#000000', '#ffffff'],
      motif: 'plain',
    };
    expect(referenceCapeSchema.safeParse(valid).success).toBe(true);
    for (const [field, value] of [
      ['key', 'Test Cape'],
      ['key', 'test--cape'],
      ['platform', 'console'],
      ['palette', ['#000000']],
      ['palette', ['#000000', '#FFF']],
      ['motif', 'photo'],
      ['order', 1.5],
    ] as const) {
      expect(
        referenceCapeSchema.safeParse({ ...valid, [field]: value }).success,
        `${field}: ${JSON.stringify(value)}`,
      ).toBe(false);
    }
    expect(referenceCapeSchema.safeParse({ ...valid, motif: 'letter' }).success, 'a letter without a text').toBe(false);
    expect(referenceCapeSchema.safeParse({ ...valid, motif: 'letter', text: 'abc' }).success).toBe(false);
    const twice = [capes[0]!, { ...capes[0]!, order: 99 }];
    expect(referenceCapeProblems(twice)).toContain('minecon: key minecon-2011 is used twice');
  });
});

describe('reference cape artwork', () => {
  it('every entry has a 64 x 32 texture and its two previews', async () => {
    for (const cape of capes) {
      for (const [sitePath, width, height] of [
        [capeTexturePath(cape), 64, 32],
        [capePreviewPath(cape), CAPE_PREVIEW.width, CAPE_PREVIEW.height],
        [elytraPreviewPath(cape), ELYTRA_PREVIEW.width, ELYTRA_PREVIEW.height],
      ] as const) {
        expect(fs.existsSync(path.join(PUBLIC_DIR, sitePath)), sitePath).toBe(true);
        const metadata = await sharp(path.join(PUBLIC_DIR, sitePath)).metadata();
        expect([metadata.format, metadata.width, metadata.height], sitePath).toEqual(['png', width, height]);
      }
    }
  });

  it('the committed files are what npm run draw:capes draws from the data', async () => {
    for (const cape of capes) {
      const texture = drawReferenceCape(cape);
      for (const [sitePath, image] of [
        [capeTexturePath(cape), texture],
        [capePreviewPath(cape), capePreview(texture)],
        [elytraPreviewPath(cape), elytraPreview(texture)],
      ] as const) {
        const committed = await decode(sitePath);
        expect(committed.data.equals(image.data), `${sitePath} differs from its drawing: run npm run draw:capes`).toBe(
          true,
        );
      }
    }
  });

  it('draws the same pixels every time', () => {
    for (const cape of capes.slice(0, 5))
      expect(drawReferenceCape(cape).data.equals(drawReferenceCape(cape).data), cape.key).toBe(true);
  });

  it('holds no files that belong to no entry', () => {
    const expected = new Set(
      capes.flatMap((cape) => [capeTexturePath(cape), capePreviewPath(cape), elytraPreviewPath(cape)]),
    );
    const capesDir = path.join(PUBLIC_DIR, 'images', 'capes');
    const found = fs.readdirSync(capesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const stray = found
      .map((entry) => `/${path.relative(PUBLIC_DIR, path.join(entry.parentPath, entry.name))}`)
      .filter((sitePath) => !expected.has(sitePath));
    expect(stray).toEqual([]);
  });
});
