// One small queue for all image work (uploads, gallery uploads, previews, maps, GIF builds): at most `concurrency` jobs
// at once, in order of arrival, each run in a worker process of its own (server/textures/image-workers.ts).
import os from 'node:os';
import type { ImageWorkInput, ImageWorkName, ImageWorkResult } from './image-work.ts';
import { ImageWorkerPool } from './image-workers.ts';

/** The default number of image jobs that run at once: one less than the cores, at least one (so one core stays the API's). */
export function defaultImageJobConcurrency(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

/** How many image jobs wait and run right now. */
export interface ImageJobCounts {
  waiting: number;
  running: number;
}

/** Does one piece of image work (the worker pool, or in tests anything with the same shape). */
export type ImageWorkRunner = <N extends ImageWorkName>(name: N, input: ImageWorkInput<N>) => Promise<ImageWorkResult<N>>;

/** A first-in first-out queue that runs at most `concurrency` image jobs at once. */
export class ImageJobs {
  private readonly queue: Array<() => void> = [];
  private active = 0;
  private readonly pool: ImageWorkerPool | null;
  private readonly runner: ImageWorkRunner;

  constructor(
    readonly concurrency: number = defaultImageJobConcurrency(),
    runner?: ImageWorkRunner,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Image job concurrency must be a whole number of at least 1, got ${concurrency}`);
    const pool = runner ? null : new ImageWorkerPool(concurrency);
    this.pool = pool;
    this.runner = runner ?? ((name, input) => pool!.run(name, input));
  }

  /** Runs a piece of image work when a slot is free (in order of arrival) and resolves or rejects with its result. */
  run<N extends ImageWorkName>(name: N, input: ImageWorkInput<N>): Promise<ImageWorkResult<N>> {
    return new Promise<ImageWorkResult<N>>((resolve, reject) => {
      const start = () => {
        this.active += 1;
        Promise.resolve()
          .then(() => this.runner(name, input))
          .then(resolve, reject)
          .finally(() => {
            this.active -= 1;
            this.queue.shift()?.();
          });
      };
      if (this.active < this.concurrency) start();
      else this.queue.push(start);
    });
  }

  /** The jobs waiting for a slot and the jobs running, for metrics. */
  counts(): ImageJobCounts {
    return { waiting: this.queue.length, running: this.active };
  }

  /** Stops the worker processes (the app is closing). */
  close(): void {
    this.pool?.close();
  }
}
