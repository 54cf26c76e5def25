// Astro builds the static site into dist/, each page with its Content-Security-Policy in a meta tag
// (server/site/page-policy.ts); any static host serves it by the rules the build writes beside it
// (server/site/host-rules.ts).
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import tailwindcss from '@tailwindcss/vite';
import { loadConfig } from './server/config/index.ts';
import { astroCspSetting } from './server/site/page-policy.ts';

export default defineConfig({
  output: 'static',
  // Astro 7 defaults to JSX whitespace rules, which join text across line breaks ("19players"); keep lossless compression.
  compressHTML: true,
  build: { format: 'file', inlineStylesheets: 'auto' },
  trailingSlash: 'never',
  integrations: [react(), mdx()],
  security: { csp: astroCspSetting(loadConfig()) },
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
