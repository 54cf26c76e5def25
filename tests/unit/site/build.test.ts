// The built site's fingerprint: a start rebuilds the site whenever what the pages print would change; a build with no
// sources fails instead of building nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSite,
  keepRecentAssets,
  PROJECT_ROOT,
  setAssetsAside,
  siteFingerprint,
} from '../../../server/site/build.ts';

const root = process.cwd();

describe('siteFingerprint', () => {
  it('changes with the port when PUBLIC_BASE_URL is unset, since the mod address the help pages print is then this machine on that port', () => {
    expect(siteFingerprint(root, { PORT: '4321' })).not.toBe(siteFingerprint(root, { PORT: '8080' }));
    expect(siteFingerprint(root, {})).toBe(siteFingerprint(root, { PORT: '4321' }));
  });

  it('ignores the port when PUBLIC_BASE_URL is set, and changes with PUBLIC_BASE_URL', () => {
    const base = 'https://capes.example.org';
    expect(siteFingerprint(root, { PUBLIC_BASE_URL: base, PORT: '4321' })).toBe(
      siteFingerprint(root, { PUBLIC_BASE_URL: base, PORT: '8080' }),
    );
    expect(siteFingerprint(root, { PUBLIC_BASE_URL: base })).not.toBe(
      siteFingerprint(root, { PUBLIC_BASE_URL: 'https://other.example.org' }),
    );
  });
});

describe('buildSite', () => {
  it('fails, naming the missing sources, when the directory it is given holds none', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-no-sources-'));
    expect(() =>
      buildSite(empty, { siteDir: path.join(empty, 'dist'), downloadUrl: 'https://downloads.example/mod' }, () => {}),
    ).toThrow(`Nothing to build: ${path.join(empty, 'src')} does not exist.`);
    expect(fs.existsSync(path.join(empty, 'dist'))).toBe(false);
  });

  it('is given the checkout: the directory with the site’s sources', () => {
    expect(fs.existsSync(path.join(PROJECT_ROOT, 'src', 'pages'))).toBe(true);
  });
});

describe('the assets of earlier builds', () => {
  it('are kept for two days beside the new build, never over a new file of the same name', () => {
    const siteDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-assets-')), 'dist');
    const assets = path.join(siteDir, '_astro');
    fs.mkdirSync(assets, { recursive: true });
    for (const name of ['recent.abc.js', 'ancient.def.js', 'both.123.js'])
      fs.writeFileSync(path.join(assets, name), 'old');
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    fs.utimesSync(path.join(assets, 'ancient.def.js'), threeDaysAgo, threeDaysAgo);

    const aside = setAssetsAside(siteDir);
    expect(fs.existsSync(assets), 'the build starts from an empty folder').toBe(false);
    fs.mkdirSync(assets, { recursive: true });
    for (const name of ['new.456.js', 'both.123.js']) fs.writeFileSync(path.join(assets, name), 'new');
    keepRecentAssets(siteDir, aside);

    expect(fs.readdirSync(assets).sort()).toEqual(['both.123.js', 'new.456.js', 'recent.abc.js']);
    expect(fs.readFileSync(path.join(assets, 'both.123.js'), 'utf8')).toBe('new');
    expect(fs.existsSync(aside!), 'nothing is left aside').toBe(false);
  });
});
