// The audit log page's call: the audited actions, newest first, each with who did it and what they are, narrowed by
// who acted or by player.
import type { FastifyInstance } from 'fastify';
import { auditQuerySchema, auditRowSchema, paginatedSchema } from '../../../src/lib/schemas/admin.ts';
import { auditPage } from '../../audit/read.ts';
import { ADMIN_ONLY, ADMIN_PAGE_SIZE } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { paginate } from '../../http/pagination.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET /api/admin/audit. */
export async function adminAuditRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;
  app.get(
    '/api/admin/audit',
    {
      config: ADMIN_ONLY,
      schema: {
        summary:
          'The audit log, newest first, each action with who did it and what they are (`actor_kind`); `admin` (who acted) and `player` (a name or a uuid) narrow it',
        querystring: auditQuerySchema,
        response: { 200: paginatedSchema(auditRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { page, admin, player } = request.query;
      const { rows, total } = await auditPage(db, { admin, player }, page, ADMIN_PAGE_SIZE);
      const filters = new URLSearchParams({ ...(admin ? { admin } : {}), ...(player ? { player } : {}) }).toString();
      const result = paginate(rows, page, ADMIN_PAGE_SIZE, total, '/api/admin/audit');
      // The pager's links keep the filters.
      return filters
        ? { ...result, links: result.links.map((link) => ({ ...link, url: link.url && `${link.url}&${filters}` })) }
        : result;
    },
  );
}
