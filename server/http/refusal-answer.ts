// How a refusal is answered over HTTP, in one place: its status by its reason, and its body in the shape the route
// answers in.
import type { FastifyReply } from 'fastify';
import type { Refusal, RefusalReason } from '../../src/lib/refusals.ts';
import { HttpError } from './errors.ts';

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

/**
 * The shape of a route's answers: `error` is the API's (`{error}`, or `{message, errors}` with field messages);
 * `upload` is the cape and ears uploads' `{success: false, msg}` for a refusal of the file, while the limits on image
 * work (429, 503) are answered in the API's shape there too.
 */
export type RefusalShape = 'error' | 'upload';

/** The error that answers a refusal: its status, message and field messages, carrying its reason code. */
export function refusalError(refusal: Refusal): HttpError {
  return new HttpError(REFUSAL_STATUS[refusal.reason], refusal.message, refusal.fields, { reason: refusal.reason });
}

/** Answers a refusal with its status, in the route's shape. */
export function sendRefusal(reply: FastifyReply, refusal: Refusal, shape: RefusalShape = 'error'): FastifyReply {
  const error = refusalError(refusal);
  const ofTheFile = error.statusCode === 413 || error.statusCode === 422;
  const body = shape === 'upload' && ofTheFile ? { success: false, msg: refusal.message } : error.body();
  return reply.status(error.statusCode).send(body);
}

/** The refusal a thrown error carries (one made by refusalError), or null for any other error. */
export function refusalCarriedBy(error: unknown): Refusal | null {
  if (!(error instanceof HttpError) || error.reason === undefined) return null;
  return { reason: error.reason, message: error.message, ...(error.fieldErrors ? { fields: error.fieldErrors } : {}) };
}
