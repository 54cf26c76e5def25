// The image job queue: each job runs in a worker process of its own (worker-pool.ts), with a lane for small jobs, a
// fair order between players, per-player caps, a queue cap and a timeout. Refusals are plain values from `attempt`;
// `run` throws them as a RefusedError.
import { defaultImageJobConcurrency, IMAGE_JOB_DEFAULTS, type ImageJobLimits } from '../config/image-job-limits.ts';
import { RefusedError, type Refusal } from '../../src/lib/refusals.ts';
import {
  WorkerPool,
  type ImageJobControl,
  type JobOutcome,
  type WorkCatalogue,
  type WorkerCatalogue,
  type WorkInput,
  type WorkName,
  type WorkResult,
} from './worker-pool.ts';

/** The message when a player already has as many image jobs queued or running as they may. */
export const IMAGE_JOBS_PER_PLAYER_MESSAGE =
  'You already have pictures being processed. Wait for them to finish, then try again.';
/** The message when a player has used their seconds of image work for the minute. */
export const IMAGE_WORK_BUDGET_MESSAGE =
  'You have used your share of picture processing for now. Try again in a minute.';
/** The message when the queue is full. */
export const IMAGE_QUEUE_FULL_MESSAGE = 'The server is busy processing pictures. Try again in a minute.';
/** The message when a job ran out of time. */
export const IMAGE_JOB_TIMEOUT_MESSAGE = 'This picture took too long to process. Try a smaller one.';

/** The queue's refusals: each message with its reason code. */
export const imageQueueRefusals = {
  perPlayer: { reason: 'rate_limited', message: IMAGE_JOBS_PER_PLAYER_MESSAGE },
  workBudget: { reason: 'rate_limited', message: IMAGE_WORK_BUDGET_MESSAGE },
  queueFull: { reason: 'busy', message: IMAGE_QUEUE_FULL_MESSAGE },
  timedOut: { reason: 'timed_out', message: IMAGE_JOB_TIMEOUT_MESSAGE },
} as const satisfies Record<string, Refusal>;

/** The window a player's seconds of image work are counted over. */
const WORK_WINDOW_MS = 60_000;

/** The player whose request a job is for (their uuid), or null for the site's own work. */
export type ImageJobOwner = string | null;

/** How many image jobs wait and run right now. */
export interface ImageJobCounts {
  waiting: number;
  running: number;
}

/**
 * Does one piece of image work (the worker pool, or in tests anything with the same shape), followed as ImageJobControl
 * says.
 */
export type WorkRunner<C extends WorkCatalogue> = <N extends WorkName<C>>(
  name: N,
  input: WorkInput<C, N>,
  control: Required<ImageJobControl>,
) => Promise<WorkResult<C, N>>;

/**
 * What a queue runs: its catalogue's workers, and how many pixels a job of the catalogue decodes and draws, judged
 * before it runs.
 */
export interface QueueCatalogue<C extends WorkCatalogue> {
  workers: WorkerCatalogue;
  pixels: <N extends WorkName<C>>(name: N, input: WorkInput<C, N>) => number;
}

/** Does one piece of work as the queue starts it, answering a refusal of its input as a value. */
type OutcomeRunner<C extends WorkCatalogue> = <N extends WorkName<C>>(
  name: N,
  input: WorkInput<C, N>,
  control: Required<ImageJobControl>,
) => Promise<JobOutcome<WorkResult<C, N>>>;

/** A job in the queue. */
interface Job {
  owner: ImageJobOwner;
  small: boolean;
  arrival: number;
  start: () => void;
  startedAt?: number;
}

/** The key a job's work is counted under: the player, or the site. */
const ownerKey = (owner: ImageJobOwner) => owner ?? '';

/**
 * The image job queue of a catalogue (the textures' is server/textures/image-work/):
 * - `concurrency` slots take any job, and `smallSlots` more take only small jobs (at most `smallJobPixels` pixels, as
 *   the catalogue judges a job before it runs), so a small upload never waits behind big GIFs;
 * - a free slot goes to the waiting job of the player who had the least image work in the last minute, then to the
 *   job that came first;
 * - a player may have `perPlayer` jobs queued or running and cause `workSecondsPerMinute` seconds of work a minute;
 *   beyond either, the refusal is rate_limited (429);
 * - beyond `queueMax` waiting jobs, the refusal is busy (503), the site's fault and no caller's;
 * - a job running past `timeoutMs` is refused (timed_out, 503) and its worker killed.
 * The site's own work (blocklisting, audit thumbnails, a late first render) has no player, so no cap and no budget;
 * work a player's request causes is that player's.
 */
