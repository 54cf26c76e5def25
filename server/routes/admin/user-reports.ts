// The player reports page's calls: the open reports, and a moderator's answer to one (audited).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { reportActionBodySchema, userReportRowSchema } from '../../../src/lib/schemas/admin.ts';
import { successSchema } from '../../../src/lib/schemas/common.ts';
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { isBanReason } from '../../../src/lib/ban-reasons.ts';
import { ADMIN_ONLY, refuseAdminAction } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { answerUserReport, openUserReports } from '../../admin/user-reports.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET and POST /api/admin/reports/user. */
export async function adminUserReportRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus, library, imageJobs } = options;
  const context = { db, library, bus, imageJobs };

  app.get(
    '/api/admin/reports/user',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'Open player reports, oldest first, with the reported textures as they were',
        response: { 200: z.array(userReportRowSchema), ...errorResponses },
      },
    },
    async () => openUserReports(context),
  );

  app.post(
    '/api/admin/reports/user',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'Answer a player report: IGNORE, REMOVE (with a reason) or BAN (with a reason)',
        body: reportActionBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { id, action, reason } = request.body;
      if (action === 'WHITELIST')
        throw new HttpError(422, adminMessages.onlyGalleryWhitelist, { action: [adminMessages.onlyGalleryWhitelist] });
      if (action !== 'IGNORE' && !(reason && isBanReason(reason)))
        throw new HttpError(422, adminMessages.chooseReason, { reason: [adminMessages.chooseReason] });
      refuseAdminAction(
        await answerUserReport(context, moderator, { id, action, reasonKey: action === 'IGNORE' ? null : reason! }),
      );
      return { success: true as const };
    },
  );
}
