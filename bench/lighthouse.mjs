// Starts the server, runs Lighthouse 12 (default mobile config) 3 times on the home page and prints the median figures.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_FLAGS } from '../scripts/chromium-flags.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const PORT = Number(process.env.BENCH_PORT ?? 4391);
const URL_TO_TEST = `http://localhost:${PORT}/`;
const RUNS = 3;
const MAX_ATTEMPTS = RUNS + 2;
const TIME_LIMIT_MS = 3 * 60 * 1000;
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
  if (await answers(URL_TO_TEST)) throw new Error(`Something already answers on ${URL_TO_TEST}; stop it or set BENCH_PORT.`);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-bench-'));
  const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, OFFLINE_MODE: 'true', LOG_LEVEL: 'warn' };
  server = spawn('npx', ['tsx', 'server/main.ts'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
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

// Runs Lighthouse once against the home page in a fresh browser (so with no cookie: a first-time visitor).
async function runLighthouse() {
  const { port } = await launchChrome();
  try {
    const result = await lighthouse(URL_TO_TEST, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
    if (!result?.lhr) throw new Error('Lighthouse returned no result.');
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result;
  } finally {
    await stopChrome();
  }
}

// The same-origin requests of a run that failed (status 400 or more), as "status url".
function failedRequests(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items.filter((item) => item.url.startsWith(URL_TO_TEST) && item.statusCode >= 400).map((item) => `${item.statusCode} ${item.url}`);
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
function printSummary(lhrs) {
  console.log(
    `\nLighthouse ${lhrs[0].lighthouseVersion}, ${lhrs[0].configSettings.formFactor} (default config, ${lhrs[0].configSettings.throttlingMethod} throttling), ${URL_TO_TEST}`,
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
    const metrics = METRICS.map(([label, id, unit]) => `${label} ${formatMetric(lhr.audits[id].numericValue, unit)}`).join(', ');
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

// Writes the last run's full JSON report into bench/results/ and returns its path.
function saveReport(report) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, 'lighthouse-home.json');
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

// Starts everything, runs the measurements and always cleans up.
async function main() {
  const giveUp = setTimeout(async () => {
    console.error(`Giving up after ${TIME_LIMIT_MS / 1000} s.`);
    await cleanUp();
    process.exit(1);
  }, TIME_LIMIT_MS);
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
    const results = [];
    for (let attempt = 1; results.length < RUNS; attempt += 1) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`Only ${results.length} of ${RUNS} runs loaded the page cleanly in ${MAX_ATTEMPTS} attempts.`);
      console.log(`Lighthouse run ${results.length + 1}/${RUNS}…`);
      const result = await runLighthouse();
      const failed = failedRequests(result.lhr);
      if (failed.length === 0) results.push(result);
      else console.log(`  discarded: ${failed.join(', ')} (was dist/ rebuilt during the run?)`);
    }
    printSummary(results.map((result) => result.lhr));
    console.log(`\nLast run's report: ${path.relative(process.cwd(), saveReport(results.at(-1).report))}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    clearTimeout(giveUp);
    await cleanUp();
  }
}

await main();
