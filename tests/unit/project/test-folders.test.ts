// The tests sit where a newcomer looks for them: every API and unit test in a feature folder, and every such folder
// named in docs/architecture.md (the "where does X live" table or the line under it).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const KINDS = ['api', 'unit'] as const;
const ARCHITECTURE = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

/** The folders the architecture doc names under tests/{kind}/, by path or in a `tests/unit/{a,b}/` list. */
function namedFolders(kind: string): Set<string> {
  const named = new Set<string>();
  for (const match of ARCHITECTURE.matchAll(new RegExp(`tests/${kind}/([\\w-]+)/`, 'g'))) named.add(match[1]!);
  for (const match of ARCHITECTURE.matchAll(new RegExp(`tests/${kind}/\\{([\\w,-]+)\\}/`, 'g')))
    for (const folder of match[1]!.split(',')) named.add(folder);
  return named;
}

describe.each(KINDS)('tests/%s', (kind) => {
  const dir = path.join(ROOT, 'tests', kind);
  const entries = fs.readdirSync(dir, { withFileTypes: true });

  it('holds no test file outside a feature folder', () => {
    expect(entries.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  });

  it('has every feature folder named in docs/architecture.md', () => {
    const named = namedFolders(kind);
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });
});
