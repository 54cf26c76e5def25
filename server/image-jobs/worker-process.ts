// An image worker process: lowers its own CPU priority, loads the catalogue whose module URL it is given, then does the
// image work its parent sends, one job at a time. Started by server/image-jobs/worker-pool.ts; it exits when its parent
// goes away.
import os from 'node:os';
import type { ImageWorkerReply, ImageWorkerRequest, WorkerCatalogueModule } from './worker-pool.ts';

/** The worker's nice value: image work yields the CPU to the API's event loop whenever both want it. */
const IMAGE_WORKER_NICE = 10;

// Before sharp loads: on Linux the priority is per thread, and the threads made later (libuv's, libvips') inherit it.
os.setPriority(IMAGE_WORKER_NICE);
const { imageWork, refusalOf } = (await import(process.argv[2]!)) as WorkerCatalogueModule;

/** The answer to a job that failed: the refusal of its input as a plain value, or the error's message. */
function failure(id: number, error: unknown): ImageWorkerReply {
  const refusal = refusalOf(error);
  return refusal ? { id, refusal } : { id, error: error instanceof Error ? error.message : String(error) };
}

process.on('message', (request: ImageWorkerRequest) => {
  (imageWork[request.name] as (input: unknown) => Promise<unknown>)(request.input).then(
    (result) => process.send!({ id: request.id, result } satisfies ImageWorkerReply),
    (error: unknown) => process.send!(failure(request.id, error)),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!({ id: 0, ready: true } satisfies ImageWorkerReply);
