// Pages load test: `/`, `/help`, a `/gallery/{hash}` shell and the 404 page of the built site (Accept-Encoding: gzip)
// at one request rate, from four servers in pairs loaded at once: the shipped nginx (deploy/nginx/cloakroom.conf with
// the build's rules; its upstream counts every request that reaches it) with plain nginx serving the same files
// (bench/baseline-nginx.ts), and the real server as `npm start` runs it with node:http sending its bytes from memory
// (bench/pages-node.ts). Each server runs in a process group of its own; CPU per request is its whole group's, read
// from /proc. See bench/README.md, "Pages".
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startNginx, writeNginxConfig, type RunningNginx } from '../support/nginx.ts';
import { startBenchNginx, writeBaselineNginxConfig, type BenchNginx } from './baseline-nginx.ts';
import { countedInstructions, underCallgrind } from './callgrind.ts';
import { ROOT, cpuPerRequest, pause, startProcess, stopProcess } from './processes.ts';
import { loadAverage, median, roundRatio, runWrk, thousands, type WrkResult } from './wrk.ts';

const SITE_DIR = path.resolve(process.env.SITE_DIR ?? path.join(ROOT, 'dist'));
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.DURATION ?? 3);
/**
 * Requests per second offered to every target alike (RATE, default 4,000; 0 loads each as fast as it answers). CPU per
 * request falls as a server answers more requests per turn of its event loop, so two targets compare fairly at one rate
 * that both can keep up with.
 */
const RATE = Number(process.env.RATE ?? 4000) || undefined;
const WARMUP_S = Number(process.env.WARMUP ?? 1);
/** Before the first page: every target serves all the pages for this long. */
const FIRST_WARMUP_S = Number(process.env.FIRST_WARMUP ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/**
 * CALLGRIND=1: instead of the rounds, each nginx under valgrind's callgrind in turn, and the instructions it runs per
 * request of each page (which the rest of the machine does not move); the app and node:http are not measured.
 */
const CALLGRIND = process.env.CALLGRIND === '1';
/**
 * The shipped nginx listens here, plain nginx +1, the real server +2, node:http +3, the counting upstream +4, an nginx
 * under callgrind +5.
 */
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4470);
/** Node with the TypeScript loader, as `npm start` runs the server (tsx), without tsx's extra parent process. */
const NODE_TS = [process.execPath, '--import', 'tsx'] as const;
/** What every request sends, as a browser does. */
const ACCEPT_ENCODING = 'gzip';
/** The goals: CPU per request of the shipped nginx over plain nginx, and of the real server over node:http. */
const NGINX_GOAL = 1.1;
const APP_GOAL = 1.5;
/** The targets compared, each pair loaded at once in every round: the shipped nginx with plain nginx, the app with node:http. */
const PAIRS = [
  ['shipped nginx', 'plain nginx'],
  ['app', 'node:http'],
] as const;

/** A page of the run: its URL, the built file it is, and the status it answers with. */
interface Page {
  label: string;
  url: string;
  file: string;
  status: number;
}

const PAGES: Page[] = [
  { label: '/', url: '/', file: 'index.html', status: 200 },
  { label: '/help', url: '/help', file: 'help.html', status: 200 },
  {
    label: '/gallery/{hash}',
    url: `/gallery/${randomBytes(32).toString('hex')}`,
    file: 'gallery/item.html',
    status: 200,
  },
  { label: '404', url: '/no-such-page', file: '404.html', status: 404 },
];

/** A server under load: its name, port, and the processes whose CPU time it is. */
interface Target {
  name: string;
  port: number;
  pids: () => number[];
}

/** One wrk run of a target, with its CPU per request. */
interface Run extends WrkResult {
  cpuUs: number;
}

/** An answer as it came over the wire: status, header list (as node:http reads it) and the body still encoded. */
interface RawAnswer {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/** A GET with node:http, which leaves the body encoded, sending what wrk sends. */
function rawGet(port: number, url: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers: { 'accept-encoding': ACCEPT_ENCODING } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

/** An answer's headers by lowercase name, repeated ones joined as `a | b`. */
function headerMap(answer: RawAnswer): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!.toLowerCase();
    const value = answer.rawHeaders[i + 1]!;
    headers.set(name, headers.has(name) ? `${headers.get(name)} | ${value}` : value);
  }
  return headers;
}

