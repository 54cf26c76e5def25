// Unit tests for the image job queue (server/textures/image-jobs.ts): bounded concurrency, order of arrival, counts.
import { describe, expect, it } from 'vitest';
import { defaultImageJobConcurrency, ImageJobs, type ImageWorkRunner } from '../../server/textures/image-jobs.ts';

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

/** A queue whose work is the given functions, picked by the job's input (its number as text). */
function queueOf(concurrency: number, jobs: Array<() => Promise<unknown>>): { queue: ImageJobs; run: (index: number) => Promise<unknown> } {
  const runner = ((_name: string, input: Buffer) => jobs[Number(input.toString())]!()) as ImageWorkRunner;
  const queue = new ImageJobs(concurrency, runner);
  return { queue, run: (index) => queue.run('textureMap', Buffer.from(String(index))) };
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ImageJobs', () => {
  it('runs at most `concurrency` jobs at once and counts the waiting ones', async () => {
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    let running = 0;
    let most = 0;
    const { queue: jobs, run } = queueOf(
      2,
      gates.map((gate, index) => async () => {
        running += 1;
        most = Math.max(most, running);
        const value = await gate.promise;
        running -= 1;
        return value + index;
      }),
    );
    const results = gates.map((_, index) => run(index));
    await settle();
    expect(jobs.counts()).toEqual({ waiting: 3, running: 2 });
    for (const gate of gates) {
      gate.resolve(100);
      await settle();
    }
    expect(await Promise.all(results)).toEqual([100, 101, 102, 103, 104]);
    expect(most).toBe(2);
    expect(jobs.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('starts jobs in order of arrival, one at a time with concurrency 1', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const { run } = queueOf(
      1,
      Array.from({ length: 6 }, (_, index) => async () => {
        started.push(index);
        await new Promise((resolve) => setTimeout(resolve, (6 - index) * 2));
        finished.push(index);
      }),
    );
    await Promise.all(Array.from({ length: 6 }, (_, index) => run(index)));
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(finished).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("passes a failed job's error to its caller and goes on with the next job", async () => {
    const { queue: jobs, run } = queueOf(1, [
      async () => {
        throw new Error('broken image');
      },
      async () => 'done',
    ]);
    const failing = run(0);
    const next = run(1);
    await expect(failing).rejects.toThrow('broken image');
    await expect(next).resolves.toBe('done');
    expect(jobs.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('defaults to one less than the cores, at least one, and refuses a concurrency below one', () => {
    expect(defaultImageJobConcurrency()).toBeGreaterThanOrEqual(1);
    const defaults = new ImageJobs();
    expect(defaults.concurrency).toBe(defaultImageJobConcurrency());
    defaults.close();
    expect(() => new ImageJobs(0)).toThrow(/at least 1/);
  });
});
