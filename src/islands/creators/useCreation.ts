// A creator's request cycle: every settings change sends a new request and sets the loading flag;
// a newer change cancels the older request; a failure marks the cape invalid with the message the creator shows, except
// that an outside service's failure always shows the server's message naming that service.
import { useEffect, useRef, useState } from 'react';
import { describeApiError, type ErrorDisplay } from '../../lib/client/api-errors';
import { OUTSIDE_SERVICE_FAILED_STATUS } from '../../lib/outside-service';
import { CreationFailed, type Creation } from './creator-api';

/** Makes a cape; the signal aborts it when the settings change again. */
export type MakeCreation = (signal: AbortSignal, onProgress: (fraction: number) => void) => Promise<Creation>;

/**
 * What a failure shows: the server's message, nothing (the loading just stops), or a fixed message (an outside
 * service's failure shows the server's message whatever the choice).
 */
export type FailureDisplay = 'server-message' | 'silent' | { message: string };

/** The creator's state: idle (nothing asked yet), loading, ready (a cape) or invalid (the last request failed). */
export interface CreationState {
  status: 'idle' | 'loading' | 'ready' | 'invalid';
  /** The last cape made (kept while a new one loads). */
  creation: Creation | null;
  error: ErrorDisplay | null;
  /** Upload progress (0..1) while a picture is sent, else null. */
  progress: number | null;
}

/** The message for a failed request, by the creator's failure display. */
function failureMessage(error: unknown, display: FailureDisplay): ErrorDisplay | null {
  if (error instanceof CreationFailed && error.status === OUTSIDE_SERVICE_FAILED_STATUS) {
    const named = describeApiError(error.body, '');
    if (named.kind === 'fields' || named.message !== '') return named;
  }
  if (display === 'silent') return null;
  if (display !== 'server-message') return { kind: 'message', message: display.message };
  if (error instanceof CreationFailed) {
    if (error.status === 0) return { kind: 'message', message: 'The server could not be reached. Try again.' };
    if (error.status === 429) return describeApiError(error.body, 'Too many cape requests. Try again in a minute.');
    return describeApiError(error.body);
  }
  return { kind: 'message', message: 'Something went wrong' };
}

/** Runs `make` whenever `key` changes (after `debounceMs`); a null key (settings incomplete) goes back to idle. */
export function useCreation(
  key: string | null,
  make: MakeCreation,
  failure: FailureDisplay,
  debounceMs = 0,
): CreationState {
  const [state, setState] = useState<CreationState>({ status: 'idle', creation: null, error: null, progress: null });
  // The latest callbacks and settings, read when a request starts (only a new key starts one).
  const latest = useRef({ make, failure, debounceMs });
  useEffect(() => {
    latest.current = { make, failure, debounceMs };
  });

  useEffect(() => {
    if (key === null) {
      setState((previous) => ({
        ...previous,
        status: previous.creation ? 'ready' : 'idle',
        error: null,
        progress: null,
      }));
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ ...previous, status: 'loading', error: null, progress: null }));
    const { failure: display, debounceMs: delay } = latest.current;
    const timer = window.setTimeout(() => {
      latest.current
        .make(
          controller.signal,
          (fraction) => !controller.signal.aborted && setState((previous) => ({ ...previous, progress: fraction })),
        )
        .then(
          (creation) =>
            !controller.signal.aborted && setState({ status: 'ready', creation, error: null, progress: null }),
        )
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState((previous) => ({
            ...previous,
            status: 'invalid',
            error: failureMessage(error, display),
            progress: null,
          }));
        });
    }, delay);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  return state;
}