/** The headers of a connection rather than of the answer: node:http and nginx write them themselves. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The header lines where two answers differ (connection headers aside). */
function headerDifferences(a: RawAnswer, aName: string, b: RawAnswer, bName: string): string[] {
  const [first, second] = [headerMap(a), headerMap(b)];
  const lines: string[] = [];
  for (const name of new Set([...first.keys(), ...second.keys()])) {
    if (CONNECTION_HEADERS.has(name) || first.get(name) === second.get(name)) continue;
    lines.push(`${name}: ${aName} ${first.get(name) ?? '(none)'}; ${bName} ${second.get(name) ?? '(none)'}`);
  }
  return lines;
}

/**
 * Plain nginx's configuration: each page's URL an exact location sending its built file (gzip_static, the open-file
 * cache as the shipped file has it), with the headers the shipped nginx adds to it; the 404 page by `error_page`.
 */
function plainNginxConfig(dir: string, port: number, shipped: Map<string, RawAnswer>): string {
  // nginx writes these itself from the file; the rest are the configuration's add_header lines.
  const own = new Set([
    ...CONNECTION_HEADERS,
    'server',
    'content-type',
    'content-length',
    'content-encoding',
    'last-modified',
    'etag',
    'vary',
    'accept-ranges',
  ]);
  const lines = (answer: RawAnswer) => {
    const found: string[] = [];
    if (/charset=utf-8/i.test(headerMap(answer).get('content-type') ?? '')) found.push('      charset utf-8;');
    for (let i = 0; i < answer.rawHeaders.length; i += 2)
      if (!own.has(answer.rawHeaders[i]!.toLowerCase()))
        found.push(`      add_header ${answer.rawHeaders[i]} ${JSON.stringify(answer.rawHeaders[i + 1])} always;`);
    return found.join('\n');
  };
  const locations = PAGES.map((page) =>
    page.status === 200
      ? `    location = ${page.url} {\n${lines(shipped.get(page.url)!)}\n      try_files /${page.file} =404;\n    }`
      : `    location = ${page.url} {\n      return 404;\n    }\n    location = /${page.file} {\n      internal;\n${lines(shipped.get(page.url)!)}\n    }`,
  ).join('\n');
  return writeBaselineNginxConfig(
    dir,
    `  types { text/html html; }
  gzip_static on;
  gzip_vary on;
  open_file_cache max=16000 inactive=20s;
  open_file_cache_valid 1s;
  open_file_cache_errors on;
  server {
    listen 127.0.0.1:${port};
    root ${SITE_DIR};
    error_page 404 /404.html;
${locations}
  }`,
  );
}

/**
 * The shipped nginx and plain nginx, each under callgrind in turn: the instructions each runs per request of every page
 * (after a warm-up of the page), and their ratio (user space only, so not held to the CPU goal: the kernel's sending,
 * the same for both, is not counted).
 */
async function nginxInstructions(dir: string, upstreamPort: number, shippedAnswers: Map<string, RawAnswer>) {
  const port = BASE_PORT + 5;
  const configs = {
    'shipped nginx': (folder: string) =>
      writeNginxConfig({
        dir: folder,
        port,
        upstreamPorts: [upstreamPort],
        siteDir: SITE_DIR,
        answersDir: path.join(folder, 'answers'),
      }),
    'plain nginx': (folder: string) => plainNginxConfig(folder, port, shippedAnswers),
  };
  const counts = new Map(PAGES.map((page) => [page.label, new Map<string, number>()]));
  for (const [name, config] of Object.entries(configs)) {
    const folder = path.join(dir, `callgrind-${name.split(' ')[0]}`);
    fs.mkdirSync(path.join(folder, 'answers'), { recursive: true });
    const out = path.join(folder, 'callgrind.out');
    const nginx = await startBenchNginx(folder, config(folder), port, underCallgrind(out));
    try {
      for (const [index, page] of PAGES.entries()) {
        const pathsFile = path.join(folder, `paths-${index}.txt`);
        fs.writeFileSync(pathsFile, `${page.url}\n`);
        const run = { port, pathsFile, connections: CONNECTIONS, headers: { 'accept-encoding': ACCEPT_ENCODING } };
        await runWrk({ ...run, durationS: WARMUP_S + 1 });
        let requests = 0;
        const total = await countedInstructions(nginx.pid, out, async () => {
          requests = (await runWrk({ ...run, durationS: DURATION_S })).requests;
        });
        counts.get(page.label)!.set(name, total / requests);
        console.log(
          `  ${name.padEnd(14)} ${page.label.padEnd(16)} ${thousands(total / requests)} instructions per request (${thousands(requests)} requests)`,
        );
      }
    } finally {
      nginx.stop();
      await pause(500);
    }
  }
  console.log('\n| page | shipped nginx | plain nginx | shipped / plain |\n| ---- | ---- | ---- | ---- |');
  for (const [label, byTarget] of counts) {
    const [shippedCount, plainCount] = [byTarget.get('shipped nginx')!, byTarget.get('plain nginx')!];
    console.log(
      `| \`${label}\` | ${thousands(shippedCount)} | ${thousands(plainCount)} | ${(shippedCount / plainCount).toFixed(2)}× |`,
    );
  }
}

