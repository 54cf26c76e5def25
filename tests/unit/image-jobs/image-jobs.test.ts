// Unit tests for the image job queue (server/image-jobs/job-queue.ts): bounded concurrency, a fair order between
// players, a lane for small jobs, the caps (per player, seconds of work a minute, queue length) and the timeout, with
// jobs the test runs by hand.
import { describe, expect, it } from 'vitest';
import { refusalError } from '../../../server/http/errors.ts';
import { RefusedError } from '../../../src/lib/refusals.ts';
import { defaultImageJobConcurrency, type ImageJobLimits } from '../../../server/config/image-job-limits.ts';
import {
  IMAGE_JOB_TIMEOUT_MESSAGE,
  IMAGE_JOBS_PER_PLAYER_MESSAGE,
  IMAGE_QUEUE_FULL_MESSAGE,
  IMAGE_WORK_BUDGET_MESSAGE,
  type ImageJobOwner,
} from '../../../server/image-jobs/job-queue.ts';
import { ImageJobs, type ImageWorkRunner } from '../../../server/textures/image-work/image-jobs.ts';
import { pngHeaderOnly } from '../../../support/textures.ts';

/** A job the test finishes by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A big job's input (a 2048 x 2048 PNG header) and a small one's (64 x 32), each carrying its number. */
const big = (index: number) => pngHeaderOnly(2048, 2048, Buffer.from(String(index)));
const small = (index: number) => pngHeaderOnly(64, 32, Buffer.from(String(index)));
/** The number a job's input carries. */
const numberOf = (input: Buffer) => Number(input.subarray(33).toString());

/**
 * A queue whose job number n runs `jobs[n]` (given the abort signal and the call for its start); it records the order
 * jobs start in.
 */
function queueOf(
  limits: Partial<ImageJobLimits>,
  jobs: Array<(signal: AbortSignal, onStart: () => void) => Promise<unknown>>,
  clock?: () => number,
) {
  const started: number[] = [];
  const runner = ((_name: string, input: Buffer, { signal, onStart }: { signal: AbortSignal; onStart: () => void }) => {
    started.push(numberOf(input));
    return jobs[numberOf(input)]!(signal, onStart);
  }) as ImageWorkRunner;
  const queue = new ImageJobs({ smallSlots: 0, ...limits }, { runner, clock });
  return {
    queue,
    started,
    run: (input: Buffer, owner: ImageJobOwner = 'player') => queue.run('textureMap', input, owner),
  };
}

/** The status the API answers a refusal with, and its message. */
async function refusalOf(job: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await job.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RefusedError);
  const answer = refusalError((error as RefusedError).refusal);
  return { status: answer.statusCode, message: answer.message };
}

