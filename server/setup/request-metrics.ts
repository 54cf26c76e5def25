// The app's metrics: every answered request counted by its route, and the metrics port opened and closed with the app.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import { UNMATCHED_ROUTE } from '../http/request-durations.ts';
import type { Metrics } from '../operations/metrics.ts';

/** Counts every request Fastify answers and serves the metrics on METRICS_PORT (when set) while the app runs. */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, settings: Config['metrics']): void {
  // Every request Fastify answers, by the route it matched (the fast path records its own answers).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requests.observe(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (settings.port !== undefined) {
    const { port, host } = settings;
    app.addHook('onReady', async () => {
      await metrics.listen(port, host);
      app.log.info({ address: metrics.address() }, 'metrics listening');
    });
  }
  app.addHook('onClose', async () => metrics.close());
}
