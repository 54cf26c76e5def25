// Shared pieces of the operations API suites: reading the Prometheus samples of a test server and GETting JSON from it.
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

/** One sample of the Prometheus text format: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus' text format (the subset prom-client writes: no escaped quotes in the labels used here). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample: ${line}`);
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1]!, pair[2]!]),
    );
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with this name whose labels include these (0 when there is none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return found?.value ?? 0;
}

/** The metrics port's address of a server started with METRICS_PORT=0. */
export function metricsUrl(server: TestServer): string {
  const address = server.app.metrics.address();
  if (!address) throw new Error('The metrics port is off');
  return `http://127.0.0.1:${address.port}/metrics`;
}

/** Scrapes the metrics port once. */
export async function scrape(server: TestServer): Promise<Sample[]> {
  const response = await fetch(metricsUrl(server));
  expect(response.status).toBe(200);
  return parseMetrics(await response.text());
}

/** GETs a path and returns its status and JSON body. */
export async function getJson(
  server: TestServer,
  urlPath: string,
): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await fetch(`${server.url}${urlPath}`);
  return { status: response.status, body: await response.json(), response };
}
