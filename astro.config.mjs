// Astro builds the static site into dist/; the API process serves it (see server/routes/pages.ts).
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  output: 'static',
  // Astro 7 defaults to JSX whitespace rules, which join text across line breaks ("19players"); keep lossless compression.
  compressHTML: true,
  build: { format: 'file', inlineStylesheets: 'auto' },
  trailingSlash: 'never',
  integrations: [react(), mdx()],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
