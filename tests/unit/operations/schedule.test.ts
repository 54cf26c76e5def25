// startSchedule (the server's leftover sweeps): a run at once, the next one an interval after it ends, errors reported,
// stop waits.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSchedule } from '../../../server/operations/schedule.ts';

const MINUTE = 60_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startSchedule', () => {
  it('runs at once, then every interval after the previous run ends, and keeps going after a failed run', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const schedule = startSchedule(
      async () => {
        runs++;
        if (runs === 2) throw new Error('store unreachable');
      },
      60 * MINUTE,
      (error) => errors.push(error),
    );
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(59 * MINUTE);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(runs).toBe(2);
    expect(errors).toEqual([new Error('store unreachable')]);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(runs).toBe(3);
    await schedule.stop();
    await vi.advanceTimersByTimeAsync(120 * MINUTE);
    expect(runs).toBe(3);
  });

  it('never starts a run while one is in progress; stop asks it to end and waits for it', async () => {
    let runs = 0;
    let finished = false;
    const schedule = startSchedule(
      async (signal) => {
        runs++;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        finished = true;
        signal.throwIfAborted();
      },
      MINUTE,
      () => expect.unreachable('a stopped run is not a failure'),
    );
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(runs).toBe(1);
    await schedule.stop();
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(runs).toBe(1);
  });
});
