// The image job queue and worker pool as the textures use them: bound to the textures' catalogue of image work, a job's
// size judged by its pixels, and a texture a worker refused coming back as its refusal (a TextureRejected where the
// pool's `run` throws it).
import type { ImageJobLimits } from '../../config/image-job-limits.ts';
import { ImageJobQueue, type QueueCatalogue, type WorkRunner } from '../../image-jobs/job-queue.ts';
import { WorkerPool, type WorkerCatalogue } from '../../image-jobs/worker-pool.ts';
import { TextureRejected } from '../pipeline/process.ts';
import type { imageWork } from './catalogue.ts';
import { imageJobPixels } from './job-cost.ts';

/** The textures' catalogue of image work. */
export type ImageWork = typeof imageWork;

/** Does one piece of the textures' image work (the worker pool, or in tests anything with the same shape). */
export type ImageWorkRunner = WorkRunner<ImageWork>;

/** Where the workers load the catalogue, and the error a refused texture rejects with. */
const TEXTURE_WORKERS: WorkerCatalogue = {
  module: new URL('./catalogue.ts', import.meta.url),
  rejected: (refusal) => new TextureRejected(refusal),
};

/** The catalogue as the queue runs it. */
const TEXTURE_QUEUE: QueueCatalogue<ImageWork> = { workers: TEXTURE_WORKERS, pixels: imageJobPixels };

/** The image job queue of the textures' image work. */
export class ImageJobs extends ImageJobQueue<ImageWork> {
  constructor(limits: Partial<ImageJobLimits> = {}, options: { runner?: ImageWorkRunner; clock?: () => number } = {}) {
    super(TEXTURE_QUEUE, limits, options);
  }
}

/** Worker processes that do the textures' image work. */
export class ImageWorkerPool extends WorkerPool<ImageWork> {
  constructor(size: number) {
    super(size, TEXTURE_WORKERS);
  }
}
