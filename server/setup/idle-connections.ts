// While the app closes: the fast paths stop, and connections are closed as soon as they go idle.
import type { FastifyInstance } from 'fastify';
import type { FastPath } from '../mod/fast-path.ts';

/**
 * While the app closes, how often connections that went idle (a kept-alive connection whose request just finished) are
 * closed.
 */
const IDLE_REAP_INTERVAL_MS = 50;

/** On close, stops the fast paths and closes each connection once its request is answered. */
export function closeIdleConnectionsOnClose(app: FastifyInstance, fastPaths: readonly FastPath[]): void {
  let idleReaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    for (const fastPath of fastPaths) fastPath.stop();
    // Closing the server closes the connections idle at that moment; one whose request is in flight would stay open
    // after its answer until the keep-alive timeout (72 s) and hold the close that long. Reap them as they go idle.
    idleReaper = setInterval(() => app.server.closeIdleConnections(), IDLE_REAP_INTERVAL_MS);
    idleReaper.unref();
  });
  app.addHook('onClose', async () => clearInterval(idleReaper));
}
