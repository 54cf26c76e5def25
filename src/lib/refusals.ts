// Why an upload or a made texture was refused: the short, stable reason codes (the metrics count refusals by them) and
// a refusal, a plain value that carries its code beside the message the user sees, from where it was decided (an image
// worker, the blocklist, the image job queue, a form's check) to the route that answers it.

/** Every reason a texture can be refused for. */
export type RefusalReason =
  | 'no_file'
  | 'too_big'
  | 'wrong_type'
  | 'invalid_image'
  | 'dimensions'
  | 'too_many_frames'
  | 'blocklisted'
  | 'rate_limited'
  | 'busy'
  | 'timed_out'
  | 'missing_fields'
  | 'unknown_tag'
  | 'invalid_title'
  | 'gone';

/** A refusal: why (its reason code), what the user is told and, for a form, the messages by field. */
export interface Refusal {
  reason: RefusalReason;
  message: string;
  fields?: Record<string, string[]>;
}

/** What a step that may refuse answers instead of its result. */
export interface Refused {
  refusal: Refusal;
}

/**
 * A refusal thrown where no value can carry it: out of a database transaction, which it rolls back, or out of a call
 * that answers only its result. The step that began the transaction takes it back as a value (storeAndAssign); the
 * API's error handler answers one that reaches it.
 */
export class RefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'RefusedError';
  }
}

/** The message of a refusal, or null when nothing was refused. */
export function messageOf(refusal: Refusal | null): string | null {
  return refusal?.message ?? null;
}
