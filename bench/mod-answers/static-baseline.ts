// The mod answers bench's static baseline: nginx serving the same answers' bytes from plain locations under `www`, with
// the headers the shipped locations send, and a `return 404` location for unknown players; and nginx serving the answer
// directory itself from plain locations.
import fs from 'node:fs';
import path from 'node:path';
import { writeBaselineNginxConfig } from '../baseline-nginx.ts';
import { ROOT } from '../processes.ts';
import type { SeededWearer } from '../mod-seed.ts';
import { MISSING_PREFIX, PLAYER_LAYOUTS } from './paths.ts';
import { NGINX_WORKERS, PORTS } from './settings.ts';

/** The security headers of every mod API answer, as the shipped locations send them (`always`: on 404s too). */
const MOD_HEADER_LINES = `add_header Access-Control-Allow-Origin * always;
      add_header X-Content-Type-Options nosniff always;
      add_header X-Frame-Options DENY always;
      add_header Referrer-Policy strict-origin-when-cross-origin always;
      add_header Content-Security-Policy "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" always;`;

/** The mod API's locations as plain static ones, with the shipped answers' headers; `extra` goes into the server. */
function plainLocationsConfig(dir: string, root: string, port: number, cache: string, extra: string): string {
  const json = `types { } default_type 'application/json; charset=utf-8';`;
  const player = `add_header Cache-Control 'public, max-age=60' always;\n      ${MOD_HEADER_LINES}`;
  return writeBaselineNginxConfig(
    dir,
    `  types { image/png png; image/gif gif; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    ${cache}
    location /profile/ {
      ${json}
      ${player}
    }
    location /csl/ {
      ${json}
      ${player}
    }
    location /csl-minecraftcapes/ {
      ${json}
      ${player}
    }
    location /capes/ {
      ${player}
    }
    location /elytras/ {
      ${player}
    }
    location /textures/ {
      types { } default_type image/png;
      add_header Cache-Control 'public, max-age=31536000, immutable' always;
      ${MOD_HEADER_LINES}
    }
${extra}
  }`,
    NGINX_WORKERS,
  );
}

/** The mod API's 404 (the body the app and the shipped nginx give), as an nginx `return`. */
const NOT_FOUND_RETURN = `types { } default_type 'application/json; charset=utf-8';
      ${MOD_HEADER_LINES}
      return 404 '{"error":"Not found"}';`;

/**
 * The static baseline: plain locations over `www` (the same bytes under each texture's hash, one file a texture) and a
 * `return 404` location, with the shipped answers' headers.
 */
export function staticNginxConfig(dir: string, www: string, port: number): string {
  return plainLocationsConfig(
    dir,
    www,
    port,
    'open_file_cache max=20000 inactive=60s;',
    `    location ${MISSING_PREFIX}/ {
      ${NOT_FOUND_RETURN}
    }`,
  );
}

/** The shipped configuration's open-file cache lines, as deploy/nginx/cloakroom.conf has them. */
const SHIPPED_OPEN_FILE_CACHE = fs
  .readFileSync(path.join(ROOT, 'deploy', 'nginx', 'cloakroom.conf'), 'utf8')
  .split('\n')
  .filter((line) => /^\s*open_file_cache/.test(line))
  .map((line) => line.trim())
  .join('\n    ');

/**
 * The same-files baseline: plain locations over the answer directory itself, with the shipped open-file cache, a
 * missing file answered the mod API's 404: what serving those files costs nginx without the shipped locations' own
 * work (the half-second name, the encoded-slash check, the app's paths).
 */
export function sameFilesNginxConfig(dir: string, answersDir: string, port: number): string {
  return plainLocationsConfig(
    dir,
    answersDir,
    port,
    `${SHIPPED_OPEN_FILE_CACHE}
    log_not_found off;
    error_page 404 = @missing;`,
    `    location @missing {
      ${NOT_FOUND_RETURN}
    }`,
  );
}

/** A 200 answer's bytes and Last-Modified from a local port; throws on any other status. */
export async function fetchBytes(port: number, urlPath: string) {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`);
  if (response.status !== 200) throw new Error(`${urlPath} on port ${port}: ${response.status}`);
  return { bytes: Buffer.from(await response.arrayBuffer()), lastModified: response.headers.get('last-modified') };
}

/**
 * Writes the static baseline's files: each layout's bytes of a player wearing each cape, under the cape's hash, and the
 * textures, as the shipped nginx answers them.
 */
export async function writeStaticFiles(www: string, wearers: SeededWearer[], hashes: string[]): Promise<void> {
  const representative = new Map<string, SeededWearer>();
  for (const wearer of wearers) if (!representative.has(wearer.hash)) representative.set(wearer.hash, wearer);
  for (const [hash, wearer] of representative)
    for (const layout of Object.values(PLAYER_LAYOUTS)) {
      const file = path.join(www, layout.file(hash));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, (await fetchBytes(PORTS.shipped, layout.path(wearer[layout.by]))).bytes);
    }
  fs.mkdirSync(path.join(www, 'textures'), { recursive: true });
  for (const hash of hashes)
    fs.writeFileSync(path.join(www, 'textures', hash), (await fetchBytes(PORTS.shipped, `/textures/${hash}`)).bytes);
}
