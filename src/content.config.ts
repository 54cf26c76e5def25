// Content collections: legal pages and help (MDX), each with a checked frontmatter, and the reference capes (JSON).
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { file, glob } from 'astro/loaders';
import { referenceCapeId, referenceCapeSchema } from './lib/reference-capes';

const page = z.object({
  title: z.string(),
  description: z.string(),
  order: z.number().int(),
  updated: z.coerce.date(),
});

/** Reads src/content/capes.json, giving each entry its id (platform and key). */
function parseCapes(text: string): Record<string, unknown>[] {
  return (JSON.parse(text) as { platform: string; key: string }[]).map((entry) => ({
    ...entry,
    id: referenceCapeId(entry),
  }));
}

export const collections = {
  legal: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/legal' }), schema: page }),
  help: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/help' }), schema: page }),
  capes: defineCollection({
    loader: file('src/content/capes.json', { parser: parseCapes }),
    schema: referenceCapeSchema,
  }),
};
