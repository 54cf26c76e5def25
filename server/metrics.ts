// Prometheus metrics: one registry per app (tests run several apps in one process), HTTP requests by route pattern and
// status with their durations (recorded without allocating, so the mod API's fast path can count every answer), the
// profile cache, image jobs, uploads and logins, Node's process metrics, and the port Prometheus scrapes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import { galleryMessages } from '../src/lib/gallery-rules.ts';
import type { MicrosoftLoginFailure } from '../src/lib/login-errors.ts';
import { textureMessages } from '../src/lib/texture-rules.ts';
import {
  IMAGE_JOB_TIMEOUT_MESSAGE,
  IMAGE_JOBS_PER_PLAYER_MESSAGE,
  IMAGE_QUEUE_FULL_MESSAGE,
  IMAGE_WORK_BUDGET_MESSAGE,
  type ImageJobCounts,
} from './textures/image-jobs.ts';
import { BLOCKLISTED_MESSAGE } from './textures/blocklist.ts';

/** Upper bounds of the request duration buckets, in seconds: from half a millisecond (cached mod API answers) to 10 s. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The requests of one method, route pattern and status: how many fell in each duration bucket, their count and their sum. */
export class RequestSeries {
  /** Requests per bucket (not cumulative); the last one holds those slower than every bound. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);
  count = 0;
  sum = 0;

  constructor(
    readonly method: string,
    readonly route: string,
    readonly status: string,
  ) {}

  /** Records one request that took `seconds`: a few comparisons and additions, nothing allocated. */
  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
    this.buckets[bucket] = this.buckets[bucket]! + 1;
    this.count += 1;
    this.sum += seconds;
  }
}

/** A route pattern as a label: its parameters without their regular expressions (`/api/gallery/:hash`). */
function routeLabel(pattern: string): string {
  return pattern.replace(/\(\^?[^)]*\$?\)/g, '');
}

/** HTTP requests by method, route pattern (never the raw URL, so the series stay few) and status, with their durations. */
export class RequestDurations {
  private readonly byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>();

  /** The series of a method, route pattern and status, made on first use (callers on a hot path resolve theirs once). */
  series(method: string, route: string, status: number): RequestSeries {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = new RequestSeries(method, routeLabel(route), String(status))));
    return series;
  }

  /** Records one request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.series(method, route, status).observe(seconds);
  }

  /** The histogram's samples in Prometheus' shape: cumulative buckets, +Inf, sum and count for every series. */
  samples(name: string): Sample[] {
    const samples: Sample[] = [];
    for (const byMethod of this.byRoute.values()) {
      for (const byStatus of byMethod.values()) {
        for (const series of byStatus.values()) {
          const labels = { method: series.method, route: series.route, status: series.status };
          let cumulative = 0;
          DURATION_BUCKETS.forEach((bound, index) => {
            cumulative += series.buckets[index]!;
            samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
          });
          samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: series.count });
          samples.push({ metricName: `${name}_sum`, labels, value: series.sum });
          samples.push({ metricName: `${name}_count`, labels, value: series.count });
        }
      }
    }
    return samples;
  }
}

/** One sample of a metric: its labels and value, and its own name for a histogram's parts. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** A metric whose samples are read from the app's own counters when Prometheus scrapes, registered beside prom-client's own. */
class ScrapedMetric {
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    private readonly read: () => Sample[],
  ) {}

  /** The metric as the registry prints it. */
  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.read() };
  }

  /** The counters belong to the app: nothing to reset. */
  reset(): void {}
}

/** What an upload is for. */
export type UploadKind = 'cape' | 'ears' | 'gallery';
/** How a player logged in. */
export type LoginMethod = 'code' | 'microsoft';
/** How a login ended: a code login's results, or why a Microsoft login was refused. */
export type LoginResult = 'ok' | 'wrong_code' | 'banned' | 'rate_limited' | 'too_many_failures' | MicrosoftLoginFailure;

/** The refusals' messages and their short, stable labels. */
const REJECTION_REASONS = new Map<string, string>([
  [textureMessages.capeTooBig, 'too_big'],
  [textureMessages.earsTooBig, 'too_big'],
  [galleryMessages.fileTooBig, 'too_big'],
  [textureMessages.capeType, 'wrong_type'],
  [textureMessages.earsType, 'wrong_type'],
  [galleryMessages.fileType, 'wrong_type'],
  [textureMessages.invalidImage, 'invalid_image'],
  [textureMessages.capeTooLarge, 'dimensions'],
  [textureMessages.capeDimensions, 'dimensions'],
  [textureMessages.earsDimensions, 'dimensions'],
  [textureMessages.capeTooManyFrames, 'too_many_frames'],
  [BLOCKLISTED_MESSAGE, 'blocklisted'],
  [galleryMessages.tooManyUploads, 'rate_limited'],
  [galleryMessages.missingFields, 'missing_fields'],
  [galleryMessages.unknownTag, 'unknown_tag'],
  [galleryMessages.titleTooLong, 'invalid_title'],
  [galleryMessages.titleCharacters, 'invalid_title'],
  [IMAGE_JOBS_PER_PLAYER_MESSAGE, 'rate_limited'],
  [IMAGE_WORK_BUDGET_MESSAGE, 'rate_limited'],
  [IMAGE_QUEUE_FULL_MESSAGE, 'busy'],
  [IMAGE_JOB_TIMEOUT_MESSAGE, 'timed_out'],
]);

