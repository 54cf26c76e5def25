// Values that exist only in the browser (the URL, "has the island hydrated"), read without a second render pass:
// the static build renders the server value, the browser its own from the first client render.
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/** A value read from the browser (it must be a primitive or stable); `serverValue` while the page is built. */
export function useClientValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(noSubscription, read, () => serverValue);
}

/** Whether the island runs in the browser and has hydrated (false in the static HTML). */
export function useHydrated(): boolean {
  return useClientValue(() => true, false);
}
