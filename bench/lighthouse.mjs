// Starts the server, runs Lighthouse (default mobile config) 3 times on each measured page and prints the median
// figures.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS } from '../scripts/chromium-flags.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const PORT = Number(process.env.BENCH_PORT ?? 4391);
const ORIGIN = `http://localhost:${PORT}`;
const URL_TO_TEST = `${ORIGIN}/`;
/** The measured pages: the home page as a first-time visitor, and the heaviest pages a logged-in player opens. */
const PAGES = [
  { name: 'home', path: '/', player: false },
  { name: 'gallery', path: '/gallery', player: true },
  { name: 'upload-cape', path: '/upload-cape', player: true },
  { name: 'cape-creator', path: '/gallery/cape-creator', player: true },
];
/** The player the logged-in pages are measured as. */
const PLAYER = 'BenchPlayer';
const RUNS = 3;
const MAX_ATTEMPTS = RUNS + 2;
const TIME_LIMIT_PER_PAGE_MS = 3 * 60 * 1000;
const SERVER_START_LIMIT_MS = 90 * 1000;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = [
  ['FCP', 'first-contentful-paint', 'ms'],
  ['LCP', 'largest-contentful-paint', 'ms'],
  ['TBT', 'total-blocking-time', 'ms'],
  ['CLS', 'cumulative-layout-shift', ''],
  ['Speed Index', 'speed-index', 'ms'],
  ['Total transfer', 'total-byte-weight', 'bytes'],
];

let server = null;
let chrome = null;
let dataDir = null;

// Waits for a number of milliseconds.
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Whether something answers HTTP at a URL right now.
async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

// Starts the server in its own process group with a throw-away data folder; resolves once the home page answers.
async function startServer() {
  if (await answers(URL_TO_TEST))
    throw new Error(`Something already answers on ${URL_TO_TEST}; stop it or set BENCH_PORT.`);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-bench-'));
  const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, OFFLINE_MODE: 'true', LOG_LEVEL: 'warn' };
  server = spawn('npx', ['tsx', 'server/main.ts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = null;
  server.once('exit', (code, signal) => (exited = signal ?? code));
  const deadline = Date.now() + SERVER_START_LIMIT_MS;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`The server stopped before answering (exit ${exited}).`);
    if (await answers(URL_TO_TEST)) return;
    await sleep(500);
  }
  throw new Error(`The server did not answer on ${URL_TO_TEST} within ${SERVER_START_LIMIT_MS / 1000} s.`);
}

// Stops the server's whole process group (npx, tsx, node): SIGTERM, then SIGKILL if it lingers.
async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const signalGroup = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      // Already gone.
    }
  };
  signalGroup('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(8000).then(() => false)]);
  if (!stopped) signalGroup('SIGKILL');
}

// Last resort when the process exits anyway: kill the server's process group at once.
function killServerNow() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

// Launches a fresh headless Chromium for one run.
async function launchChrome() {
  if (!fs.existsSync(CHROME_PATH)) throw new Error(`No Chromium at ${CHROME_PATH} (set CHROME_PATH).`);
  chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  return chrome;
}

// Kills the Chromium of the current run, if any.
async function stopChrome() {
  if (!chrome) return;
  const current = chrome;
  chrome = null;
  try {
    await current.kill();
  } catch {
    // Already gone.
  }
}

