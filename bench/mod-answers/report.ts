// The mod answers bench's checks and report: each case's first answers compared with its baseline's, and the table of
// every case's medians against its goal.
import fs from 'node:fs';
import { loadAverage, median, thousands } from '../wrk.ts';
import type { BenchCase, LoadResult, RunResults, Target } from './load.ts';
import { ROUNDS } from './settings.ts';

/**
 * Asks each case's first 20 paths of its target and of its baseline, and prints whether status and body length agree.
 */
export async function compareAnswers(cases: BenchCase[]): Promise<void> {
  // Each case's first paths, asked of its target and its baseline: the same status, and bodies of the same length.
  console.log('\nAnswers compared on the first 20 paths of each case (status; body bytes):');
  for (const benchCase of cases) {
    const [first, second] = benchCase.runs;
    const a = fs.readFileSync(first!.pathsFile, 'utf8').split('\n').filter(Boolean).slice(0, 20);
    const b = fs.readFileSync(second!.pathsFile, 'utf8').split('\n').filter(Boolean).slice(0, 20);
    const answer = async (port: number, urlPath: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${urlPath}`);
      return { status: response.status, length: (await response.arrayBuffer()).byteLength };
    };
    let differ = 0;
    const statuses = new Map<string, number>();
    for (let i = 0; i < a.length; i++) {
      const [x, y] = [await answer(first!.target.port, a[i]!), await answer(second!.target.port, b[i]!)];
      statuses.set(`${x.status}`, (statuses.get(`${x.status}`) ?? 0) + 1);
      // CustomSkinAPI's body holds the player's name, whose length differs from the baseline's player.
      if (x.status !== y.status || (benchCase.name !== 'csl' && benchCase.name !== 'mix' && x.length !== y.length))
        differ += 1;
    }
    console.log(
      `  ${benchCase.name.padEnd(13)} ${first!.target.name} vs ${second!.target.name}: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}${differ ? `  !! ${differ} differ` : ', the same'}`,
    );
  }
}

/**
 * Prints the table: each case's target against its baseline, medians of the rounds (ratios are medians of per-round
 * ratios), and how many requests reached the app process during the nginx runs; true when every goal is met.
 */
export function printResults(
  cases: BenchCase[],
  results: RunResults['rounds'],
  appRequestsByCase: RunResults['appRequests'],
  shipped: Target,
): boolean {
  let allPass: boolean;
  // The table: each case's target against its baseline, medians of the rounds; ratios are medians of per-round ratios.
  const rows: string[][] = [
    [
      'case',
      'vs',
      'CPU µs/req',
      'CPU ratio',
      'goal',
      'ok',
      'nginx alone',
      'req/s',
      'req/s ratio',
      'p99 ms',
      'app requests',
    ],
  ];
  let appRequestsTotal = 0;
  allPass = true;
  for (const benchCase of cases) {
    const [first, second] = benchCase.runs.map(({ target }) => results.get(benchCase.name)!.get(target.name)!) as [
      LoadResult[],
      LoadResult[],
    ];
    const [a, b] = benchCase.runs.map(({ target }) => target.name);
    const ratio = (x: LoadResult[], y: LoadResult[], of: (result: LoadResult) => number) =>
      median(x.map((result, round) => of(result) / of(y[round]!)));
    const cpuRatio = ratio(first, second, (result) => result.cpuUs);
    const shippedCase = benchCase.runs[0]!.target === shipped;
    const pass = !benchCase.goal || cpuRatio <= benchCase.goal.max;
    allPass &&= pass;
    // The req/s goal against another target, if any, with its verdict.
    const rps = benchCase.rpsGoal && {
      against: benchCase.rpsGoal.against,
      goal: `req/s ≥ ${benchCase.rpsGoal.min}×`,
      ok:
        ratio(first, results.get(benchCase.name)!.get(benchCase.rpsGoal.against)!, (r) => r.rps) >=
        benchCase.rpsGoal.min
          ? 'yes'
          : 'NO',
    };
    allPass &&= rps?.ok !== 'NO';
    // The main row's goal: the CPU goal, or else the req/s goal when it is against the same baseline.
    const [goalCell, okCell] = benchCase.goal
      ? [`≤ ${benchCase.goal.max}×`, pass ? 'yes' : 'NO']
      : rps?.against === b
        ? [rps.goal, rps.ok]
        : ['–', '–'];
    const appRequests = appRequestsByCase.get(benchCase.name)!;
    appRequestsTotal += appRequests;
    const medianOf = (runs: LoadResult[], of: (result: LoadResult) => number) => median(runs.map(of));
    rows.push([
      benchCase.title,
      `${a} / ${b}`,
      `${medianOf(first, (r) => r.cpuUs).toFixed(1)} / ${medianOf(second, (r) => r.cpuUs).toFixed(1)}`,
      `${cpuRatio.toFixed(2)}×`,
      goalCell,
      okCell,
      shippedCase ? `${ratio(first, second, (r) => r.cpuPartsUs[0]!).toFixed(2)}×` : '–',
      `${thousands(medianOf(first, (r) => r.rps))} / ${thousands(medianOf(second, (r) => r.rps))}`,
      `${ratio(first, second, (r) => r.rps).toFixed(2)}×`,
      `${medianOf(first, (r) => r.p99).toFixed(2)} / ${medianOf(second, (r) => r.p99).toFixed(2)}`,
      shippedCase ? (appRequests === 0 ? '0' : `${thousands(appRequests)} !!`) : '–',
    ]);
    // A row of the first target against another of the case's targets.
    const againstRow = (against: string, title: string, goal: string, ok: string, nginxAlone: boolean) => {
      const other = results.get(benchCase.name)!.get(against)!;
      rows.push([
        `${benchCase.title} ${title}`,
        `${a} / ${against}`,
        `${medianOf(first, (r) => r.cpuUs).toFixed(1)} / ${medianOf(other, (r) => r.cpuUs).toFixed(1)}`,
        `${ratio(first, other, (r) => r.cpuUs).toFixed(2)}×`,
        goal,
        ok,
        nginxAlone ? `${ratio(first, other, (r) => r.cpuPartsUs[0]!).toFixed(2)}×` : '–',
        `${thousands(medianOf(first, (r) => r.rps))} / ${thousands(medianOf(other, (r) => r.rps))}`,
        `${ratio(first, other, (r) => r.rps).toFixed(2)}×`,
        `${medianOf(first, (r) => r.p99).toFixed(2)} / ${medianOf(other, (r) => r.p99).toFixed(2)}`,
        '–',
      ]);
    };
    if (benchCase.also) againstRow(benchCase.also, '(same paths)', '–', '–', true);
    if (rps && (rps.against !== b || benchCase.goal)) againstRow(rps.against, '(req/s)', rps.goal, rps.ok, false);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log(
    `\nResults (medians of ${ROUNDS} round(s); ratios are medians of per-round ratios; CPU of the whole target, for the shipped nginx with the app process behind it, "nginx alone" without it; load average ${loadAverage()})\n`,
  );
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
    if (i === 0) console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  }
  const appPass = appRequestsTotal === 0;
  allPass &&= appPass;
  console.log(
    `\nRequests that reached the app process during the nginx runs (warm-ups included): ${thousands(appRequestsTotal)} (must be 0: ${appPass ? 'yes' : 'NO'})`,
  );
  return allPass;
}
