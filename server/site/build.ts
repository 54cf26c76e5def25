// Builds the static site (astro build, then compressed copies of its text files) when it is missing or older than its
// sources and public settings.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicBaseUrl } from '../../src/lib/public-base-url.ts';
import { describePrecompress, precompressSite } from './precompress.ts';

/** The checkout: where src/, public/ and node_modules/ are. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the built site depends on; the compression step is one of them, so a change to it rebuilds. */
const SOURCES = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'server/site/precompress.ts'];
const STAMP = '.build-stamp';

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/**
 * A fingerprint of everything the built site depends on: source times, PUBLIC_* settings and the mod API's address
 * (which follows PORT when PUBLIC_BASE_URL is unset).
 */
export function siteFingerprint(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const publicSettings = Object.keys(env)
    .filter((key) => key.startsWith('PUBLIC_'))
    .sort()
    .map((key) => `${key}=${env[key]}`);
  publicSettings.push(`mod API address=${publicBaseUrl(env.PUBLIC_BASE_URL, env.PORT)}`);
  const times = SOURCES.map((entry) => `${entry}:${newestMtime(path.join(root, entry))}`);
  return createHash('sha256')
    .update([...times, ...publicSettings].join('\n'))
    .digest('hex');
}

/**
 * At start: builds the site into `siteDir` unless it already holds a build of the current sources, or the checkout has
 * no sources (a deployment of the built site alone); returns whether it built.
 */
export function ensureSiteBuilt(root: string, siteDir: string, log: (message: string) => void): boolean {
  if (!fs.existsSync(path.join(root, 'src'))) return false;
  const stampFile = path.join(siteDir, STAMP);
  const fingerprint = siteFingerprint(root);
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === fingerprint) return false;
  log('Building the site (first start or changed sources)…');
  buildSite(root, siteDir, log, fingerprint);
  return true;
}

/**
 * Runs `astro build` on the project's own Node and writes the compressed copies (server/site/precompress.ts) and the
 * stamp (the sources' fingerprint, taken before the build); throws when there is nothing to build or the build fails.
 */
export function buildSite(
  root: string,
  siteDir: string,
  log: (message: string) => void,
  fingerprint = siteFingerprint(root),
): void {
  if (!fs.existsSync(path.join(root, 'src')))
    throw new Error(`Nothing to build: ${path.join(root, 'src')} does not exist.`);
  const astro = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build', '--outDir', siteDir], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) throw new Error('The site build failed');
  log(describePrecompress(precompressSite(siteDir)));
  fs.writeFileSync(path.join(siteDir, STAMP), fingerprint);
}
