// The mod API's changes: every texture stored or released is published, and the answers are kept in step from the
// moment the app is ready until it closes.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../operations/app-context.ts';

/** Publishes the library's texture changes on the bus and runs the answer sync (and Redis) for the app's lifetime. */
export function followChanges(app: FastifyInstance, { library, bus, answerSync, redis }: AppContext): void {
  // Every texture registered or released is a change to the mod API's answers (its files, every process's memory).
  library.onStored((hash) => bus.publish(hash));
  library.onRemoved((hash) => bus.publish(hash));
  // Before the server listens: which players have something to show, and the answer files up to date.
  app.addHook('onReady', async () => answerSync.start());
  app.addHook('onClose', async () => {
    await answerSync.stop();
    await bus.close();
    redis?.close();
  });
}
