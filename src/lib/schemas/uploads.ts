// The cape and ears upload schemas: what an upload answers, or the texture rules' refusal.
import { z } from 'zod';

/** What was changed to make an upload fit (an animation scaled down or cut), when anything was. */
export const uploadNoticeSchema = z.string().optional().meta({
  description: 'What was changed to make the upload fit (an animation scaled down or cut), when anything was',
});
/** What a cape or ears upload or removal answers: the new image URL (null after a removal) and any notice. */
export const uploadResultSchema = z.union([
  z.object({ success: z.literal(true), cape: z.string().nullable(), notice: uploadNoticeSchema }),
  z.object({ success: z.literal(true), ears: z.string().nullable(), notice: uploadNoticeSchema }),
]);
/**
 * What an upload to one slot (cape or ears) or its removal answers: that slot's image URL (null after a removal) and
 * any notice.
 */
function slotResultSchema<Slot extends 'cape' | 'ears'>(slot: Slot) {
  const url = z
    .string()
    .nullable()
    .meta({ description: `The ${slot} texture URL, or null once removed` });
  return z.object({
    success: z.literal(true),
    ...({ [slot]: url } as Record<Slot, typeof url>),
    notice: uploadNoticeSchema,
  });
}
/** What POST and DELETE /api/upload-cape and /api/upload-ears answer, by slot. */
export const slotResultSchemas = { cape: slotResultSchema('cape'), ears: slotResultSchema('ears') };
/** An upload the texture rules refused: `success: false` and the failed rule's message. */
export const uploadRefusalSchema = z
  .object({ success: z.literal(false), msg: z.string() })
  .meta({ id: 'UploadRefusal' });
