// The gallery whitelist page's calls: the textures staff marked safe, and taking the mark back (audited).
import type { FastifyInstance } from 'fastify';
import { paginatedSchema, whitelistRowSchema } from '../../../src/lib/schemas/admin.ts';
import { successSchema } from '../../../src/lib/schemas/common.ts';
import { galleryHashBodySchema } from '../../../src/lib/schemas/gallery.ts';
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { adminPagedList } from './paged-list.ts';
import { ADMIN_ONLY } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { removeFromWhitelist, whitelistPage } from '../../admin/whitelist.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET /api/admin/gallery/whitelist and its delete. */
export async function adminWhitelistRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;

  adminPagedList(
    app,
    '/api/admin/gallery/whitelist',
    'Gallery textures marked safe by staff (they cannot be reported), newest first',
    paginatedSchema(whitelistRowSchema),
    (page, perPage) => whitelistPage(db, page, perPage),
  );

  app.post(
    '/api/admin/gallery/whitelist/delete',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'Take a texture off the whitelist, so players can report it again',
        body: galleryHashBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      if (!(await removeFromWhitelist(db, moderator, request.body.hash)))
        throw new HttpError(404, adminMessages.notWhitelisted);
      return { success: true as const };
    },
  );
}
