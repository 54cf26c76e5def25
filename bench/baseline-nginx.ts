// The benchmarks' nginx baselines: one nginx process, no access log, sendfile, long keep-alive, its temporary files in
// the run's folder; and the mod API's baseline on it, the same answers from files (`www/profile.json` for every
// /profile/ path, `www/textures/{hash}`) with the mod API's headers, their descriptors kept open.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NGINX_BINARY } from '../support/nginx.ts';
import { pause } from './processes.ts';

/**
 * Writes an nginx configuration for a benchmark baseline (`workers` processes, `http` the lines inside `http {}` after
 * the common ones); returns its path.
 */
export function writeBaselineNginxConfig(dir: string, http: string, workers = 1): string {
  for (const temporary of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    fs.mkdirSync(path.join(dir, `${temporary}_temp`), { recursive: true });
  const config = `daemon off;
master_process off;
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  client_body_temp_path ${dir}/client_body_temp;
  proxy_temp_path ${dir}/proxy_temp;
  fastcgi_temp_path ${dir}/fastcgi_temp;
  uwsgi_temp_path ${dir}/uwsgi_temp;
  scgi_temp_path ${dir}/scgi_temp;
${http}
}
`;
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, config);
  return file;
}

/** The security headers every mod API answer carries (server/mod/answer-http.ts), as nginx lines. */
const MOD_HEADER_LINES = `      add_header access-control-allow-origin '*';
      add_header x-content-type-options nosniff;
      add_header x-frame-options DENY;
      add_header referrer-policy strict-origin-when-cross-origin;
      add_header content-security-policy "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";`;

/**
 * Writes the mod API baseline's configuration (`workers` processes) for the files under `dir/www`; returns its path.
 */
export function modFilesNginxConfig(dir: string, port: number, workers = 1): string {
  return writeBaselineNginxConfig(
    dir,
    `  types { }
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    # As deploy/nginx/cloakroom.conf keeps its cached copies open: no open, stat and close per request here either.
    open_file_cache max=1000 inactive=60s;
    location /profile/ {
      default_type 'application/json; charset=utf-8';
      add_header cache-control 'public, max-age=60';
${MOD_HEADER_LINES}
      try_files /profile.json =404;
    }
    location /textures/ {
      default_type image/png;
      add_header cache-control 'public, max-age=31536000, immutable';
${MOD_HEADER_LINES}
    }
  }`,
    workers,
  );
}

/** A benchmark's nginx: its pid and how to stop it. */
export interface BenchNginx {
  pid: number;
  stop: () => void;
}

/**
 * Starts nginx on a configuration in `dir` (under `wrapper`, such as valgrind, when given) and waits until it answers
 * on `port`.
 */
export async function startBenchNginx(
  dir: string,
  config: string,
  port: number,
  wrapper: string[] = [],
): Promise<BenchNginx> {
  const command = [...wrapper, NGINX_BINARY, '-p', dir, '-e', path.join(dir, 'error.log'), '-c', config];
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  // valgrind takes seconds to start nginx.
  for (let attempt = 0; attempt < 300 && child.exitCode === null; attempt++) {
    try {
      await fetch(`http://127.0.0.1:${port}/profile/x`);
      return { pid: child.pid!, stop: () => child.kill('SIGQUIT') };
    } catch {
      await pause(50);
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not start; see ${dir}/error.log`);
}
