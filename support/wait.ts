// Waiting for a state in tests and benchmarks: check a condition every few milliseconds until it holds or time runs
// out.

/** How long and how often `waitFor` checks. */
export interface WaitOptions {
  /** Give up after this long (5 s unless told). */
  timeoutMs?: number;
  /** Check this often (every 20 ms unless told). */
  intervalMs?: number;
}

/** Resolves once `condition` holds; throws "Timed out waiting for <what>" when it still does not after the timeout. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  options: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}
