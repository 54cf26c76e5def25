// Prometheus metrics: one registry per app (tests run several apps in one process), HTTP requests by route pattern and
// status with their durations (recorded without allocating, so the mod API's fast path can count every answer), the
// profile cache, image jobs, uploads and logins, dropped log lines, Node's process metrics, and the port Prometheus
// scrapes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import type { MicrosoftLoginFailure } from '../../src/lib/login-errors.ts';
import type { ImageJobCounts } from '../image-jobs/job-queue.ts';
import type { Refusal } from '../../src/lib/refusals.ts';
import type { UploadCounter, UploadKind } from '../textures/intake/intake.ts';
import { RequestDurations, type Sample } from '../http/request-durations.ts';

/**
 * A metric whose samples are read from the app's own counters when Prometheus scrapes, registered beside prom-client's
 * own.
 */
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

/** How a player logged in. */
export type LoginMethod = 'code' | 'microsoft';
/** How a login ended: a code login's results, or why a Microsoft login was refused. */
export type LoginResult = 'ok' | 'wrong_code' | 'banned' | 'rate_limited' | 'too_many_failures' | MicrosoftLoginFailure;

/**
 * The short, stable label of an upload refusal (`too_big`, `wrong_type`, `dimensions`, …): the reason code the refusal
 * carries from where it was raised (a TextureRejected, an HttpError of a refusal, or a refusal itself); `other` for an
 * error without one.
 */
export function uploadRejectionReason(refusal: unknown): string {
  const reason = typeof refusal === 'object' && refusal !== null && 'reason' in refusal ? refusal.reason : undefined;
  return typeof reason === 'string' && reason !== '' ? reason : 'other';
}

/** The app state the metrics read on every scrape. */
export interface MetricSources {
  profiles: { readonly hits: number; readonly misses: number; readonly size: number };
  imageJobs: { counts(): ImageJobCounts };
  /** The log's output, when the app writes through one that drops lines (none counts zero). */
  log?: { readonly droppedLines: number };
}

/**
 * One app's metrics: its registry, the request histogram, the counters its routes move, and the port that serves them.
 */
export class Metrics implements UploadCounter {
  readonly registry = new Registry();
  readonly requests = new RequestDurations();
  private readonly uploads: Counter<'kind' | 'result'>;
  private readonly logins: Counter<'method' | 'result'>;
  private server: http.Server | undefined;

  /**
   * Registers every metric; `processMetrics` adds Node's own (CPU, memory, event loop, GC), which watch the process
   * from then on.
   */
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
    this.register(
      new ScrapedMetric(
        'cloakroom_log_lines_dropped_total',
        'Log lines dropped because the reader of stdout was gone or too far behind',
        'counter',
        () => [{ labels: {}, value: sources.log?.droppedLines ?? 0 }],
      ),
    );
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

  /** Counts an upload: `ok`, or under the short label of why it was refused. */
  countUpload(kind: UploadKind, result: 'ok' | Refusal): void {
    this.uploads.inc({ kind, result: result === 'ok' ? 'ok' : uploadRejectionReason(result) });
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
        response
          .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Not found: the metrics are at /metrics\n');
        return;
      }
      this.text().then(
        (text) =>
          response
            .writeHead(200, { 'content-type': this.contentType, 'cache-control': 'no-store' })
            .end(request.method === 'HEAD' ? undefined : text),
        () =>
          response
            .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
            .end('The metrics could not be collected\n'),
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
