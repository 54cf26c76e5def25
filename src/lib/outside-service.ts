// How the API says that a call failed because an outside service it needed (the player service, the OptiFine cape
// server, the images API) failed or could not be reached: that status, with an `{error}` naming the service. The
// error such a failure is thrown as lives here too, so the server's error handler maps it without importing the
// outside fetch (server/integrations/outside-fetch.ts), which throws it.

/** The status of an answer that failed because an outside service failed or could not be reached. */
export const OUTSIDE_SERVICE_FAILED_STATUS = 502;

/** Why an outside call failed. */
export type OutsideFailure = 'unreachable' | 'timeout' | 'too long' | 'status' | 'body' | 'address';

/**
 * An outside service failed: `service` names it and `detail` says how (status, body excerpt), both for the log only.
 */
export class OutsideServiceError extends Error {
  constructor(
    readonly service: string,
    readonly failure: OutsideFailure,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${service}: ${detail}`, options);
    this.name = 'OutsideServiceError';
  }
}
