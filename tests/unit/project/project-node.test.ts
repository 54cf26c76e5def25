// The project's scripts run on its own Node 24 (the `node` dependency), whatever Node the machine puts on PATH.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
/** The Node version the project ships as its `node` dependency. */
const projectNode = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/node/package.json'), 'utf8'))
  .version as string;

/** PATH as a shell on the machine has it: without the node_modules/.bin folders that npm put first for this run. */
function machinePath(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`) && !dir.includes(`${path.sep}node-gyp-bin`))
    .join(path.delimiter);
}

describe("the project's Node", () => {
  it('is Node 24', () => {
    expect(Number(projectNode.split('.')[0])).toBe(24);
  });

  it('runs what npm runs (npm start, npm test, npx) from a shell with the machine’s own node first on PATH', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: machinePath() };
    for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
    const version = execFileSync('npm', ['exec', '--', 'node', '-p', 'process.versions.node'], {
      cwd: root,
      env,
      encoding: 'utf8',
    }).trim();
    expect(version).toBe(projectNode);
  });
});
