// HTTP errors with Laravel-style bodies (`{error}` or `{message, errors}`), and the app's error handler.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { RefusedError, type Refusal, type RefusalReason } from '../../src/lib/refusals.ts';
import { OUTSIDE_SERVICE_FAILED_STATUS, OutsideServiceError } from '../../src/lib/outside-service.ts';

/** What a visitor is told when an outside service failed and the route has no message of its own for it. */
export const OUTSIDE_SERVICE_MESSAGE = 'A service this site relies on could not be reached. Try again in a minute.';

/** An error that becomes a response with its status and body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The response body: `{message, errors}` for field errors, otherwise `{error}`. */
  body(): Record<string, unknown> {
    return this.fieldErrors ? { message: this.message, errors: this.fieldErrors } : { error: this.message };
  }
}

/**
 * The status of each reason: a file over the size limit is 413, the site's limits on image work 429 (the player's
 * share) or 503 (the site is busy, or the picture took too long), what is worn gone meanwhile 404, anything else about
 * the picture or the form 422.
 */
const REFUSAL_STATUS: Record<RefusalReason, number> = {
  no_file: 422,
  too_big: 413,
  wrong_type: 422,
  invalid_image: 422,
  dimensions: 422,
  too_many_frames: 422,
  blocklisted: 422,
  missing_fields: 422,
  unknown_tag: 422,
  invalid_title: 422,
  rate_limited: 429,
  busy: 503,
  timed_out: 503,
  gone: 404,
};

/** The error that answers a refusal: its status by its reason, its message and field messages. */
export function refusalError(refusal: Refusal): HttpError {
  return new HttpError(REFUSAL_STATUS[refusal.reason], refusal.message, refusal.fields);
}

/** The 422 for input a zod schema refused: every message by field, the first one as the message. */
export function validationError(error: z.ZodError): HttpError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || 'body';
    (errors[field] ??= []).push(issue.message);
  }
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  return new HttpError(422, first, errors);
}

/**
 * Rethrows an outside service's failure as a 502 (OUTSIDE_SERVICE_FAILED_STATUS) with the visitor's `message` (the
 * failure itself goes to the log as a warning); any other error passes on unchanged. For `.catch()` after a call that
 * reaches an outside service.
 */
export function whenServiceFails(message: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof OutsideServiceError)
      throw new HttpError(OUTSIDE_SERVICE_FAILED_STATUS, message, undefined, { cause: error });
    throw error;
  };
}

/** Logs an outside service's failure as a warning: the service and what it did, which the visitor never sees. */
function logServiceFailure(request: FastifyRequest, error: OutsideServiceError): void {
  request.log.warn(
    { service: error.service, failure: error.failure, detail: error.detail },
    'an outside service failed',
  );
}

/** The errors of a connection the client closed (a download aborted half-way, a tab closed mid-request). */
const CLIENT_GONE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
]);

/** Whether an error only says that the client went away: nothing went wrong on the server. */
function isClientGone(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): boolean {
  return CLIENT_GONE_CODES.has(error.code ?? '') || request.raw.socket?.destroyed === true || reply.raw.destroyed;
}

/**
 * Sends errors as JSON with the right status (a refusal thrown as a RefusedError by its reason); logs server faults (a
 * client that went away is not one) and never leaks a stack trace.
 */
export function handleError(
  thrown: FastifyError | HttpError | OutsideServiceError | RefusedError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const error = thrown instanceof RefusedError ? refusalError(thrown.refusal) : thrown;
  if (error instanceof HttpError) {
    if (error.cause instanceof OutsideServiceError) logServiceFailure(request, error.cause);
    reply.status(error.statusCode).send(error.body());
    return;
  }
  if (error instanceof OutsideServiceError) {
    logServiceFailure(request, error);
    reply.status(OUTSIDE_SERVICE_FAILED_STATUS).send({ error: OUTSIDE_SERVICE_MESSAGE });
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 500 && isClientGone(error, request, reply)) {
    request.log.info({ code: error.code }, 'the client closed the connection');
    if (!reply.raw.destroyed) reply.status(500).send({ error: 'Something went wrong' });
    return;
  }
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    reply.status(500).send({ error: 'Something went wrong' });
    return;
  }
  reply.status(status).send({ error: error.message });
}
