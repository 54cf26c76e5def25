// The site-wide budget of failed code logins per minute: per-address limits do not stop a guesser spread over many
// addresses, this does. Once a minute's budget is spent, every code login waits for the next minute, right codes too:
// a right code can only be told from a wrong one by checking it, and checking it is what a guesser wants.
import type { WindowCounter } from '../redis/window-counter.ts';

const WINDOW_MS = 60_000;
const KEY = 'login-failures';

/** Failed code logins across all clients, in one-minute windows. */
export interface LoginFailureBudget {
  /** Takes one attempt from the budget; false when the minute's budget is spent (the attempt must not be checked). */
  take(): Promise<boolean>;
  /** Gives back an attempt that turned out to be a right code. */
  giveBack(): Promise<void>;
}

/** The budget of `perMinute` failed attempts, counted by `counter` (shared through Redis when configured). */
export function loginFailureBudget(counter: WindowCounter, perMinute: number, onSpent: () => void): LoginFailureBudget {
  return {
    async take() {
      const { current } = await counter.increment(KEY, WINDOW_MS);
      if (current === perMinute + 1) onSpent();
      return current <= perMinute;
    },
    giveBack: () => counter.decrement(KEY),
  };
}
