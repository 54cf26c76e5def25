// Runs nginx as a child process with the deploy configuration (deploy/nginx/cloakroom.conf and the
// cloakroom-mod-answer.conf it includes) in a temporary prefix: the same upstream, proxy and file settings, with only
// the listen address, the app ports, the site and answer files' roots, the include's path and the log paths swapped for
// test ones.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nginx binary (Debian package nginx-light); NGINX overrides it. */
export const NGINX_BINARY = process.env.NGINX ?? '/usr/sbin/nginx';

/** The deploy configuration the tests and the mod answers benchmark run. */
export const DEPLOY_NGINX_CONFIG = fileURLToPath(new URL('../deploy/nginx/cloakroom.conf', import.meta.url));
/** What every mod API location includes (the answer directory and the answers' headers). */
export const DEPLOY_MOD_ANSWER_CONFIG = fileURLToPath(
  new URL('../deploy/nginx/cloakroom-mod-answer.conf', import.meta.url),
);
/** How many mod API locations include it. */
const MOD_ANSWER_LOCATIONS = 7;

/** Where and what the generated configuration serves. */
export interface NginxSetup {
  /** A scratch directory of its own: the prefix, pid, logs, temporary files and cache go there. */
  dir: string;
  /** The port nginx listens on (127.0.0.1). */
  port: number;
  /** The app processes' ports, in upstream order. */
  upstreamPorts: number[];
  /** The built site nginx serves files from (`root`). */
  siteDir: string;
  /** The answer files the app processes write (their ANSWER_FILES_DIR). */
  answersDir: string;
  /** `worker_processes` (default 1). */
  workers?: number;
}

/**
 * Replaces a directive of a deploy file where it stands `times` times, and fails loudly when the deploy file has it any
 * other number of times.
 */
function replaceDirective(
  text: string,
  pattern: RegExp,
  replacement: string,
  times = 1,
  file = 'deploy/nginx/cloakroom.conf',
): string {
  const everywhere = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const found = text.match(everywhere)?.length ?? 0;
  if (found !== times) throw new Error(`${file}: expected ${times} match(es) of ${pattern}, found ${found}`);
  return text.replace(everywhere, replacement);
}

