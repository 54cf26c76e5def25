// Static files load test: `/` and the site's stylesheet from the real server (the build's brotli and gzip copies)
// against nginx (gzip_static) serving the same built files, and `/` compressed per request as before the copies (the
// same server on the site without them), each server in its own process, loaded by wrk in interleaved rounds. See
// bench/README.md.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT, startProcess, stopProcess, cpuPerRequest } from './processes.ts';
import { runWrk, roundRatio, median, thousands, loadAverage } from './wrk.ts';
import { writeBaselineNginxConfig } from './baseline-nginx.ts';

const SITE_DIR = path.resolve(process.env.SITE_DIR ?? path.join(ROOT, 'dist'));
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 10);
const WARMUP_S = Number(process.env.WARMUP ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4397);
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
/** Node with the TypeScript loader, as `npm start` runs the server (tsx), without tsx's extra parent process. */
const NODE_TS = [process.execPath, '--import', 'tsx'] as const;

/**
 * One wrk run: requests per second, bytes per answer, latency percentiles in ms, errors, and the target's CPU per
 * request.
 */
interface LoadResult {
  rps: number;
  bytesPerAnswer: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number;
}

/** A server under test, in its own process group. */
interface Server {
  name: string;
  port: number;
  child: ChildProcess;
}

/** What wrk loads: a server, asked with one Accept-Encoding. */
interface Target {
  name: string;
  server: Server;
  acceptEncoding: string;
}

/** A GET with node:http (which leaves the body encoded): status, headers and the bytes on the wire. */
function rawGet(
  port: number,
  urlPath: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes }));
      })
      .on('error', reject);
  });
}

/** The headers our server sends on an answer that nginx should send too (not the ones nginx makes itself). */
async function headersToCopy(port: number, urlPath: string): Promise<Array<[string, string]>> {
  const own = new Set([
    'date',
    'connection',
    'keep-alive',
    'content-length',
    'content-type',
    'content-encoding',
    'vary',
    'etag',
    'last-modified',
    'x-request-id',
  ]);
  const { headers } = await rawGet(port, urlPath, 'gzip');
  return Object.entries(headers)
    .filter(([name]) => !own.has(name))
    .flatMap(([name, value]) =>
      Array.isArray(value)
        ? value.map((one) => [name, one] as [string, string])
        : [[name, String(value)] as [string, string]],
    );
}

/**
 * nginx's configuration: one process, no access log, sendfile, gzip_static, the built site with the server's headers;
 * returns its path.
 */
function nginxConfig(
  dir: string,
  port: number,
  pageHeaders: Array<[string, string]>,
  assetHeaders: Array<[string, string]>,
): string {
  const addHeaders = (headers: Array<[string, string]>) =>
    headers.map(([name, value]) => `      add_header ${name} '${value.replaceAll("'", "\\'")}' always;`).join('\n');
  return writeBaselineNginxConfig(
    dir,
    `  types { text/html html; text/css css; application/javascript js; }
  charset utf-8;
  charset_types text/css application/javascript;
  gzip_static on;
  gzip_vary on;
  server {
    listen 127.0.0.1:${port};
    root ${SITE_DIR};
    location = / {
      try_files /index.html =404;
${addHeaders(pageHeaders)}
    }
    location /_astro/ {
${addHeaders(assetHeaders)}
    }
  }`,
  );
}

/** Loads a target with wrk and measures its server's CPU time (with every process under it) per answered request. */
async function load(target: Target, pathsFile: string, durationS: number): Promise<LoadResult> {
  const cpu = cpuPerRequest(() => [target.server.child.pid!]);
  const result = await runWrk({
    port: target.server.port,
    pathsFile,
    durationS,
    connections: CONNECTIONS,
    headers: target.acceptEncoding ? { 'accept-encoding': target.acceptEncoding } : {},
  });
  return { ...result, cpuUs: cpu(result.rps * durationS) };
}

/**
 * A case: warm-up of every target, then rounds in turn (target 1, 2, 3, target 1, …); prints every run and the medians.
 */
async function runCase(title: string, pathsFile: string, targets: Target[]): Promise<Map<string, LoadResult[]>> {
  console.log(`\n${title} (load average ${loadAverage()})`);
  for (const target of targets) await load(target, pathsFile, WARMUP_S);
  const results = new Map<string, LoadResult[]>(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const result = await load(target, pathsFile, DURATION_S);
      results.get(target.name)!.push(result);
      console.log(
        `  round ${round} ${target.name.padEnd(18)} ${thousands(result.rps).padStart(7)} req/s  ${thousands(result.bytesPerAnswer).padStart(6)} B/answer  p50 ${result.p50.toFixed(2).padStart(6)} ms  p99 ${result.p99.toFixed(2).padStart(6)} ms  CPU ${result.cpuUs.toFixed(1).padStart(6)} µs/req${result.errors ? `  errors ${result.errors}` : ''}`,
      );
    }
  }
  for (const [name, runs] of results) {
    const rps = runs.map((run) => run.rps);
    console.log(
      `  ${name.padEnd(18)} median ${thousands(median(rps))} req/s (${thousands(Math.min(...rps))}–${thousands(Math.max(...rps))}), ${thousands(median(runs.map((run) => run.bytesPerAnswer)))} B/answer, p50 ${median(runs.map((run) => run.p50)).toFixed(2)} ms, p99 ${median(runs.map((run) => run.p99)).toFixed(2)} ms, CPU ${median(runs.map((run) => run.cpuUs)).toFixed(1)} µs/req`,
    );
  }
  return results;
}

