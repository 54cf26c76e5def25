// HTTP errors with Laravel-style bodies (`{error}` or `{message, errors}`), and the app's error handler.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** An error that becomes a response with its status and body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
  }

  /** The response body: `{message, errors}` for field errors, otherwise `{error}`. */
  body(): Record<string, unknown> {
    return this.fieldErrors ? { message: this.message, errors: this.fieldErrors } : { error: this.message };
  }
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

/** The errors of a connection the client closed (a download aborted half-way, a tab closed mid-request). */
const CLIENT_GONE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

/** Whether an error only says that the client went away: nothing went wrong on the server. */
function isClientGone(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): boolean {
  return CLIENT_GONE_CODES.has(error.code ?? '') || request.raw.socket?.destroyed === true || reply.raw.destroyed;
}

/** Sends errors as JSON with the right status; logs server faults (a client that went away is not one) and never leaks a stack trace. */
export function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof HttpError) {
    reply.status(error.statusCode).send(error.body());
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