/** The deploy file's http-level part with the test's ports and paths. */
export function deployServerBlock(setup: NginxSetup): string {
  let text = fs.readFileSync(DEPLOY_NGINX_CONFIG, 'utf8');
  const upstreamServers = /^(\s*)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n/gm;
  const first = upstreamServers.exec(text);
  if (!first) throw new Error('deploy/nginx/cloakroom.conf: no `server 127.0.0.1:<port>` line in the upstream block');
  const [indent, parameters = ''] = [first[1]!, first[2]];
  let replaced = false;
  text = text.replace(upstreamServers, () => {
    if (replaced) return '';
    replaced = true;
    return setup.upstreamPorts.map((port) => `${indent}server 127.0.0.1:${port}${parameters};\n`).join('');
  });
  text = replaceDirective(text, /^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${setup.port};`);
  text = replaceDirective(text, /^\s*listen \[::\]:80;\n/m, '');
  text = replaceDirective(text, /^(\s*)root \/srv\/cloakroom\/dist;$/m, `$1root ${setup.siteDir};`);
  text = replaceDirective(
    text,
    /^(\s*)include \/srv\/cloakroom\/dist\/_nginx\/pages\.conf;$/m,
    `$1include ${setup.siteDir}/_nginx/pages.conf;`,
  );
  // The mod API's locations read the answer files, through the shared part they include.
  const modAnswer = replaceDirective(
    fs.readFileSync(DEPLOY_MOD_ANSWER_CONFIG, 'utf8'),
    /^root \/var\/lib\/cloakroom\/answers/m,
    `root ${setup.answersDir}`,
    1,
    'deploy/nginx/cloakroom-mod-answer.conf',
  );
  fs.writeFileSync(path.join(setup.dir, 'cloakroom-mod-answer.conf'), modAnswer);
  text = replaceDirective(
    text,
    /^(\s*)include \/etc\/nginx\/cloakroom-mod-answer\.conf;$/m,
    `$1include ${setup.dir}/cloakroom-mod-answer.conf;`,
    MOD_ANSWER_LOCATIONS,
  );
  text = replaceDirective(
    text,
    /^(\s*)access_log \/var\/log\/nginx\/\S+(.*);$/m,
    `$1access_log ${setup.dir}/access.log$2;`,
  );
  text = replaceDirective(
    text,
    /^(\s*)error_log \/var\/log\/nginx\/[^;]+;$/m,
    `$1error_log ${setup.dir}/error.log warn;`,
  );
  return text;
}

/** Writes a whole nginx.conf (foreground, one process, files in `dir`) around the deploy file; returns its path. */
export function writeNginxConfig(setup: NginxSetup): string {
  for (const temporary of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    fs.mkdirSync(path.join(setup.dir, `${temporary}_temp`), { recursive: true });
  const mimeTypes = fs.existsSync('/etc/nginx/mime.types')
    ? 'include /etc/nginx/mime.types;'
    : 'types { text/html html; text/javascript js; image/png png; image/svg+xml svg; }';
  const config = `# Generated from deploy/nginx/cloakroom.conf for a test or benchmark run.
daemon off;
master_process off;
worker_processes ${setup.workers ?? 1};
# As the install note of deploy/nginx/cloakroom.conf asks of nginx.conf (worker_rlimit_nofile: the process is started with
# that many open files, as it runs without a master process here).
pcre_jit on;
pid ${setup.dir}/nginx.pid;
error_log ${setup.dir}/error.log warn;
events { worker_connections 4096; }
http {
  ${mimeTypes}
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${setup.dir}/client_body_temp;
  proxy_temp_path ${setup.dir}/proxy_temp;
  fastcgi_temp_path ${setup.dir}/fastcgi_temp;
  uwsgi_temp_path ${setup.dir}/uwsgi_temp;
  scgi_temp_path ${setup.dir}/scgi_temp;

${deployServerBlock(setup)}
}
`;
  const file = path.join(setup.dir, 'nginx.conf');
  fs.writeFileSync(file, config);
  return file;
}

/**
 * Runs the command after it with the open files the install note asks for (`worker_rlimit_nofile 65536`, which nginx
 * applies only to the workers of a master process, and this one runs alone), or as many as the machine allows: the
 * answer files nginx keeps open take up to 16,000 descriptors.
 */
const RAISE_OPEN_FILES = 'ulimit -n 65536 2> /dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"';

/** The command words that run what follows them with the open files the install note asks for (RAISE_OPEN_FILES). */
export const WITH_OPEN_FILES = ['sh', '-c', RAISE_OPEN_FILES];

/** A running nginx: its address, the process, and how to stop it. */
export interface RunningNginx {
  url: string;
  port: number;
  child: ChildProcess;
  /** What nginx wrote to its error log so far. */
  errorLog(): string;
  stop(): Promise<void>;
}

/** Fails with the install command when nginx is missing (the tests need it; they do not skip). */
export function requireNginx(): void {
  if (!fs.existsSync(NGINX_BINARY)) {
    throw new Error(
      `nginx is not installed at ${NGINX_BINARY}: install it with \`apt-get install -y nginx-light\` (.ci/run does), or set NGINX`,
    );
  }
}

/** Checks the configuration with `nginx -t`, starts nginx in the foreground and waits until it accepts connections. */
export async function startNginx(setup: NginxSetup): Promise<RunningNginx> {
  requireNginx();
  const config = writeNginxConfig(setup);
  const args = ['-p', setup.dir, '-e', path.join(setup.dir, 'error.log'), '-c', config];
  const check = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const test = spawn(NGINX_BINARY, [...args, '-t', '-q'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    test.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    test.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    test.on('close', (code) => resolve({ code, output }));
  });
  if (check.code !== 0) throw new Error(`nginx -t refused the generated configuration ${config}:\n${check.output}`);

  const child = spawn(WITH_OPEN_FILES[0]!, [...WITH_OPEN_FILES.slice(1), NGINX_BINARY, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${setup.port}`;
  const errorLog = () => {
    try {
      return fs.readFileSync(path.join(setup.dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGQUIT');
    const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(forced);
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) break;
    try {
      await fetch(`${url}/favicon.svg`, { signal: AbortSignal.timeout(1000) });
      return { url, port: setup.port, child, errorLog, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await stop();
  throw new Error(`nginx did not start: ${stderr}${errorLog()}`);
}
