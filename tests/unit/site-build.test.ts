// The built site's fingerprint: a start rebuilds the site whenever what the pages print would change; a build with no
// sources fails instead of building nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, PROJECT_ROOT, siteFingerprint } from '../../server/site/build.ts';

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
