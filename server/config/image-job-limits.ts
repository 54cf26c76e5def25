// How the image job queue (server/image-jobs/job-queue.ts) shares image work, and the limits' defaults the configuration
// reads.
import os from 'node:os';
import { CAPE_MAX_HEIGHT, CAPE_MAX_WIDTH } from '../../src/lib/texture-rules.ts';

/**
 * The default number of image jobs that run at once: one less than the cores, at least one (so one core stays the
 * API's).
 */
export function defaultImageJobConcurrency(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

/** How the queue shares image work. */
export interface ImageJobLimits {
  /** Jobs of any size that run at once. */
  concurrency: number;
  /** More jobs that run at once, small ones only. */
  smallSlots: number;
  /** The most pixels (decoded and drawn) a small job has. */
  smallJobPixels: number;
  /** Jobs one player may have queued or running. */
  perPlayer: number;
  /** Jobs that may wait for a slot. */
  queueMax: number;
  /** How long a job may run before it is ended with its worker, in ms. */
  timeoutMs: number;
  /** Seconds of image work one player may cause per minute. */
  workSecondsPerMinute: number;
}

/**
 * The limits' defaults: one small-job slot beside the others, the largest still cape (2048 x 1024) as the small size.
 */
export const IMAGE_JOB_DEFAULTS: Omit<ImageJobLimits, 'concurrency'> = {
  smallSlots: 1,
  smallJobPixels: CAPE_MAX_WIDTH * CAPE_MAX_HEIGHT,
  perPlayer: 2,
  queueMax: 32,
  timeoutMs: 30_000,
  workSecondsPerMinute: 20,
};
