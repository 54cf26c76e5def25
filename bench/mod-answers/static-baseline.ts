// The mod answers bench's static baseline: nginx serving the same answers' bytes from plain locations under `www`, with
// the headers the shipped locations send, and a `return 404` location for unknown players.
import fs from 'node:fs';
import path from 'node:path';
import { writeBaselineNginxConfig } from '../baseline-nginx.ts';
import type { SeededWearer } from '../mod-seed.ts';
import { MISSING_PREFIX, PLAYER_LAYOUTS } from './paths.ts';
import { NGINX_WORKERS, PORTS } from './settings.ts';

/** The security headers of every mod API answer, as the shipped locations send them (`always`: on 404s too). */
const MOD_HEADER_LINES = `add_header Access-Control-Allow-Origin * always;
      add_header X-Content-Type-Options nosniff always;
      add_header X-Frame-Options DENY always;
      add_header Referrer-Policy strict-origin-when-cross-origin always;
      add_header Content-Security-Policy "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" always;`;

/**
 * The static baseline: plain locations over `www` (the same bytes under each texture's hash) and a `return 404`
 * location, with the shipped answers' headers.
 */
export function staticNginxConfig(dir: string, www: string, port: number): string {
  const json = `types { } default_type 'application/json; charset=utf-8';`;
  const player = `add_header Cache-Control 'public, max-age=60' always;\n      ${MOD_HEADER_LINES}`;
  return writeBaselineNginxConfig(
    dir,
    `  types { image/png png; image/gif gif; }
  server {
    listen 127.0.0.1:${port};
    root ${www};
    open_file_cache max=20000 inactive=60s;
    location /profile/ {
      ${json}
      ${player}
    }
    location /csl/ {
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
    location ${MISSING_PREFIX}/ {
      ${json}
      ${MOD_HEADER_LINES}
      return 404 '{"error":"Not found"}';
    }
  }`,
    NGINX_WORKERS,
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
