// A small built site for tests and benches: the given files, and the host rules the build writes beside them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeHostRules } from '../server/site/build.ts';

/** Where the fixture sites' /download redirects go. */
export const FIXTURE_DOWNLOAD_URL = 'https://downloads.example/mod';

/**
 * Writes `files` (site paths without the leading slash) into `siteDir` and the host rules for them, with
 * `publicEntries` as the public files (folders end in `/`), as `public/` gives them to the build.
 */
export function writeSiteFixture(
  siteDir: string,
  files: Record<string, string | Buffer>,
  publicEntries: readonly string[] = ['favicon.svg', 'images/'],
): void {
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(siteDir, name)), { recursive: true });
    fs.writeFileSync(path.join(siteDir, name), body);
  }
  writeHostRules(siteDir, FIXTURE_DOWNLOAD_URL, publicEntries);
}

/** A temporary copy of a folder of built pages with the host rules written beside them; returns its path. */
export function siteFixtureFrom(sourceDir: string): string {
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-fixture-site-'));
  const files: Record<string, Buffer> = {};
  for (const name of fs.readdirSync(sourceDir)) files[name] = fs.readFileSync(path.join(sourceDir, name));
  writeSiteFixture(siteDir, files);
  return siteDir;
}
