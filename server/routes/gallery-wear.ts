// "Wear this" on a gallery item: POST /api/gallery/wear puts a listed item's cape or ears on the player.
import type { FastifyInstance } from 'fastify';
import { galleryMessages } from '../../src/lib/gallery-rules.ts';
import { galleryHashBodySchema, galleryWearResultSchema } from '../../src/lib/schemas/gallery.ts';
import { requireUser } from '../auth/plugin.ts';
import { wearGalleryItem } from '../gallery/wear.ts';
import { HttpError } from '../http/errors.ts';
import { sendRefusal } from '../http/refusal-reply.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { textureUrl } from '../http/texture-url.ts';
import { textureChangeRateLimit } from '../http/user-rate-limit.ts';
import type { AppContext } from '../operations/app-context.ts';

/**
 * Registers POST /api/gallery/wear, counted against the player's one budget of texture changes
 * (TEXTURE_UPLOADS_PER_10_MINUTES per 10 minutes, shared with uploads: a wear changes the cape as an upload does).
 */
export async function galleryWearRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/gallery/wear',
    {
      config: {
        auth: 'session',
        oauthScope: 'wardrobe:write',
        rateLimit: textureChangeRateLimit(options.config.textureUploadsPerTenMinutes, galleryMessages.tooManyWears),
      },
      schema: {
        summary: 'Wear a gallery item: its cape or ears become the player’s, as an upload of the same picture would',
        body: galleryHashBodySchema,
        response: { 200: galleryWearResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const worn = await wearGalleryItem(options, request.body.hash, user.uuid);
      if (!worn) throw new HttpError(404, galleryMessages.noSuchTexture);
      if ('refusal' in worn) return sendRefusal(reply, worn.refusal);
      return {
        success: true as const,
        slot: worn.slot,
        url: textureUrl(options.config.publicBaseUrl, worn.stillHash),
        wears: worn.wears,
      };
    },
  );
}
