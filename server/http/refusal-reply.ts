// How a refusal is answered by a route, in the shape the route answers in (its status and API body: refusalError).
import type { FastifyReply } from 'fastify';
import type { Refusal } from '../../src/lib/refusals.ts';
import { refusalError } from './errors.ts';

/**
 * The shape of a route's answers: `error` is the API's (`{error}`, or `{message, errors}` with field messages);
 * `upload` is the cape and ears uploads' `{success: false, msg}` for a refusal of the file, while the limits on image
 * work (429, 503) are answered in the API's shape there too.
 */
export type RefusalShape = 'error' | 'upload';

/** Answers a refusal with its status, in the route's shape. */
export function sendRefusal(reply: FastifyReply, refusal: Refusal, shape: RefusalShape = 'error'): FastifyReply {
  const error = refusalError(refusal);
  const ofTheFile = error.statusCode === 413 || error.statusCode === 422;
  const body = shape === 'upload' && ofTheFile ? { success: false, msg: refusal.message } : error.body();
  return reply.status(error.statusCode).send(body);
}
