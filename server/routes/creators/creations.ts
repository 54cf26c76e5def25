// What a player does with a cape from a creator: see its preview, wear it, or share it to the gallery.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { creationShareBodySchema, creationUseBodySchema } from '../../../src/lib/schemas/creators.ts';
import { galleryNewResultSchema } from '../../../src/lib/schemas/gallery.ts';
import { textureHashSchema } from '../../../src/lib/schemas/ids.ts';
import { uploadResultSchema } from '../../../src/lib/schemas/uploads.ts';
import { creatorMessages } from '../../../src/lib/creator-rules.ts';
import { galleryMessages } from '../../../src/lib/gallery-rules.ts';
import { tooManyUploadsMessage } from '../../../src/lib/texture-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import { usableCreation } from '../../creators/usable-creation.ts';
import { createGalleryItem, galleryItemOwner } from '../../gallery/items.ts';
import { checkTitleAndTags } from '../../gallery/title-and-tags.ts';
import { HttpError } from '../../http/errors.ts';
import { sendRefusal } from '../../http/refusal-reply.ts';
import { errorResponses, fileResponse, sendFile, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { textureChangeRoute } from '../../http/texture-change-route.ts';
import { textureUrl } from '../../http/texture-url.ts';
import { perUserRateLimit } from '../../http/user-rate-limit.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** Registers the preview of a cape from a creator, and wearing and sharing it. */
export async function creationRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, intake, creations } = options;

  app.get(
    '/api/gallery/creations/:hash/preview',
    {
      config: { auth: 'session' },
      schema: {
        summary:
          "A creator's cape's 320 x 180 preview (the maker's own creation, or a gallery item the caller may see)",
        params: z.object({ hash: textureHashSchema }),
        response: { 200: fileResponse('image/png', 'The preview'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const access = await creations.access(request.params.hash, user);
      const preview =
        access === 'none' ? null : await creations.preview(request.params.hash, user.uuid, access === 'preview');
      if (!preview) throw new HttpError(404, creatorMessages.expired);
      reply.header('cache-control', 'private, max-age=3600');
      return sendFile(reply, 'image/png', preview);
    },
  );

  textureChangeRoute(app, {
    path: '/api/gallery/creations/use',
    summary: 'Wear a cape from a creator',
    body: creationUseBodySchema,
    answer: uploadResultSchema,
    changesPerTenMinutes: options.config.textureUploadsPerTenMinutes,
    tooManyMessage: tooManyUploadsMessage('cape'),
    change: async (body, request) => {
      const user = await requireUser(request);
      const texture = await usableCreation(options, body.hash, user);
      const worn = await intake.wear({ picture: texture, origin: { source: 'creator' } }, 'cape', user.uuid);
      if ('refusal' in worn) return worn;
      return { success: true as const, cape: textureUrl(options.config.publicBaseUrl, worn.stillHash) };
    },
  });

  app.post(
    '/api/gallery/creations/share',
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit(
          'creation-share',
          options.config.galleryUploadsPerTenMinutes,
          10 * 60_000,
          galleryMessages.tooManyUploads,
        ),
      },
      schema: {
        summary: 'Share a cape from a creator to the gallery',
        body: creationShareBodySchema,
        response: { 200: galleryNewResultSchema, 201: galleryNewResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { hash, title, tags } = request.body;
      await checkTitleAndTags(db, title, tags);
      const texture = await usableCreation(options, hash, user);
      const shared = await intake.share(texture, user.uuid, (picture) =>
        createGalleryItem(db, { ...picture, title, authorUuid: user.uuid, tags }),
      );
      if ('refusal' in shared) return sendRefusal(reply, shared.refusal);
      // The same picture may be a hidden item already (the caller made it too): that is answered as if it were gone.
      if (!shared.created && !(await galleryItemOwner(db, hash))) throw new HttpError(410, creatorMessages.expired);
      return reply.status(shared.created ? 201 : 200).send({ success: true as const, hash, existing: !shared.created });
    },
  );
}
