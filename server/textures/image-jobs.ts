// One small queue for all image work (uploads, gallery uploads, previews, maps, GIF builds), so sharp never takes every
// thread of libuv's pool and texture file reads, which share that pool, are not kept waiting behind it. Each sharp call
// holds one libuv thread and runs its pixels on libvips' own threads (sharp.concurrency(), left at the core count, so
// a lone large job still uses every core).
import os from 'node:os';

/** The size of libuv's thread pool, which sharp's work and file reads share. */
function libuvThreads(): number {
  return Number(process.env.UV_THREADPOOL_SIZE) || 4;
}

/** The default number of image jobs that run at once: one less than the cores, at least one, and always one less than libuv's threads so a file read finds a free one. */
export function defaultImageJobConcurrency(): number {
  return Math.max(1, Math.min(os.availableParallelism() - 1, libuvThreads() - 1));
}

/** How many image jobs wait and run right now. */
export interface ImageJobCounts {
  waiting: number;
  running: number;
}

/** A first-in first-out queue that runs at most `concurrency` image jobs at once. */
export class ImageJobs {
  private readonly queue: Array<() => void> = [];
  private active = 0;

  constructor(readonly concurrency: number = defaultImageJobConcurrency()) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Image job concurrency must be a whole number of at least 1, got ${concurrency}`);
  }

  /** Runs a job when a slot is free (in order of arrival) and resolves or rejects with its result. */
  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.active += 1;
        Promise.resolve()
          .then(job)
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
}