export class ImageJobQueue<C extends WorkCatalogue> {
  readonly limits: ImageJobLimits;
  private readonly waiting: Job[] = [];
  private readonly running = new Set<Job>();
  /** Seconds of image work charged per owner key, with when, over the last window. */
  private readonly charges = new Map<string, Array<{ at: number; seconds: number }>>();
  private arrivals = 0;
  private readonly pool: WorkerPool<C> | null;
  private readonly runner: OutcomeRunner<C>;
  private readonly clock: () => number;

  constructor(
    private readonly catalogue: QueueCatalogue<C>,
    limits: Partial<ImageJobLimits> = {},
    options: { runner?: WorkRunner<C>; clock?: () => number } = {},
  ) {
    this.limits = { concurrency: defaultImageJobConcurrency(), ...IMAGE_JOB_DEFAULTS, ...limits };
    const { concurrency, smallSlots } = this.limits;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(`Image job concurrency must be a whole number of at least 1, got ${concurrency}`);
    if (!Number.isInteger(smallSlots) || smallSlots < 0)
      throw new Error(`Small image job slots must be a whole number of at least 0, got ${smallSlots}`);
    const pool = options.runner ? null : new WorkerPool<C>(concurrency + smallSlots, catalogue.workers);
    this.pool = pool;
    const runner = options.runner;
    this.runner = runner
      ? async (name, input, control) => ({ value: await runner(name, input, control) })
      : (name, input, control) => pool!.attempt(name, input, control);
    this.clock = options.clock ?? Date.now;
  }

  /** The concurrency of jobs of any size. */
  get concurrency(): number {
    return this.limits.concurrency;
  }

  /**
   * Runs a piece of image work for `owner` when a slot is free (see the top of this file) and resolves with its result
   * or a refusal: at once when the owner or the queue is over its limit, at the timeout, or the worker's refusal of the
   * input; rejects with any other error of the work.
   */
  attempt<N extends WorkName<C>>(
    name: N,
    input: WorkInput<C, N>,
    owner: ImageJobOwner,
  ): Promise<JobOutcome<WorkResult<C, N>>> {
    return new Promise<JobOutcome<WorkResult<C, N>>>((resolve, reject) => {
      if (owner !== null) {
        if (this.jobsOf(owner) >= this.limits.perPlayer) return resolve({ refusal: imageQueueRefusals.perPlayer });
        if (this.chargedSeconds(owner) >= this.limits.workSecondsPerMinute)
          return resolve({ refusal: imageQueueRefusals.workBudget });
      }
      const job: Job = {
        owner,
        small: this.catalogue.pixels(name, input) <= this.limits.smallJobPixels,
        arrival: this.arrivals++,
        start: () => this.start(job, name, input, resolve, reject),
      };
      this.waiting.push(job);
      this.dispatch();
      if (this.waiting.length > this.limits.queueMax && this.waiting.includes(job)) {
        this.waiting.splice(this.waiting.indexOf(job), 1);
        resolve({ refusal: imageQueueRefusals.queueFull });
      }
    });
  }

  /**
   * Runs a piece of image work as `attempt` does and resolves with its result; a refusal rejects as a RefusedError
   * (which the API answers 429 or 503 for the queue's own).
   */
  async run<N extends WorkName<C>>(name: N, input: WorkInput<C, N>, owner: ImageJobOwner): Promise<WorkResult<C, N>> {
    const outcome = await this.attempt(name, input, owner);
    if ('refusal' in outcome) throw new RefusedError(outcome.refusal);
    return outcome.value;
  }

  /** The jobs waiting for a slot and the jobs running, for metrics. */
  counts(): ImageJobCounts {
    return { waiting: this.waiting.length, running: this.running.size };
  }

  /** Stops the worker processes (the app is closing). */
  close(): void {
    this.pool?.close();
  }

