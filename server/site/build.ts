// Builds the static site (astro build, then compressed copies of its text files) when it is missing or older than its
// sources and public settings.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicBaseUrl } from '../../src/lib/public-base-url.ts';
import type { Config } from '../config/index.ts';
import { ASSETS_PREFIX, renderHeaders, renderNginxPages, renderRedirects, siteHostRules } from './host-rules.ts';
import { scriptsOutsidePolicy } from './page-policy.ts';
import { describePrecompress, filesUnder, precompressSite } from './precompress.ts';
import { HEADERS_FILE, NGINX_PAGES_FILE, REDIRECTS_FILE } from './static-site.ts';

/** The checkout: where src/, public/ and node_modules/ are. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the built site depends on; the compression step is one of them, so a change to it rebuilds. */
const SOURCES = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'server/site'];
/** Settings built into the pages besides the PUBLIC_* ones: the checkout the pages' policy lets forms post to. */
const BUILT_IN_SETTINGS = ['PAYPAL_URL'];
const STAMP = '.build-stamp';
/** The folder of the build's content-hashed assets. */
const ASSETS_FOLDER = ASSETS_PREFIX.slice(1, -1);

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
    .filter((key) => key.startsWith('PUBLIC_') || BUILT_IN_SETTINGS.includes(key))
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
export function ensureSiteBuilt(root: string, config: SiteBuildConfig, log: (message: string) => void): boolean {
  if (!fs.existsSync(path.join(root, 'src'))) return false;
  const { siteDir } = config;
  const stampFile = path.join(siteDir, STAMP);
  const fingerprint = siteFingerprint(root);
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === fingerprint) return false;
  log('Building the site (first start or changed sources)…');
  buildSite(root, config, log, fingerprint);
  return true;
}

/**
 * How long the build keeps an earlier build's assets: longer than a shared cache may serve an older page
 * (`stale-while-revalidate`, a day), so such a page still finds its scripts and styles.
 */
export const PREVIOUS_ASSETS_KEPT_MS = 2 * 24 * 60 * 60 * 1000;

/** Moves the built assets aside before a build empties the site folder; returns where they went, or null. */
export function setAssetsAside(siteDir: string): string | null {
  const assets = path.join(siteDir, ASSETS_FOLDER);
  if (!fs.existsSync(assets)) return null;
  const aside = fs.mkdtempSync(path.join(path.dirname(siteDir), '.previous-assets-'));
  fs.renameSync(assets, path.join(aside, ASSETS_FOLDER));
  return aside;
}

/** Puts back the earlier assets younger than PREVIOUS_ASSETS_KEPT_MS that the new build does not have (names are hashes). */
export function keepRecentAssets(siteDir: string, aside: string | null, now = Date.now()): void {
  if (aside === null) return;
  const previous = path.join(aside, ASSETS_FOLDER);
  const assets = path.join(siteDir, ASSETS_FOLDER);
  fs.mkdirSync(assets, { recursive: true });
  for (const name of fs.readdirSync(previous)) {
    const file = path.join(previous, name);
    const stat = fs.statSync(file);
    if (!stat.isFile() || now - stat.mtimeMs > PREVIOUS_ASSETS_KEPT_MS) continue;
    if (!fs.existsSync(path.join(assets, name))) fs.renameSync(file, path.join(assets, name));
  }
  fs.rmSync(aside, { recursive: true, force: true });
}

/** What the build needs of the configuration: where the site goes and where `/download` sends players. */
export type SiteBuildConfig = Pick<Config, 'siteDir' | 'downloadUrl'>;

/** The names at the top of a folder that the host rules treat as files (folders end in `/`), dot files left out. */
function topEntries(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort();
}

/**
 * Writes the host rules of the site (`_redirects`, `_headers` and the nginx include) into `siteDir`, from the route
 * table and the public files' names.
 */
export function writeHostRules(siteDir: string, downloadUrl: string, publicEntries: readonly string[]): void {
  const rules = siteHostRules({ downloadUrl, publicEntries });
  fs.writeFileSync(path.join(siteDir, REDIRECTS_FILE), renderRedirects(rules));
  fs.writeFileSync(path.join(siteDir, HEADERS_FILE), renderHeaders(rules));
  fs.mkdirSync(path.dirname(path.join(siteDir, NGINX_PAGES_FILE)), { recursive: true });
  fs.writeFileSync(path.join(siteDir, NGINX_PAGES_FILE), renderNginxPages(rules));
}

/** Throws when a built page has an inline script its own Content-Security-Policy does not allow (it would not run). */
export function checkPagePolicies(siteDir: string): void {
  for (const file of filesUnder(siteDir).filter((name) => name.endsWith('.html'))) {
    const outside = scriptsOutsidePolicy(fs.readFileSync(file, 'utf8'));
    if (outside.length > 0)
      throw new Error(
        `${path.relative(siteDir, file)} has inline scripts its policy does not allow (${outside.join(', ')}): ` +
          'give an inline script its hash in server/site/page-policy.ts, or make it a bundled script.',
      );
  }
}

/**
 * Runs `astro build` on the project's own Node, checks every page's policy, writes the host rules, the compressed
 * copies (server/site/precompress.ts) and the stamp (the sources' fingerprint, taken before the build); throws when
 * there is nothing to build or the build fails.
 */
export function buildSite(
  root: string,
  config: SiteBuildConfig,
  log: (message: string) => void,
  fingerprint = siteFingerprint(root),
): void {
  const { siteDir } = config;
  if (!fs.existsSync(path.join(root, 'src')))
    throw new Error(`Nothing to build: ${path.join(root, 'src')} does not exist.`);
  const astro = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const aside = setAssetsAside(siteDir);
  const result = spawnSync(process.execPath, [astro, 'build', '--outDir', siteDir], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  keepRecentAssets(siteDir, aside);
  if (result.status !== 0) throw new Error('The site build failed');
  checkPagePolicies(siteDir);
  writeHostRules(siteDir, config.downloadUrl, topEntries(path.join(root, 'public')));
  log(describePrecompress(precompressSite(siteDir)));
  fs.writeFileSync(path.join(siteDir, STAMP), fingerprint);
}
