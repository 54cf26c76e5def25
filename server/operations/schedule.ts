// Runs a job now and then again every interval, never two at once, until stopped (the leftover sweeps of the texture
// store).

/** A running schedule. */
export interface Schedule {
  /** Cancels the next run, asks a run in progress to stop, and resolves once it has. */
  stop(): Promise<void>;
}

/**
 * Starts `job` at once and again `intervalMs` after each run ends; a failed run goes to `onError` and the schedule
 * carries on.
 */
export function startSchedule(
  job: (signal: AbortSignal) => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
): Schedule {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const run = () => {
    running = job(stopping.signal)
      .catch((error: unknown) => {
        if (!stopping.signal.aborted) onError(error);
      })
      .then(() => {
        if (stopping.signal.aborted) return;
        timer = setTimeout(run, intervalMs);
        timer.unref();
      });
  };
  run();

  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
