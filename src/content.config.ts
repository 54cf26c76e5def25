// Content collections: legal pages and help (MDX), each with a checked frontmatter.
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { glob } from 'astro/loaders';

const page = z.object({
  title: z.string(),
  description: z.string(),
  order: z.number().int(),
  updated: z.coerce.date(),
});

export const collections = {
  legal: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/legal' }), schema: page }),
  help: defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/help' }), schema: page }),
};
