// The reference cape galleries: the entry schema, where each cape's files live, and which platforms each gallery page
// lists.
import { z } from 'astro/zod';

/**
 * The platforms a reference cape belongs to; `cross` capes are on both editions and listed on the Java and Bedrock
 * pages.
 */
export const CAPE_PLATFORMS = ['minecon', 'java', 'bedrock', 'cross'] as const;
export type CapePlatform = (typeof CAPE_PLATFORMS)[number];

/** The patterns our own artwork for a reference cape can be drawn with (scripts/reference-cape-art.ts). */
export const CAPE_MOTIFS = [
  'plain',
  'stripes',
  'bands',
  'cross',
  'diamond',
  'creeper',
  'letter',
  'checker',
  'flower',
  'gradient',
  'heart',
  'ring',
  'chevron',
  'border',
  'tree',
] as const;
export type CapeMotif = (typeof CAPE_MOTIFS)[number];

/** A cape key: lowercase letters and digits in words joined by single hyphens ("minecon-2011"). */
export const CAPE_KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The characters the `letter` motif can draw (scripts/reference-cape-art.ts has a glyph for each). */
export const CAPE_TEXT_PATTERN = /^[A-Z0-9?!]{1,2}$/;

/**
 * One reference cape: what it is called and how it was obtained, plus the palette and motif our artwork is drawn from.
 */
export const referenceCapeSchema = z
  .object({
    title: z.string().min(1).max(60),
    description: z.string().min(1).max(400),
    key: z.string().regex(CAPE_KEY_PATTERN, 'a lowercase slug such as "minecon-2011"'),
    platform: z.enum(CAPE_PLATFORMS),
    /** Position in its platform's list (ascending). */
    order: z.number().int().nonnegative(),
    /** Colours as #rrggbb: the first is the background, the others the pattern's colours in turn. */
    palette: z
      .array(z.string().regex(/^#[0-9a-f]{6}$/, 'a lowercase #rrggbb colour'))
      .min(2)
      .max(12),
    motif: z.enum(CAPE_MOTIFS),
    /** One or two characters, drawn by the `letter` motif. */
    text: z.string().regex(CAPE_TEXT_PATTERN, 'one or two capital letters, digits, ? or !').optional(),
  })
  .refine((cape) => cape.motif !== 'letter' || cape.text !== undefined, {
    message: 'the letter motif needs a text',
    path: ['text'],
  });

export type ReferenceCape = z.infer<typeof referenceCapeSchema>;

/** The collection id of a cape: keys are unique per platform, so the id joins both. */
export function referenceCapeId(cape: { platform: string; key: string }): string {
  return `${cape.platform}-${cape.key}`;
}

/** The site path of a cape's 64 x 32 texture, the file its Download link serves. */
export function capeTexturePath(cape: { platform: CapePlatform; key: string }): string {
  return `/images/capes/${cape.platform}/${cape.key}.png`;
}

/** The site path of a cape's front, enlarged (the row's cape preview). */
export function capePreviewPath(cape: { platform: CapePlatform; key: string }): string {
  return `/images/capes/${cape.platform}/${cape.key}-cape.png`;
}

/** The site path of a cape's elytra wings, enlarged (the row's elytra preview). */
export function elytraPreviewPath(cape: { platform: CapePlatform; key: string }): string {
  return `/images/capes/${cape.platform}/${cape.key}-elytra.png`;
}

/** How much the previews enlarge the texture (nearest neighbour), and their sizes in pixels. */
export const CAPE_PREVIEW = { scale: 8, width: 80, height: 128 } as const;
export const ELYTRA_PREVIEW = { scale: 6, width: 120, height: 120 } as const;

/** The three gallery pages: their route and the platforms they list, in order. */
export const REFERENCE_GALLERIES = {
  'minecon-capes': ['minecon'],
  'java-capes': ['java', 'cross'],
  'bedrock-capes': ['bedrock', 'cross'],
} as const satisfies Record<string, readonly CapePlatform[]>;
export type ReferenceGalleryRoute = keyof typeof REFERENCE_GALLERIES;

/** The heading of each platform's group on the gallery pages. */
export const PLATFORM_HEADINGS: Record<CapePlatform, string> = {
  minecon: 'MINECON capes',
  java: 'Java Edition capes',
  bedrock: 'Bedrock Edition capes',
  cross: 'Cross-edition capes',
};

/** How many entries each platform must have; `java` is a minimum. */
export const PLATFORM_COUNTS = { minecon: 8, java: 25, bedrock: 2, cross: 14 } as const;

/** One platform's capes, in list order. */
export function capesOfPlatform<T extends Pick<ReferenceCape, 'platform' | 'order' | 'key'>>(
  capes: readonly T[],
  platform: CapePlatform,
): T[] {
  return capes
    .filter((cape) => cape.platform === platform)
    .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
}

/**
 * What is wrong with a list of capes as a whole: a key or an order used twice on one platform, or a platform with too
 * few or too many entries.
 */
export function referenceCapeProblems(capes: readonly Pick<ReferenceCape, 'platform' | 'order' | 'key'>[]): string[] {
  const problems: string[] = [];
  for (const platform of CAPE_PLATFORMS) {
    const own = capes.filter((cape) => cape.platform === platform);
    const keys = own.map((cape) => cape.key);
    const orders = own.map((cape) => cape.order);
    for (const key of new Set(keys.filter((key, index) => keys.indexOf(key) !== index)))
      problems.push(`${platform}: key ${key} is used twice`);
    for (const order of new Set(orders.filter((order, index) => orders.indexOf(order) !== index)))
      problems.push(`${platform}: order ${order} is used twice`);
    const wanted = PLATFORM_COUNTS[platform];
    if (platform === 'java' ? own.length < wanted : own.length !== wanted) {
      problems.push(`${platform}: ${own.length} entries, expected ${platform === 'java' ? 'at least ' : ''}${wanted}`);
    }
  }
  return problems;
}