/** Prints how each target answers a path (status, coding, bytes on the wire), to check they serve the same thing. */
async function describeAnswers(targets: Target[], urlPath: string): Promise<void> {
  for (const target of targets) {
    const answer = await rawGet(target.server.port, urlPath, target.acceptEncoding);
    console.log(
      `  ${target.name.padEnd(18)} ${urlPath}: ${answer.status}, content-encoding ${answer.headers['content-encoding'] ?? 'none'}, ${thousands(answer.bytes)} B, vary ${answer.headers.vary ?? '-'}`,
    );
  }
}

if (!fs.existsSync(path.join(SITE_DIR, 'index.html.br'))) {
  console.error(`${SITE_DIR} holds no built site with compressed copies: run npm run build first.`);
  process.exit(2);
}
const stylesheet = fs
  .readdirSync(path.join(SITE_DIR, '_astro'))
  .filter((name) => name.endsWith('.css'))
  .map((name) => ({ name, size: fs.statSync(path.join(SITE_DIR, '_astro', name)).size }))
  .sort((a, b) => b.size - a.size)[0]!.name;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-static-bench-'));
const started: ChildProcess[] = [];
const stopAll = () => Promise.all(started.map(stopProcess));
process.on('SIGINT', () => {
  void stopAll().then(() => process.exit(130));
});
try {
  console.log(
    `Node ${process.version}, wrk -t1 -c${CONNECTIONS}, ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s of warm-up, ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  console.log(
    `Site ${SITE_DIR}: / is index.html (${thousands(fs.statSync(path.join(SITE_DIR, 'index.html')).size)} B), the stylesheet ${stylesheet}`,
  );

  /** Starts the real server as `npm start` runs it (default LOG_LEVEL, its log in a file) on a site directory. */
  const startReal = async (name: string, port: number, siteDir: string) => {
    const server = await startProcess(
      name,
      port,
      NODE_TS[0],
      [...NODE_TS.slice(1), 'server/main.ts'],
      {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, `data-${name}`),
        DATABASE_URL: '',
        SITE_DIR: siteDir,
        SKIP_SITE_BUILD: 'true',
        SWEEP_INTERVAL_MINUTES: '0',
      },
      path.join(dir, `${name}.log`),
      '/api/home',
    );
    started.push(server.child);
    return server;
  };
  const real = await startReal('real', BASE_PORT, SITE_DIR);
  // The same site without the copies: its pages are compressed per request by @fastify/compress, as before the copies.
  const siteWithoutCopies = path.join(dir, 'site-without-copies');
  fs.cpSync(SITE_DIR, siteWithoutCopies, { recursive: true, filter: (source) => !/\.(br|gz)$/.test(source) });
  const perRequest = await startReal('per-request', BASE_PORT + 2, siteWithoutCopies);
  const nginxPort = BASE_PORT + 1;
  const nginx = await startProcess(
    'nginx',
    nginxPort,
    NGINX,
    [
      '-p',
      dir,
      '-c',
      nginxConfig(
        dir,
        nginxPort,
        await headersToCopy(BASE_PORT, '/'),
        await headersToCopy(BASE_PORT, `/_astro/${stylesheet}`),
      ),
    ],
    process.env,
    path.join(dir, 'nginx.log'),
    '/',
  );
  started.push(nginx.child);

  const targets: Target[] = [
    { name: 'real br', server: real, acceptEncoding: 'br' },
    { name: 'real gzip', server: real, acceptEncoding: 'gzip' },
    { name: 'nginx gzip_static', server: nginx, acceptEncoding: 'gzip' },
  ];
  // Site files are never compressed per request now, so the stylesheet has no "before" to compare with.
  const perRequestTarget: Target = { name: 'per-request br', server: perRequest, acceptEncoding: 'br' };
  const ratios: string[] = [];
  for (const urlPath of ['/', `/_astro/${stylesheet}`]) {
    const caseTargets = urlPath === '/' ? [...targets, perRequestTarget] : targets;
    const pathsFile = path.join(dir, `paths-${ratios.length}.txt`);
    fs.writeFileSync(pathsFile, `${urlPath}\n`);
    console.log('');
    await describeAnswers(caseTargets, urlPath);
    const results = await runCase(
      `${urlPath}, Accept-Encoding br (real) and gzip (real, nginx)`,
      pathsFile,
      caseTargets,
    );
    const line = (label: string, a: string, b: string) =>
      `  ${label.padEnd(32)} req/s ${roundRatio(results, a, b, (r) => r.rps).toFixed(2)}×, p99 ${roundRatio(results, a, b, (r) => r.p99).toFixed(2)}×, CPU per request ${roundRatio(results, a, b, (r) => r.cpuUs).toFixed(2)}×`;
    ratios.push(
      urlPath,
      line('real gzip / nginx gzip_static', 'real gzip', 'nginx gzip_static'),
      line('real br / nginx gzip_static', 'real br', 'nginx gzip_static'),
    );
    if (urlPath === '/') ratios.push(line('real br / per-request br', 'real br', 'per-request br'));
  }
  console.log(
    `\nRatios (median of the per-round ratios; load average at the end ${loadAverage()}):\n${ratios.join('\n')}`,
  );
} finally {
  await stopAll();
  fs.rmSync(dir, { recursive: true, force: true });
}
