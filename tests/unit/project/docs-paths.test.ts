// Every repository path the docs name exists, and every link between them lands on a file and heading: the map cannot
// go stale.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The documents held to their paths: the README, every page of docs/, and the READMEs of bench/, deploy/ and support/.
 */
const DOCUMENTS = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'bench/README.md',
  'deploy/README.md',
  'support/README.md',
];

/** A path from the repository root, as the docs write it (`server/mod/fast-path.ts`, `src/islands/`). */
const REPOSITORY_PATH =
  /(?<![\w./@-])((?:server|src|tests|bench|scripts|support|deploy|docs|auth-server|public)\/[\w./@-]*[\w/@-])/g;

/** A markdown link to another file of the repository: `[text](target)` without a scheme. */
const RELATIVE_LINK = /\]\((?![a-z]+:)([^)\s]+)\)/g;

/** The repository paths a document names, without patterns (`{id}`, `*`, `<name>`) and files written at run time. */
function namedPaths(text: string): string[] {
  const paths = [...text.matchAll(REPOSITORY_PATH)].map((match) => match[1]);
  return paths.filter((path) => !path.startsWith('bench/results/'));
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings. */
function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((heading) => headingAnchor(heading.replace(/^#+ /, ''))));
}

describe('the paths the docs name', () => {
  it.each(DOCUMENTS)('%s names only repository paths that exist', (document) => {
    const missing = namedPaths(readFileSync(document, 'utf8')).filter((path) => !existsSync(path));
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS)('%s links only to files and headings that exist', (document) => {
    const broken: string[] = [];
    for (const [, target] of readFileSync(document, 'utf8').matchAll(RELATIVE_LINK)) {
      const [path, anchor] = target.split('#');
      const file = path === '' ? document : normalize(join(dirname(document), path));
      if (!existsSync(file)) broken.push(target);
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