/** Loads a target with wrk for `durationS` and measures its processes' CPU time per answered request. */
async function loadTarget(target: Target, pathsFile: string, durationS: number): Promise<Run> {
  const cpu = cpuPerRequest(target.pids);
  const result = await runWrk({
    port: target.port,
    pathsFile,
    durationS,
    connections: CONNECTIONS,
    headers: { 'accept-encoding': ACCEPT_ENCODING },
    rate: RATE,
  });
  return { ...result, cpuUs: cpu(result.requests) };
}

/** The lines of a file so far (0 when it is missing). */
function lineCount(file: string): number {
  try {
    const text = fs.readFileSync(file);
    let lines = 0;
    for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines += 1;
    return lines;
  } catch {
    return 0;
  }
}

if (!fs.existsSync(path.join(SITE_DIR, '_nginx', 'pages.conf')) || !fs.existsSync(path.join(SITE_DIR, '404.html.gz'))) {
  console.error(`${SITE_DIR} holds no built site with its nginx rules and copies: run npm run build first.`);
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-pages-bench-'));
const processes: ChildProcess[] = [];
let shipped: RunningNginx | undefined;
let plain: BenchNginx | undefined;
/** The requests that reached the shipped nginx's upstream, by URL. */
const reached = new Map<string, number>();
const upstream = http.createServer((request, response) => {
  reached.set(request.url ?? '', (reached.get(request.url ?? '') ?? 0) + 1);
  response.writeHead(200, { 'content-type': 'text/plain' }).end('counted');
});
const stopAll = async () => {
  plain?.stop();
  await Promise.all([shipped?.stop(), ...processes.map(stopProcess)]);
  upstream.close();
};
process.on('SIGINT', () => {
  void stopAll().then(() => process.exit(130));
});

try {
  console.log(
    `Node ${process.version}, wrk -t1 -c${CONNECTIONS}${RATE ? ` at ${thousands(RATE)} requests/s` : ''} with Accept-Encoding: ${ACCEPT_ENCODING}, ${ROUNDS} rounds of ${DURATION_S} s (each pair at once) after ${WARMUP_S} s of warm-up per page (${FIRST_WARMUP_S} s of every page first), ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  console.log(`Site ${SITE_DIR}`);
  // The build's stamp is the fingerprint of the sources it was built from (server/site/build.ts): a different one means
  // the pages or the nginx rules may be older than the checkout. (Only a warning: the build may be mid-edit.)
  const build = await import('../server/site/build.ts').catch(() => null);
  const stamp = path.join(SITE_DIR, '.build-stamp');
  if (build && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') !== build.siteFingerprint(ROOT))
    console.log(`Note: ${SITE_DIR} was built from other sources than the checkout's (npm run build to refresh it).`);

  const upstreamPort = BASE_PORT + 4;
  await new Promise<void>((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve));
  const shippedDir = path.join(dir, 'shipped');
  fs.mkdirSync(path.join(shippedDir, 'answers'), { recursive: true });
  shipped = await startNginx({
    dir: shippedDir,
    port: BASE_PORT,
    upstreamPorts: [upstreamPort],
    siteDir: SITE_DIR,
    answersDir: path.join(shippedDir, 'answers'),
  });
  // The counter sees what nginx passes on: one API request goes through (and is not counted below).
  await rawGet(BASE_PORT, '/api/home');
  if (reached.get('/api/home') !== 1) throw new Error('the counting upstream did not see /api/home through nginx');
  reached.clear();

  const app = await startProcess(
    'app',
    BASE_PORT + 2,
    NODE_TS[0],
    [...NODE_TS.slice(1), 'server/main.ts'],
    {
      ...process.env,
      PORT: String(BASE_PORT + 2),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      SITE_DIR,
      SKIP_SITE_BUILD: 'true',
      SWEEP_INTERVAL_MINUTES: '0',
    },
    path.join(dir, 'app.log'),
    '/api/home',
  );
  processes.push(app.child);

  // What the shipped nginx and the real server answer; node:http sends the real server's answers as they are.
  const shippedAnswers = new Map<string, RawAnswer>();
  const appAnswers = new Map<string, RawAnswer>();
  for (const page of PAGES) {
    shippedAnswers.set(page.url, await rawGet(BASE_PORT, page.url));
    appAnswers.set(page.url, await rawGet(BASE_PORT + 2, page.url));
  }
  const answersFile = path.join(dir, 'answers.json');
  fs.writeFileSync(
    answersFile,
    JSON.stringify(
      Object.fromEntries(
        [...appAnswers].map(([url, answer]) => {
          const headers: string[] = [];
          for (let i = 0; i < answer.rawHeaders.length; i += 2)
            if (!CONNECTION_HEADERS.has(answer.rawHeaders[i]!.toLowerCase()))
              headers.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
          return [url, { status: answer.status, headers, body: answer.body.toString('base64') }];
        }),
      ),
    ),
  );
  const node = await startProcess(
    'node:http',
    BASE_PORT + 3,
    NODE_TS[0],
    [...NODE_TS.slice(1), 'bench/pages-node.ts'],
    { ...process.env, PORT: String(BASE_PORT + 3), ANSWERS_FILE: answersFile },
    path.join(dir, 'node.log'),
    '/',
  );
  processes.push(node.child);
  const plainDir = path.join(dir, 'plain');
  fs.mkdirSync(plainDir);
  plain = await startBenchNginx(plainDir, plainNginxConfig(plainDir, BASE_PORT + 1, shippedAnswers), BASE_PORT + 1);

  const shippedPid = shipped.child.pid!;
  const plainPid = plain.pid;
  const targets: Target[] = [
    { name: 'shipped nginx', port: BASE_PORT, pids: () => [shippedPid] },
    { name: 'plain nginx', port: BASE_PORT + 1, pids: () => [plainPid] },
    { name: 'app', port: BASE_PORT + 2, pids: () => [app.child.pid!] },
    { name: 'node:http', port: BASE_PORT + 3, pids: () => [node.child.pid!] },
  ];
  const byName = new Map(targets.map((target) => [target.name, target]));

  // How each target answers each page, and where the headers of the same page differ.
  console.log('\nAnswers (status, content-type, content-encoding, body bytes):');
  for (const page of PAGES) {
    for (const target of targets) {
      const answer = await rawGet(target.port, page.url);
      const headers = headerMap(answer);
      const wrong = answer.status === page.status ? '' : `  (expected ${page.status})`;
      console.log(
        `  ${page.label.padEnd(16)} ${target.name.padEnd(14)} ${answer.status}, ${headers.get('content-type') ?? '-'}, ${headers.get('content-encoding') ?? 'none'}, ${thousands(answer.body.length)} B${wrong}`,
      );
    }
    for (const line of headerDifferences(shippedAnswers.get(page.url)!, 'nginx', appAnswers.get(page.url)!, 'app'))
      console.log(`    differs, shipped nginx / app: ${line}`);
  }

  if (CALLGRIND) {
    console.log('\nInstructions per request, each nginx under callgrind in turn:');
    await nginxInstructions(dir, upstreamPort, shippedAnswers);
  } else await cpuRounds();

  /** The rounds: each page's pairs loaded at once, CPU per request, and the table against the goals. */
  async function cpuRounds() {
    // Every target first serves every page for a while: the servers' code is warm before the first page's rounds.
    const allPages = path.join(dir, 'paths-all.txt');
    fs.writeFileSync(allPages, PAGES.map((page) => `${page.url}\n`).join(''));
    for (const target of targets) await loadTarget(target, allPages, FIRST_WARMUP_S);

    const results = new Map<string, Map<string, Run[]>>();
    const logLines = new Map<string, number>();
    for (const [index, page] of PAGES.entries()) {
      const pathsFile = path.join(dir, `paths-${index}.txt`);
      fs.writeFileSync(pathsFile, `${page.url}\n`);
      console.log(`\n${page.label} (${page.url}; load average ${loadAverage()})`);
      const load = (target: Target, durationS: number) => loadTarget(target, pathsFile, durationS);
      const linesBefore = lineCount(path.join(dir, 'app.log'));
      let appRequests = 0;
      for (const pair of PAIRS) {
        const warm = await Promise.all(pair.map((name) => load(byName.get(name)!, WARMUP_S)));
        appRequests += warm.find((_, index) => pair[index] === 'app')?.requests ?? 0;
      }
      const runs = new Map<string, Run[]>(targets.map((target) => [target.name, []]));
      for (let round = 1; round <= ROUNDS; round++) {
        // The two targets of a pair are loaded at the same time: whatever else the machine does then costs both alike.
        for (const pair of PAIRS) {
          const pairRuns = await Promise.all(pair.map((name) => load(byName.get(name)!, DURATION_S)));
          for (const [index, run] of pairRuns.entries()) {
            const target = byName.get(pair[index]!)!;
            runs.get(target.name)!.push(run);
            if (target.name === 'app') appRequests += run.requests;
            // wrk counts every 4xx as an error: the 404 page's answers are all of them, and nothing else may be.
            const socketErrors = run.errors - run.statusErrors;
            const wrongStatus = page.status === 200 ? run.statusErrors : run.requests - run.statusErrors;
            console.log(
              `  round ${round} ${target.name.padEnd(14)} ${thousands(run.rps).padStart(7)} req/s  ${thousands(run.bytesPerAnswer).padStart(6)} B/answer  p99 ${run.p99.toFixed(2).padStart(6)} ms  CPU ${run.cpuUs.toFixed(1).padStart(6)} µs/req${socketErrors ? `  socket errors ${socketErrors}` : ''}${wrongStatus ? `  ${wrongStatus} answers not ${page.status}` : ''}`,
            );
          }
        }
      }
      results.set(page.label, runs);
      logLines.set(page.label, (lineCount(path.join(dir, 'app.log')) - linesBefore) / Math.max(1, appRequests));
    }

    const pageRequestsReached = [...reached.values()].reduce((sum, count) => sum + count, 0);
    console.log(
      `\nFigures (medians of ${ROUNDS} rounds; ratios: median of the per-round ratios; load average ${loadAverage()})`,
    );
    console.log(
      '\n| page | target | req/s (range) | CPU per request | B/answer |\n| ---- | ------ | ------------- | --------------- | -------- |',
    );
    for (const [label, runs] of results) {
      for (const [index, [name, targetRuns]] of [...runs].entries()) {
        const rps = targetRuns.map((run) => run.rps);
        console.log(
          `| ${index === 0 ? `\`${label}\`` : ''} | ${name} | ${thousands(median(rps))} (${thousands(Math.min(...rps))}–${thousands(Math.max(...rps))}) | ${median(targetRuns.map((run) => run.cpuUs)).toFixed(1)} µs | ${thousands(median(targetRuns.map((run) => run.bytesPerAnswer)))} |`,
        );
      }
    }
    console.log(
      `\n| page | shipped nginx / plain nginx, CPU (goal ≤ ${NGINX_GOAL}×) | req/s | app / node:http, CPU (goal ≤ ${APP_GOAL}×) | req/s | app log lines per request |\n| ---- | ---- | ---- | ---- | ---- | ---- |`,
    );
    for (const [label, runs] of results) {
      const ratio = (a: string, b: string, pick: (run: Run) => number) => roundRatio(runs, a, b, pick);
      const nginxCpu = ratio('shipped nginx', 'plain nginx', (run) => run.cpuUs);
      const appCpu = ratio('app', 'node:http', (run) => run.cpuUs);
      const verdict = (value: number, goal: number) => `${value.toFixed(2)}× ${value <= goal ? 'OK' : 'MISSED'}`;
      console.log(
        `| \`${label}\` | ${verdict(nginxCpu, NGINX_GOAL)} | ${ratio('shipped nginx', 'plain nginx', (run) => run.rps).toFixed(2)}× | ${verdict(appCpu, APP_GOAL)} | ${ratio('app', 'node:http', (run) => run.rps).toFixed(2)}× | ${logLines.get(label)!.toFixed(2)} |`,
      );
    }
    console.log(
      `\nPage requests that reached an app process through the shipped nginx: ${pageRequestsReached}${pageRequestsReached ? ` (${[...reached].map(([url, count]) => `${url} ${count}`).join(', ')})` : ''} (goal 0).`,
    );
    if (pageRequestsReached) process.exitCode = 1;
  }
} finally {
  await stopAll();
  fs.rmSync(dir, { recursive: true, force: true });
}