  /** Starts waiting jobs while slots are free: small jobs take the small slots first, then any job the other slots. */
  private dispatch(): void {
    for (;;) {
      const runningSmallLane = [...this.running].filter((job) => job.small).length;
      const runningOther = this.running.size - runningSmallLane;
      const smallLaneFree = runningSmallLane < this.limits.smallSlots;
      // Small jobs beyond the small slots run in the other slots (counted there).
      const otherFree = runningOther + Math.max(0, runningSmallLane - this.limits.smallSlots) < this.limits.concurrency;
      const next = (smallLaneFree ? this.next(true) : undefined) ?? (otherFree ? this.next(false) : undefined);
      if (!next) return;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.start();
    }
  }

  /**
   * The waiting job (a small one when `smallOnly`) whose owner has had the least image work lately, the earliest on a
   * tie.
   */
  private next(smallOnly: boolean): Job | undefined {
    let best: { job: Job; work: number } | undefined;
    for (const job of this.waiting) {
      if (smallOnly && !job.small) continue;
      const work = this.recentWork(job.owner);
      if (!best || work < best.work || (work === best.work && job.arrival < best.job.arrival)) best = { job, work };
    }
    return best?.job;
  }

  private start<N extends WorkName<C>>(
    job: Job,
    name: N,
    input: WorkInput<C, N>,
    resolve: (outcome: JobOutcome<WorkResult<C, N>>) => void,
    reject: (error: unknown) => void,
  ): void {
    job.startedAt = this.clock();
    this.running.add(job);
    const controller = new AbortController();
    let finished = false;
    const finish = (settle: () => void) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      this.running.delete(job);
      this.charge(job.owner, (this.clock() - job.startedAt!) / 1000);
      settle();
      this.dispatch();
    };
    const timeOut = () => {
      controller.abort(new RefusedError(imageQueueRefusals.timedOut));
      finish(() => resolve({ refusal: imageQueueRefusals.timedOut }));
    };
    let timer = setTimeout(timeOut, this.limits.timeoutMs);
    // A worker that had to be started first: its start is neither the job's time nor the player's work.
    const onStart = () => {
      if (finished) return;
      job.startedAt = this.clock();
      clearTimeout(timer);
      timer = setTimeout(timeOut, this.limits.timeoutMs);
    };
    Promise.resolve()
      .then(() => this.runner(name, input, { signal: controller.signal, onStart }))
      .then(
        (outcome) => finish(() => resolve(outcome)),
        (error: unknown) => finish(() => reject(error)),
      );
  }

  /** How many jobs an owner has queued or running. */
  private jobsOf(owner: string): number {
    let jobs = 0;
    for (const job of this.waiting) if (job.owner === owner) jobs += 1;
    for (const job of this.running) if (job.owner === owner) jobs += 1;
    return jobs;
  }

  /** The seconds of image work charged to an owner over the last window (older charges are dropped). */
  private chargedSeconds(owner: ImageJobOwner): number {
    const key = ownerKey(owner);
    const since = this.clock() - WORK_WINDOW_MS;
    const charges = (this.charges.get(key) ?? []).filter((charge) => charge.at > since);
    if (charges.length === 0) this.charges.delete(key);
    else this.charges.set(key, charges);
    return charges.reduce((sum, charge) => sum + charge.seconds, 0);
  }

  /** An owner's image work lately: the seconds charged over the window plus how long their jobs have been running. */
  private recentWork(owner: ImageJobOwner): number {
    const now = this.clock();
    let seconds = this.chargedSeconds(owner);
    for (const job of this.running) if (job.owner === owner) seconds += (now - job.startedAt!) / 1000;
    return seconds;
  }

  /** Charges an owner the seconds of a finished job, and forgets the owners with no charge left in the window. */
  private charge(owner: ImageJobOwner, seconds: number): void {
    const now = this.clock();
    for (const [key, charges] of this.charges) if (charges.at(-1)!.at <= now - WORK_WINDOW_MS) this.charges.delete(key);
    const key = ownerKey(owner);
    const charges = this.charges.get(key) ?? [];
    charges.push({ at: now, seconds });
    this.charges.set(key, charges);
  }
}
