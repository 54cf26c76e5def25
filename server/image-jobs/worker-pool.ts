// Image work in separate processes at a lower CPU priority: decoding a 64-frame GIF or rendering previews takes whole
// cores for seconds, and in the API's own process it would take them from the event loop (the mod API's p99 went from
// 4 ms to 160 ms beside 20 such uploads). A worker that dies fails its job and is replaced by the next job; a job whose
// caller gives up on it (its timeout) is ended by killing its worker, and a new worker is started in its place at once.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Refusal, Refused } from '../../src/lib/refusals.ts';

/** A catalogue of work: each kind by name, taking one input and resolving with its result. */
export type WorkCatalogue = Record<string, (input: never) => Promise<unknown>>;
/** The name of a kind of work of a catalogue. */
export type WorkName<C extends WorkCatalogue> = keyof C & string;
/** What a kind of work takes. */
export type WorkInput<C extends WorkCatalogue, N extends WorkName<C>> = Parameters<C[N]>[0];
/** What a kind of work resolves with. */
export type WorkResult<C extends WorkCatalogue, N extends WorkName<C>> = Awaited<ReturnType<C[N]>>;

/** What a piece of work came to: its result, or the refusal of its input (a plain value, as the worker sent it). */
export type JobOutcome<R> = { value: R } | Refused;

/**
 * Where the workers find a catalogue and how a refusal comes back: `module` is the URL of a module that exports
 * `imageWork` (the catalogue) and `refusalOf` (the refusal an error of its work stands for, or null for any other
 * error); `rejected` makes the error `run` rejects with for a refusal.
 */
export interface WorkerCatalogue {
  module: URL;
  rejected: (refusal: Refusal) => Error;
}

/** What a worker process loads: the catalogue and how it tells a refusal. */
export interface WorkerCatalogueModule {
  imageWork: WorkCatalogue;
  refusalOf: (error: unknown) => Refusal | null;
}

/** A job sent to a worker. */
export interface ImageWorkerRequest {
  id: number;
  name: string;
  input: unknown;
}

/** A worker's answer: ready to work, a result, the refusal of the job's input, or the job's error. */
export type ImageWorkerReply =
  | { id: 0; ready: true }
  | { id: number; result: unknown }
  | { id: number; refusal: Refusal }
  | { id: number; error: string };

const WORKER_FILE = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
/**
 * The TypeScript loader the server itself runs with, by absolute URL (so it resolves whatever the working directory).
 */
const TS_LOADER = import.meta.resolve('tsx');

/** How the caller of a job follows it: a signal that ends it, and a call when it reaches its worker. */
export interface ImageJobControl {
  signal?: AbortSignal;
  onStart?: () => void;
}

/** One worker process and the job it is doing. */
interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  job: { id: number; resolve: (outcome: JobOutcome<unknown>) => void; reject: (error: Error) => void } | null;
}

/**
 * Runs the work of a catalogue in up to `size` worker processes, one job per worker at a time (the caller's queue keeps
 * to that).
 */
export class WorkerPool<C extends WorkCatalogue> {
  private readonly workers: Worker[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly catalogue: WorkerCatalogue,
  ) {}

  /**
   * Runs one piece of image work in an idle worker (started on first use) and resolves with its result, or the refusal
   * of its input as a value; `onStart` is called when the job goes to the (started) worker. When `signal` aborts, the
   * job fails with its reason and the worker is killed and replaced.
   */
  async attempt<N extends WorkName<C>>(
    name: N,
    input: WorkInput<C, N>,
    control: ImageJobControl = {},
  ): Promise<JobOutcome<WorkResult<C, N>>> {
    if (this.closed) throw new Error('Image workers are closed');
    const { signal, onStart } = control;
    signal?.throwIfAborted();
    const worker = this.workers.find((candidate) => candidate.job === null) ?? this.start();
    const id = this.nextId++;
    const outcome = new Promise<JobOutcome<unknown>>((resolve, reject) => (worker.job = { id, resolve, reject }));
    signal?.addEventListener(
      'abort',
      () =>
        this.failJob(worker, id, signal.reason instanceof Error ? signal.reason : new Error('The image job was ended')),
      {
        once: true,
      },
    );
    await worker.ready;
    onStart?.();
    // A worker that died a moment ago fails the send (EPIPE): the job fails, the worker's exit removes it.
    worker.child.send({ id, name, input } satisfies ImageWorkerRequest, (error) => {
      if (error) this.failJob(worker, id, new Error(`The image worker stopped (${error.message})`));
    });
    return outcome as Promise<JobOutcome<WorkResult<C, N>>>;
  }

  /** Runs one piece of image work as `attempt` does, and rejects with the catalogue's error for a refusal. */
  async run<N extends WorkName<C>>(
    name: N,
    input: WorkInput<C, N>,
    control: ImageJobControl = {},
  ): Promise<WorkResult<C, N>> {
    const outcome = await this.attempt(name, input, control);
    if ('refusal' in outcome) throw this.catalogue.rejected(outcome.refusal);
    return outcome.value;
  }

  /** Stops every worker; jobs in flight fail. */
  close(): void {
    this.closed = true;
    for (const worker of this.workers.splice(0)) worker.child.kill();
  }

  /** Fails a worker's job if it is still the one given, kills the worker and starts another in its place. */
  private failJob(worker: Worker, id: number, error: Error): void {
    if (worker.job?.id !== id) return;
    worker.job.reject(error);
    worker.job = null;
    this.retire(worker);
    worker.child.kill('SIGKILL');
    if (!this.closed) this.start();
  }

  /** Takes a worker out of the pool. */
  private retire(worker: Worker): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
  }

  private start(): Worker {
    if (this.workers.length >= this.size) throw new Error(`All ${this.size} image workers are busy`);
    const child = fork(WORKER_FILE, [this.catalogue.module.href], {
      execArgv: ['--import', TS_LOADER],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let markReady!: () => void;
    let failStart!: (error: Error) => void;
    const worker: Worker = {
      child,
      job: null,
      ready: new Promise<void>((resolve, reject) => ((markReady = resolve), (failStart = reject))),
    };
    worker.ready.catch(() => {}); // a start failure reaches the caller through its job
    child.on('message', (reply: ImageWorkerReply) => {
      if ('ready' in reply) return markReady();
      const job = worker.job;
      if (!job || job.id !== reply.id) return;
      worker.job = null;
      if ('error' in reply) job.reject(new Error(reply.error));
      else job.resolve('refusal' in reply ? { refusal: reply.refusal } : { value: reply.result });
    });
    // Errors of the IPC channel (a send to a dying worker) must not become the server's uncaught exceptions.
    child.on('error', (error) => {
      if (worker.job) this.failJob(worker, worker.job.id, new Error(`The image worker stopped (${error.message})`));
    });
    child.on('exit', (code, signal) => {
      this.retire(worker);
      const error = new Error(`The image worker stopped (${signal ?? `exit code ${code}`})`);
      failStart(error);
      worker.job?.reject(error);
      worker.job = null;
    });
    this.workers.push(worker);
    return worker;
  }
}
