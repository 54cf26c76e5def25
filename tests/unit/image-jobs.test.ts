// Unit tests for the image job queue (server/textures/image-jobs.ts): bounded concurrency, order of arrival, counts.
import { describe, expect, it } from 'vitest';
import { defaultImageJobConcurrency, ImageJobs } from '../../server/textures/image-jobs.ts';

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

describe('ImageJobs', () => {
  it('runs at most `concurrency` jobs at once and counts the waiting ones', async () => {
    const jobs = new ImageJobs(2);
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    let running = 0;
    let most = 0;
    const results = gates.map((gate, index) =>
      jobs.run(async () => {
        running += 1;
        most = Math.max(most, running);
        const value = await gate.promise;
        running -= 1;
        return value + index;
      }),
    );
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
    const jobs = new ImageJobs(1);
    const started: number[] = [];
    const finished: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        jobs.run(async () => {
          started.push(index);
          await new Promise((resolve) => setTimeout(resolve, (6 - index) * 2));
          finished.push(index);
        }),
      ),
    );
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(finished).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("passes a failed job's error to its caller and goes on with the next job", async () => {
    const jobs = new ImageJobs(1);
    const failing = jobs.run(async () => {
      throw new Error('broken image');
    });
    const next = jobs.run(async () => 'done');
    await expect(failing).rejects.toThrow('broken image');
    await expect(next).resolves.toBe('done');
    expect(jobs.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('defaults to one less than the cores, at least one, and refuses a concurrency below one', () => {
    expect(defaultImageJobConcurrency()).toBeGreaterThanOrEqual(1);
    expect(new ImageJobs().concurrency).toBe(defaultImageJobConcurrency());
    expect(() => new ImageJobs(0)).toThrow(/at least 1/);
  });
});
