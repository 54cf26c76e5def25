// The HTTP request histogram: requests by method, route pattern and status with their durations, recorded without
// allocating (so the mod API's fast path can count every answer), and read as Prometheus samples by
// server/operations/metrics.ts.

/**
 * Upper bounds of the request duration buckets, in seconds: from half a millisecond (cached mod API answers) to 10 s.
 */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The requests of one method, route pattern and status: how many fell in each duration bucket, their count and their
 * sum.
 */
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

/**
 * HTTP requests by method, route pattern (never the raw URL, so the series stay few) and status, with their durations.
 */
export class RequestDurations {
  private readonly byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>();

  /**
   * The series of a method, route pattern and status, made on first use (callers on a hot path resolve theirs once).
   */
  series(method: string, route: string, status: number): RequestSeries {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined)
      byStatus.set(status, (series = new RequestSeries(method, routeLabel(route), String(status))));
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
export interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}
