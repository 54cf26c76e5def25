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
  vite: {
    plugins: [tailwindcss()],
    build: {
      // skinview3d with three.js is one chunk of about 520 KB, loaded only when a 3D preview mounts; three.js splits no further.
      chunkSizeWarningLimit: 600,
      rolldownOptions: {
        // Astro's MDX pages carry a "use astro:head-inject" directive that the bundler warns about and Astro handles itself
        // (withastro/astro#18087, open); every other warning is reported as usual.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use astro:head-inject')) return;
          warn(warning);
        },
      },
    },
  },
  devToolbar: { enabled: false },
});