describe('ImageJobs', () => {
  it('runs at most `concurrency` jobs at once and counts the waiting ones', async () => {
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    let running = 0;
    let most = 0;
    const { queue, run } = queueOf(
      { concurrency: 2, perPlayer: 10 },
      gates.map((gate, index) => async () => {
        running += 1;
        most = Math.max(most, running);
        const value = await gate.promise;
        running -= 1;
        return value + index;
      }),
    );
    const results = gates.map((_, index) => run(big(index)));
    await settle();
    expect(queue.counts()).toEqual({ waiting: 3, running: 2 });
    for (const gate of gates) {
      gate.resolve(100);
      await settle();
    }
    expect(await Promise.all(results)).toEqual([100, 101, 102, 103, 104]);
    expect(most).toBe(2);
    expect(queue.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it("starts one player's jobs in order of arrival", async () => {
    const { started, run } = queueOf(
      { concurrency: 1, perPlayer: 10 },
      Array.from({ length: 6 }, (_, index) => () => new Promise((resolve) => setTimeout(resolve, (6 - index) * 2))),
    );
    await Promise.all(Array.from({ length: 6 }, (_, index) => run(big(index))));
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('gives a free slot to the player who has had the least image work, not to the one who came first', async () => {
    let now = 0;
    const gates = Array.from({ length: 5 }, () => deferred<void>());
    const { started, run } = queueOf(
      { concurrency: 1, perPlayer: 10 },
      // Each job takes a second of the test's clock.
      gates.map((gate) => () => gate.promise.then(() => (now += 1000))),
      () => now,
    );
    const jobs = [
      run(big(0), 'flooder'),
      run(big(1), 'flooder'),
      run(big(2), 'flooder'),
      run(big(3), 'other'),
      run(big(4), 'flooder'),
    ];
    await settle();
    expect(started).toEqual([0]);
    gates[0]!.resolve();
    await settle();
    // The flooder has had a job's work; the other player none, though they came after two more of the flooder's jobs.
    expect(started).toEqual([0, 3]);
    for (const gate of gates) gate.resolve();
    await Promise.all(jobs);
    expect(started).toEqual([0, 3, 1, 2, 4]);
  });

  it('runs a small job at once in its own lane while big jobs hold the other slots, and leaves that lane to small jobs', async () => {
    const gates = Array.from({ length: 4 }, () => deferred<void>());
    const { queue, started, run } = queueOf(
      { concurrency: 1, smallSlots: 1, perPlayer: 10 },
      gates.map((gate) => () => gate.promise),
    );
    const jobs = [run(big(0), 'flooder'), run(big(1), 'flooder'), run(big(2), 'other')];
    await settle();
    expect(started).toEqual([0]);
    const smallJob = run(small(3), 'uploader');
    await settle();
    expect(started).toEqual([0, 3]);
    expect(queue.counts()).toEqual({ waiting: 2, running: 2 });
    gates[3]!.resolve();
    await smallJob;
    await settle();
    // The small lane is free again, but the big jobs still wait for the one slot that takes them.
    expect(started).toEqual([0, 3]);
    for (const gate of gates) gate.resolve();
    await Promise.all(jobs);
  });

  it("refuses a player's job beyond their jobs queued or running with 429, and not the site's own work", async () => {
    const gate = deferred<void>();
    const { queue, run } = queueOf({ concurrency: 1, perPlayer: 2 }, [
      () => gate.promise,
      () => gate.promise,
      () => gate.promise,
    ]);
    const jobs = [run(big(0)), run(big(1))];
    expect(await refusalOf(run(big(2)))).toEqual({ status: 429, message: IMAGE_JOBS_PER_PLAYER_MESSAGE });
    const another = run(big(2), 'another player');
    const site = [run(big(0), null), run(big(1), null), run(big(2), null)];
    await settle();
    expect(queue.counts()).toEqual({ waiting: 5, running: 1 });
    gate.resolve();
    await Promise.all([...jobs, another, ...site]);
    // Once their jobs are done, the player may send more.
    await run(big(0));
  });

  it('refuses a player who has caused their seconds of image work this minute with 429, until the minute has passed', async () => {
    let now = 1_000_000;
    const work = (seconds: number) => async () => {
      now += seconds * 1000;
    };
    const { run } = queueOf({ concurrency: 1, workSecondsPerMinute: 5 }, [work(3), work(3), work(0.5)], () => now);
    await run(big(0));
    await run(big(1));
    expect(await refusalOf(run(big(2)))).toEqual({ status: 429, message: IMAGE_WORK_BUDGET_MESSAGE });
    await run(big(2), 'another player');
    now += 60_000;
    await run(big(2));
  });

  it("does not count the start of a job's worker as the player's image work", async () => {
    let now = 1_000_000;
    const { run } = queueOf(
      { concurrency: 1, workSecondsPerMinute: 2 },
      [
        async (_signal, onStart) => {
          now += 5_000; // a worker being started
          onStart();
          now += 1_000;
        },
      ],
      () => now,
    );
    await run(big(0));
    await run(big(0));
    expect(await refusalOf(run(big(0)))).toEqual({ status: 429, message: IMAGE_WORK_BUDGET_MESSAGE });
  });

  it('refuses a job with 503 when `queueMax` jobs already wait, and keeps the waiting ones', async () => {
    const gate = deferred<void>();
    const { queue, run } = queueOf({ concurrency: 1, queueMax: 2, perPlayer: 10 }, [() => gate.promise]);
    const jobs = [run(big(0), 'a'), run(big(0), 'b'), run(big(0), 'c')];
    await settle();
    expect(await refusalOf(run(big(0), 'd'))).toEqual({ status: 503, message: IMAGE_QUEUE_FULL_MESSAGE });
    expect(queue.counts()).toEqual({ waiting: 2, running: 1 });
    gate.resolve();
    await Promise.all(jobs);
  });

  it('fails a job that runs past the timeout with 503, ends its work and gives its slot to the next job', async () => {
    let aborted: unknown = null;
    const { queue, started, run } = queueOf({ concurrency: 1, timeoutMs: 50, perPlayer: 10 }, [
      (signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            reject(new Error('killed'));
          }),
        ),
      async () => 'next',
    ]);
    const stuck = run(big(0));
    const next = run(big(1));
    expect(await refusalOf(stuck)).toEqual({ status: 503, message: IMAGE_JOB_TIMEOUT_MESSAGE });
    expect(aborted).toBeInstanceOf(RefusedError);
    await expect(next).resolves.toBe('next');
    expect(started).toEqual([0, 1]);
    expect(queue.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it("passes a failed job's error to its caller and goes on with the next job", async () => {
    const { queue, run } = queueOf({ concurrency: 1, perPlayer: 10 }, [
      async () => {
        throw new Error('broken image');
      },
      async () => 'done',
    ]);
    const failing = run(big(0));
    const next = run(big(1));
    await expect(failing).rejects.toThrow('broken image');
    await expect(next).resolves.toBe('done');
    expect(queue.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('defaults to one less than the cores, at least one, and refuses a concurrency below one', () => {
    expect(defaultImageJobConcurrency()).toBeGreaterThanOrEqual(1);
    const defaults = new ImageJobs();
    expect(defaults.concurrency).toBe(defaultImageJobConcurrency());
    defaults.close();
    expect(() => new ImageJobs({ concurrency: 0 })).toThrow(/at least 1/);
  });
});
