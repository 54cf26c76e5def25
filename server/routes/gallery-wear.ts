// "Wear this" on a gallery item: POST /api/gallery/wear puts a listed item's cape or ears on the player.
import type { FastifyInstance } from 'fastify';
import { galleryMessages } from '../../src/lib/gallery-rules.ts';
import { galleryHashBodySchema, galleryWearResultSchema } from '../../src/lib/schemas/gallery.ts';
import { requireUser } from '../auth/plugin.ts';
import { wearGalleryItem } from '../gallery/wear.ts';
import { HttpError } from '../http/errors.ts';
import { textureChangeRoute } from '../http/texture-change-route.ts';
import { textureUrl } from '../http/texture-url.ts';
import type { AppContext } from '../operations/app-context.ts';

/**
 * Registers POST /api/gallery/wear, counted against the player's one budget of texture changes
 * (TEXTURE_UPLOADS_PER_10_MINUTES per 10 minutes, shared with uploads: a wear changes the cape as an upload does).
 */
export async function galleryWearRoutes(instance: FastifyInstance, options: AppContext) {
  textureChangeRoute(instance, {
    path: '/api/gallery/wear',
    summary: 'Wear a gallery item: its cape or ears become the player’s, as an upload of the same picture would',
    body: galleryHashBodySchema,
    answer: galleryWearResultSchema,
    oauthScope: 'wardrobe:write',
    changesPerTenMinutes: options.config.textureUploadsPerTenMinutes,
    tooManyMessage: galleryMessages.tooManyWears,
    change: async (body, request) => {
      const user = await requireUser(request);
      const worn = await wearGalleryItem(options, body.hash, user.uuid);
      if (!worn) throw new HttpError(404, galleryMessages.noSuchTexture);
      if ('refusal' in worn) return worn;
      return {
        success: true as const,
        slot: worn.slot,
        url: textureUrl(options.config.publicBaseUrl, worn.stillHash),
        wears: worn.wears,
      };
    },
  });
}
