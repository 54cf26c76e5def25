// Builds the static site (astro build, then compressed copies of its text files) when it is missing or older than its sources and public settings.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { publicBaseUrl } from '../../src/lib/public-base-url.ts';
import { describePrecompress, precompressSite } from './precompress.ts';

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

/** A fingerprint of everything the built site depends on: source times, PUBLIC_* settings and the mod API's address (which follows PORT when PUBLIC_BASE_URL is unset). */
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

/** Runs `astro build` and writes the compressed copies (server/site/precompress.ts) unless `siteDir` already holds a build of the current sources (or `force`); returns whether it built. */
export function ensureSiteBuilt(root: string, siteDir: string, log: (message: string) => void, force = false): boolean {
  if (!fs.existsSync(path.join(root, 'src'))) return false;
  const fingerprint = siteFingerprint(root);
  const stampFile = path.join(siteDir, STAMP);
  if (!force && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === fingerprint) return false;
  log('Building the site (first start or changed sources)…');
  const astro = path.join(root, 'node_modules', '.bin', 'astro');
  const result = spawnSync(astro, ['build', '--outDir', siteDir], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) throw new Error('The site build failed');
  log(describePrecompress(precompressSite(siteDir)));
  fs.writeFileSync(stampFile, fingerprint);
  return true;
}