/** The short, stable label of an upload refusal's message (`too_big`, `wrong_type`, `dimensions`, …; `other` for one not listed). */
export function uploadRejectionReason(message: string): string {
  return REJECTION_REASONS.get(message) ?? 'other';
}

/** The app state the metrics read on every scrape. */
export interface MetricSources {
  profiles: { readonly hits: number; readonly misses: number; readonly size: number };
  imageJobs: { counts(): ImageJobCounts };
}

/** One app's metrics: its registry, the request histogram, the counters its routes move, and the port that serves them. */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new RequestDurations();
  private readonly uploads: Counter<'kind' | 'result'>;
  private readonly logins: Counter<'method' | 'result'>;
  private server: http.Server | undefined;

  /** Registers every metric; `processMetrics` adds Node's own (CPU, memory, event loop, GC), which watch the process from then on. */
  constructor(sources: MetricSources, options: { processMetrics: boolean }) {
    const registers = [this.registry];
    this.register(
      new ScrapedMetric(
        'cloakroom_http_request_duration_seconds',
        'HTTP requests by method, route pattern and status, and how long they took',
        'histogram',
        () => this.requests.samples('cloakroom_http_request_duration_seconds'),
      ),
    );
    this.register(
      new ScrapedMetric(
        'cloakroom_profile_cache_lookups_total',
        'Mod API profile lookups, answered from the cache (hit) or the database (miss)',
        'counter',
        () => [
          { labels: { result: 'hit' }, value: sources.profiles.hits },
          { labels: { result: 'miss' }, value: sources.profiles.misses },
        ],
      ),
    );
    new Gauge({
      name: 'cloakroom_profile_cache_entries',
      help: 'Players whose mod API profile is cached',
      registers,
      collect() {
        this.set(sources.profiles.size);
      },
    });
    new Gauge({
      name: 'cloakroom_image_jobs_waiting',
      help: 'Image jobs (uploads, previews, GIF builds) waiting for a worker',
      registers,
      collect() {
        this.set(sources.imageJobs.counts().waiting);
      },
    });
    new Gauge({
      name: 'cloakroom_image_jobs_running',
      help: 'Image jobs running in a worker',
      registers,
      collect() {
        this.set(sources.imageJobs.counts().running);
      },
    });
    this.uploads = new Counter({
      name: 'cloakroom_uploads_total',
      help: 'Cape, ears and gallery uploads by result: ok, or why it was refused (too_big, wrong_type, invalid_image, dimensions, …)',
      labelNames: ['kind', 'result'],
      registers,
    });
    this.logins = new Counter({
      name: 'cloakroom_logins_total',
      help: 'Logins by method and result: ok, wrong_code, banned, rate_limited, too_many_failures',
      labelNames: ['method', 'result'],
      registers,
    });
    // The usual series exist from the start, so a rate over them works before the first event.
    for (const kind of ['cape', 'ears', 'gallery'] as const) this.uploads.inc({ kind, result: 'ok' }, 0);
    this.logins.inc({ method: 'code', result: 'ok' }, 0);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts an upload: `ok`, or the short label of why it was refused. */
  countUpload(kind: UploadKind, result: string): void {
    this.uploads.inc({ kind, result });
  }

  /** Counts a login attempt's result. */
  countLogin(method: LoginMethod, result: LoginResult): void {
    this.logins.inc({ method, result });
  }

  /** Every metric in Prometheus' text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The content type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Serves GET /metrics on a port of its own (0 picks a free one); resolves once it listens. */
  async listen(port: number, host: string): Promise<void> {
    const server = http.createServer((request, response) => {
      const path = (request.url ?? '').split('?', 1)[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
        return;
      }
      this.text().then(
        (text) => response.writeHead(200, { 'content-type': this.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
        () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** Where the metrics port listens, or null when it is off. */
  address(): AddressInfo | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address : null;
  }

  /** Stops the metrics port (a scrape in progress is cut). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Adds a metric of the app's own to the registry (it prints them as it prints its own kinds). */
  private register(metric: ScrapedMetric): void {
    this.registry.registerMetric(metric as unknown as Metric);
  }
}
