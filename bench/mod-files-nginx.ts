// The mod API benchmarks' baseline: nginx serving the same answers from files (`www/profile.json` for every /profile/
// path, `www/textures/{hash}`), with the mod API's headers, in a process of its own.
import fs from 'node:fs';
import path from 'node:path';

/** Writes the baseline nginx's configuration (no access log, the mod API's headers; `workers` processes) for the files under `dir/www`; returns its path. */
export function modFilesNginxConfig(dir: string, port: number, workers = 1): string {
  for (const temporary of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, `${temporary}_temp`), { recursive: true });
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
  types { }
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location /profile/ {
      default_type 'application/json; charset=utf-8';
      add_header cache-control 'public, max-age=60';
      add_header access-control-allow-origin '*';
      add_header x-content-type-options nosniff;
      add_header x-frame-options DENY;
      add_header referrer-policy strict-origin-when-cross-origin;
      add_header content-security-policy "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
      try_files /profile.json =404;
    }
    location /textures/ {
      default_type image/png;
      add_header cache-control 'public, max-age=31536000, immutable';
      add_header access-control-allow-origin '*';
      add_header x-content-type-options nosniff;
      add_header x-frame-options DENY;
      add_header referrer-policy strict-origin-when-cross-origin;
      add_header content-security-policy "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    }
  }
}
`;
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, config);
  return file;
}
