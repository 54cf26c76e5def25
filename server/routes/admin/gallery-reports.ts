// The gallery reports page's calls: the reports of gallery textures, and a moderator's answer to one (audited).
import type { FastifyInstance } from 'fastify';
import { galleryReportRowSchema, paginatedSchema, reportActionBodySchema } from '../../../src/lib/schemas/admin.ts';
import { successSchema } from '../../../src/lib/schemas/common.ts';
import { pageQuerySchema } from '../../../src/lib/schemas/gallery.ts';
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { isBanReason } from '../../../src/lib/ban-reasons.ts';
import { ADMIN_ONLY, ADMIN_PAGE_SIZE, refuseAdminAction } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { answerGalleryReport, galleryReportPage } from '../../admin/gallery-reports.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { paginate } from '../../http/pagination.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET and POST /api/admin/reports/gallery. */
export async function adminGalleryReportRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus, library, imageJobs } = options;
  const context = { db, library, bus, imageJobs };

  app.get(
    '/api/admin/reports/gallery',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'Reports of gallery textures, oldest first',
        querystring: pageQuerySchema,
        response: { 200: paginatedSchema(galleryReportRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { rows, total } = await galleryReportPage(context, request.query.page, ADMIN_PAGE_SIZE);
      return paginate(rows, request.query.page, ADMIN_PAGE_SIZE, total, '/api/admin/reports/gallery');
    },
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
