// Graceful shutdown on SIGTERM (and SIGINT): stop taking connections, let the requests in flight finish within a grace
// period, then close the image workers, the database, Redis and the metrics port, give the log what is left of the
// grace period to be written, and exit.
import type { FastifyInstance } from 'fastify';

/**
 * How long the closing itself (workers, database, Redis) may take after the grace period before the process exits
 * anyway.
 */
const CLOSE_DEADLINE_MS = 5000;

/**
 * On SIGTERM or SIGINT: runs `beforeClose` (stopping background work), then closes the app. The listening socket closes
 * at once (new connections are refused), requests in flight finish (requests that reach a kept-alive connection
 * meanwhile get Fastify's 503 with `Connection: close`), and after `graceMs` the connections still open are cut. Then
 * `drainLog` may write the log's backlog until the grace period ends, never longer. Exits 0 once everything closed, 1
 * when closing failed or hung.
 */
export function closeOnSignals(
  app: FastifyInstance,
  options: { graceMs: number; beforeClose?: () => unknown; drainLog?: (timeoutMs: number) => Promise<unknown> },
): void {
  let closing = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const graceEnds = Date.now() + options.graceMs;
    // The log is never waited for beyond the grace period: a reader that stalled or left must not keep the process.
    const exit = (code: number) => {
      const drained = options.drainLog?.(Math.max(0, graceEnds - Date.now())) ?? Promise.resolve();
      void drained.finally(() => process.exit(code));
    };
    app.log.info(
      { signal, graceMs: options.graceMs },
      'shutting down: refusing new connections, finishing the requests in flight',
    );
    const cut = setTimeout(() => {
      app.log.warn(`requests still in flight after ${options.graceMs} ms: closing their connections`);
      app.server.closeAllConnections();
    }, options.graceMs);
    cut.unref();
    const hung = setTimeout(() => {
      app.log.error('shutdown did not finish in time');
      process.exit(1);
    }, options.graceMs + CLOSE_DEADLINE_MS);
    hung.unref();
    Promise.resolve()
      .then(() => options.beforeClose?.())
      .then(() => app.close())
      .then(
        () => {
          app.log.info('shut down');
          exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
  };
  process.on('SIGTERM', shutDown);
  process.on('SIGINT', shutDown);
}
