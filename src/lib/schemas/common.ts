// The schemas every API feature shares: error bodies, `{success: true}`, a page number and a report's reason fields.
import { z } from 'zod';
import { isBanReason } from '../ban-reasons';
import { REPORT_NOTE_MAX, reportMessages } from '../report-rules';

/** A refusal with one message (`{error}`), the usual error body. */
export const errorBodySchema = z
  .object({ error: z.string() })
  .meta({ id: 'Error', description: 'A refusal with one message' });
/** A Laravel-style validation refusal: the first message, and every message by field. */
const validationErrorBodySchema = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({
    id: 'ValidationError',
    description: 'Field errors (422): the first message, and the messages of each field',
  });
/** Any error body the API sends. */
export const anyErrorBodySchema = z
  .union([errorBodySchema, validationErrorBodySchema])
  .meta({ description: 'Refused: `{error}`, or field errors for invalid input (422)' });
/** `{success: true}`, the answer of calls that only act. */
export const successSchema = z.object({ success: z.literal(true) });

/** A page number query value (from 1). */
export const pageSchema = z.coerce.number().int().min(1).max(100_000).default(1);

/** A report's reason (a ban reason key) and optional note (trimmed; empty is none), as the report forms send them. */
export const reportReasonFields = {
  reason: z
    .string({ message: reportMessages.missingReason })
    .refine(isBanReason, { message: reportMessages.unknownReason }),
  note: z
    .string()
    .trim()
    .max(REPORT_NOTE_MAX, { message: reportMessages.noteTooLong })
    .nullish()
    .transform((note) => note || null),
};
