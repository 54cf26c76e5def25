// The site's CSS is made from the site's own sources: Tailwind reads class names from src/ only, so nothing elsewhere
// in the repository (tests, benches, the server, an earlier build's assets set aside during a build) adds a rule, and
// a build gives the same CSS whatever lies beside it.
import fs from 'node:fs';
import path from 'node:path';
import { compile } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const STYLES = path.join(ROOT, 'src/styles/global.css');
/** A class that appears nowhere in src/, in a script an earlier build left beside the project during a build. */
const STRAY_CLASS = 'bg-[#0badc0]';
const ASIDE = path.join(ROOT, '.previous-assets-styles-test');

/** The files Tailwind reads and the class names it finds, as the build's Tailwind plugin sets its scanner up. */
async function scan(): Promise<{ files: string[]; candidates: string[] }> {
  const compiler = await compile(fs.readFileSync(STYLES, 'utf8'), {
    base: path.dirname(STYLES),
    onDependency: () => {},
  });
  const root =
    compiler.root === 'none'
      ? []
      : compiler.root === null
        ? [{ base: ROOT, pattern: '**/*', negated: false }]
        : [{ ...compiler.root, negated: false }];
  const scanner = new Scanner({ sources: [...root, ...compiler.sources] });
  const candidates = scanner.scan();
  return { files: scanner.files, candidates };
}

describe("the site's CSS sources", () => {
  beforeAll(() => {
    fs.mkdirSync(path.join(ASIDE, '_astro'), { recursive: true });
    fs.writeFileSync(path.join(ASIDE, '_astro', 'client.old.js'), `document.body.className = "${STRAY_CLASS}";`);
  });
  afterAll(() => fs.rmSync(ASIDE, { recursive: true, force: true }));

  it('are the files under src/ and nothing else', async () => {
    const { files } = await scan();
    expect(files.some((file) => file.endsWith('src/islands/wardrobe/WardrobePage.tsx'))).toBe(true);
    expect(files.filter((file) => !file.startsWith(path.join(ROOT, 'src') + path.sep))).toEqual([]);
  });

  it("never take a class from an earlier build's assets set aside beside the project", async () => {
    const { candidates } = await scan();
    expect(candidates).not.toContain(STRAY_CLASS);
  });
});
