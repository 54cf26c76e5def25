// The benchmarks' load generator and figures: one wrk run (in a process of its own, walking a file of paths with
// bench/wrk-paths.lua) read into numbers, and the helpers that turn rounds of runs into medians and ratios.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './processes.ts';

/** The wrk script that walks a file of paths and prints its figures as one JSON line. */
const WRK_SCRIPT = path.join(ROOT, 'bench', 'wrk-paths.lua');

/**
 * What one wrk run measured: requests per second, bytes per answer, latency percentiles in ms, and failed or
 * non-2xx/3xx answers.
 */
export interface WrkResult {
  rps: number;
  bytesPerAnswer: number;
  p50: number;
  p99: number;
  errors: number;
  /**
   * The answers counted in `errors` for their status (4xx and 5xx); the rest of `errors` are socket errors and
   * timeouts.
   */
  statusErrors: number;
  /** The requests answered. */
  requests: number;
}

/**
 * How to run wrk: against which port, with which paths and for how long; `once` stops after walking the paths once (a
 * warm-up), `cycle` walks them in order round and round from a random one.
 */
export interface WrkRun {
  port: number;
  pathsFile: string;
  durationS: number;
  connections: number;
  mode?: 'random' | 'once' | 'cycle';
  headers?: Record<string, string>;
  /** The core wrk runs on (taskset), when given. */
  core?: number;
  /**
   * Requests per second to offer, spread over the connections (each waits connections / rate between its requests);
   * as fast as the target answers when not given.
   */
  rate?: number;
}

/** Runs wrk once (one thread, the given connections) and resolves with its figures. */
export function runWrk(run: WrkRun): Promise<WrkResult> {
  const mode = run.mode ?? 'random';
  const headers = Object.entries(run.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = [
    '-t1',
    `-c${run.connections}`,
    `-d${run.durationS}s`,
    '--timeout',
    '10s',
    ...headers,
    '-s',
    WRK_SCRIPT,
    `http://127.0.0.1:${run.port}`,
    '--',
    run.pathsFile,
    mode,
    String(run.rate ? (run.connections * 1000) / run.rate : 0),
  ];
  return new Promise((resolve, reject) => {
    const [command, commandArgs] =
      run.core === undefined ? ['wrk', args] : ['taskset', ['-c', String(run.core), 'wrk', ...args]];
    const wrk = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    wrk.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (mode === 'once' && output.includes('walked\n')) wrk.kill('SIGINT');
    });
    wrk.on('error', reject);
    wrk.on('close', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (exit ${code}): ${output}`));
      const result = JSON.parse(line) as Record<string, number>;
      resolve({
        rps: result.requests! / (result.duration_us! / 1e6),
        bytesPerAnswer: result.bytes! / Math.max(1, result.requests!),
        p50: result.p50_us! / 1000,
        p99: result.p99_us! / 1000,
        errors: result.connect! + result.read! + result.write! + result.status! + result.timeout!,
        statusErrors: result.status!,
        requests: result.requests!,
      });
    });
  });
}

/** The median of numbers. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A whole number with thousands separators. */
export const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

/** The machine's load averages (1, 5, 15 minutes), for the report. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** The median over rounds of target `a`'s figure divided by target `b`'s in the same round. */
export function roundRatio<R>(results: Map<string, R[]>, a: string, b: string, pick: (result: R) => number): number {
  const theirs = results.get(b)!;
  return median(results.get(a)!.map((result, round) => pick(result) / pick(theirs[round]!)));
}
