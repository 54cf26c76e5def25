// The cape creators' schemas: a creation, wearing and sharing it, and the AI cape creator's calls.
import { z } from 'zod';
import { galleryTagsFieldSchema } from './gallery';
import { textureHashSchema } from './ids';
import { uploadNoticeSchema } from './uploads';

/** A cape a creator made (answered as JSON when the call asks for it, else the PNG itself). */
export const creationSchema = z
  .object({
    success: z.literal(true),
    hash: textureHashSchema.meta({ description: "The texture: an animation's strip, otherwise the still cape" }),
    cape: z.string().meta({ description: 'URL of the cape texture (the strip of an animation)' }),
    preview: z.string().meta({ description: 'URL of the 320 x 180 preview' }),
    width: z.number().int(),
    height: z.number().int(),
    frames: z.number().int(),
    notice: uploadNoticeSchema,
  })
  .meta({ id: 'Creation' });
/** POST /api/gallery/creations/use: the creation to wear as the cape. */
export const creationUseBodySchema = z.object({ hash: textureHashSchema });
/** POST /api/gallery/creations/share: the creation with the gallery item's title and tags. */
export const creationShareBodySchema = z.object({
  hash: textureHashSchema,
  title: z.string(),
  tags: galleryTagsFieldSchema,
});
/** POST /api/gallery/ai-cape-creator: the prompt (at most 50 characters). */
export const aiPromptBodySchema = z.object({ prompt: z.string().max(500) });
/** GET /api/gallery/ai-cape-creator: which image maker makes the AI capes. */
export const aiProviderSchema = z.object({ name: z.string(), builtIn: z.boolean() }).meta({ id: 'AiProvider' });
