// Why an upload or a made texture was refused: the short, stable reason codes (the metrics count refusals by them) and
// a refusal, which carries its code beside the message the user sees.

/** Every reason a texture can be refused for. */
export type RefusalReason =
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
  | 'invalid_title';

/** A refusal: why (its reason code) and what the user is told. */
export interface Refusal {
  reason: RefusalReason;
  message: string;
}

/** The message of a refusal, or null when nothing was refused. */
export function messageOf(refusal: Refusal | null): string | null {
  return refusal?.message ?? null;
}