// Issues a one-time login code for the bench player with the operator CLI, against the server's data folder.
function issueLoginCode() {
  const env = { ...process.env, DATA_DIR: dataDir, OFFLINE_MODE: 'true', LOG_LEVEL: 'silent' };
  const output = execFileSync(process.execPath, [path.join(ROOT, 'bin', 'cloakroom.mjs'), 'code', PLAYER], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  const match = /: (\d{6})$/m.exec(output);
  if (!match) throw new Error(`No login code in the CLI's output: ${output}`);
  return match[1];
}

// Logs the bench player in through the login page of the browser on `port`, with today's server advert already seen.
async function logIn(port) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    await context.addCookies([{ name: 'server_advert', value: '1', url: ORIGIN }]);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/account/login/minecraft`);
    await page.locator('astro-island[ssr]').first().waitFor({ state: 'detached' });
    await page.getByLabel('Code').fill(issueLoginCode());
    await page.getByRole('button', { name: 'Confirm identity' }).click();
    await page.waitForURL(`${ORIGIN}/`);
    await page.close();
  } finally {
    await browser.close();
  }
}

// Runs Lighthouse once against a page in a fresh browser: a first-time visitor, or a player who just logged in there
// (Lighthouse empties the browser's caches before loading the page, and keeps cookies and local storage).
async function runLighthouse(page) {
  const { port } = await launchChrome();
  try {
    if (page.player) await logIn(port);
    const result = await lighthouse(`${ORIGIN}${page.path}`, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    });
    if (!result?.lhr) throw new Error('Lighthouse returned no result.');
    if (result.lhr.runtimeError)
      throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    if (new URL(result.lhr.finalDisplayedUrl).pathname !== page.path)
      throw new Error(`Lighthouse measured ${result.lhr.finalDisplayedUrl}, not ${page.path}.`);
    return result;
  } finally {
    await stopChrome();
  }
}

// The same-origin requests of a run that failed (status 400 or more), as "status url".
function failedRequests(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items
    .filter((item) => item.url.startsWith(ORIGIN) && item.statusCode >= 400)
    .map((item) => `${item.statusCode} ${item.url}`);
}

// The median of a list of numbers.
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// A category score out of 100 from a Lighthouse result.
function categoryScore(lhr, id) {
  const score = lhr.categories[id]?.score;
  return score === null || score === undefined ? NaN : Math.round(score * 100);
}

// A metric value formatted with its unit.
function formatMetric(value, unit) {
  if (unit === 'ms') return `${(value / 1000).toFixed(2)} s`;
  if (unit === 'bytes') return `${(value / 1024).toFixed(1)} KiB`;
  return value.toFixed(3);
}

// Prints one line per run and the medians.
function printSummary(page, lhrs) {
  console.log(
    `\nLighthouse ${lhrs[0].lighthouseVersion}, ${lhrs[0].configSettings.formFactor} (default config, ${lhrs[0].configSettings.throttlingMethod} throttling), ${ORIGIN}${page.path}${page.player ? ' as a logged-in player' : ', first visit'}`,
  );
  console.log(`Browser: ${lhrs[0].environment.hostUserAgent}`);
  const benchmarkIndexes = lhrs.map((lhr) => Math.round(lhr.environment.benchmarkIndex));
  console.log(
    `CPU benchmark index per run: ${benchmarkIndexes.join(', ')}; load average now: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(', ')} on ${os.cpus().length} cores\n`,
  );
  for (const [index, lhr] of lhrs.entries()) {
    const metrics = METRICS.map(
      ([label, id, unit]) => `${label} ${formatMetric(lhr.audits[id].numericValue, unit)}`,
    ).join(', ');
    console.log(`Run ${index + 1}: performance ${categoryScore(lhr, 'performance')} | ${metrics}`);
  }
  console.log(`\nMedian of ${lhrs.length} runs:`);
  console.log(`  Performance score: ${median(lhrs.map((lhr) => categoryScore(lhr, 'performance')))}`);
  for (const [label, id, unit] of METRICS) {
    console.log(`  ${label}: ${formatMetric(median(lhrs.map((lhr) => lhr.audits[id].numericValue)), unit)}`);
  }
  console.log('Other categories (median score):');
  for (const id of CATEGORIES.filter((category) => category !== 'performance')) {
    console.log(`  ${lhrs[0].categories[id].title}: ${median(lhrs.map((lhr) => categoryScore(lhr, id)))}`);
  }
  const lcpElement = lhrs.at(-1).audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
  if (lcpElement) console.log(`LCP element (last run): ${lcpElement.selector} — ${lcpElement.snippet}`);
}

// Writes a page's last full JSON report into bench/results/ and returns its path.
function saveReport(page, report) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `lighthouse-${page.name}.json`);
  fs.writeFileSync(file, report);
  return file;
}

// Stops Chromium and the server and removes the temporary data folder.
async function cleanUp() {
  await stopChrome();
  await stopServer();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
}

// Measures one page RUNS times (retrying a run that lost a request), prints its figures and saves its last report.
async function measure(page) {
  const results = [];
  for (let attempt = 1; results.length < RUNS; attempt += 1) {
    if (attempt > MAX_ATTEMPTS)
      throw new Error(
        `Only ${results.length} of ${RUNS} runs loaded ${page.path} cleanly in ${MAX_ATTEMPTS} attempts.`,
      );
    console.log(`Lighthouse ${page.path} run ${results.length + 1}/${RUNS}…`);
    const result = await runLighthouse(page);
    const failed = failedRequests(result.lhr);
    if (failed.length === 0) results.push(result);
    else console.log(`  discarded: ${failed.join(', ')} (was dist/ rebuilt during the run?)`);
  }
  printSummary(
    page,
    results.map((result) => result.lhr),
  );
  console.log(`\nLast run's report: ${path.relative(process.cwd(), saveReport(page, results.at(-1).report))}\n`);
}

// The pages named on the command line (by name or path), or all of them.
function selectedPages() {
  const wanted = process.argv.slice(2);
  if (wanted.length === 0) return PAGES;
  const pages = PAGES.filter((page) => wanted.includes(page.name) || wanted.includes(page.path));
  if (pages.length !== wanted.length)
    throw new Error(`Unknown page in ${wanted.join(' ')}; the pages are ${PAGES.map((page) => page.name).join(', ')}.`);
  return pages;
}

// Starts everything, runs the measurements and always cleans up.
async function main() {
  const pages = selectedPages();
  const timeLimitMs = TIME_LIMIT_PER_PAGE_MS * pages.length;
  const giveUp = setTimeout(async () => {
    console.error(`Giving up after ${timeLimitMs / 1000} s.`);
    await cleanUp();
    process.exit(1);
  }, timeLimitMs);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      await cleanUp();
      process.exit(130);
    });
  }
  process.on('uncaughtException', async (error) => {
    console.error(`Unexpected error: ${error?.message ?? error}`);
    await cleanUp();
    process.exit(1);
  });
  process.on('exit', killServerNow);
  try {
    console.log(`Starting the server on port ${PORT}…`);
    await startServer();
    for (const page of pages) await measure(page);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    clearTimeout(giveUp);
    await cleanUp();
  }
}

await main();
