// The gallery reports page's calls: the reports of gallery textures, and a moderator's answer to one (audited).
import type { FastifyInstance } from 'fastify';
import { galleryReportRowSchema, paginatedSchema, reportActionBodySchema } from '../../../src/lib/schemas/admin.ts';
import { successSchema } from '../../../src/lib/schemas/common.ts';
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { isBanReason } from '../../../src/lib/ban-reasons.ts';
import { adminPagedList } from './paged-list.ts';
import { ADMIN_ONLY, refuseAdminAction } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { answerGalleryReport, galleryReportPage } from '../../admin/gallery-reports.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET and POST /api/admin/reports/gallery. */
export async function adminGalleryReportRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus, library, imageJobs } = options;
  const context = { db, library, bus, imageJobs };

  adminPagedList(
    app,
    '/api/admin/reports/gallery',
    'Reports of gallery textures, oldest first',
    paginatedSchema(galleryReportRowSchema),
    (page, perPage) => galleryReportPage(context, page, perPage),
  );

  app.post(
    '/api/admin/reports/gallery',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'Answer a gallery report: IGNORE, REMOVE (with a reason), BAN the author (with a reason) or WHITELIST',
        body: reportActionBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { id, action, reason } = request.body;
      const needsReason = action === 'REMOVE' || action === 'BAN';
      if (needsReason && !(reason && isBanReason(reason)))
        throw new HttpError(422, adminMessages.chooseReason, { reason: [adminMessages.chooseReason] });
      refuseAdminAction(
        await answerGalleryReport(context, moderator, { id, action, reasonKey: needsReason ? reason! : null }),
      );
      return { success: true as const };
    },
  );
}
