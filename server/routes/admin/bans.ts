// The ban list page's calls: the ban reasons, the banned players, a ban and lifting one (audited).
import type { FastifyInstance } from 'fastify';
import {
  adminBanBodySchema,
  adminUuidBodySchema,
  banReasonsSchema,
  paginatedSchema,
  userBanRowSchema,
} from '../../../src/lib/schemas/admin.ts';
import { successSchema } from '../../../src/lib/schemas/common.ts';
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { BAN_REASONS, isBanReason } from '../../../src/lib/ban-reasons.ts';
import { banPage, banPlayer, unbanPlayer } from '../../admin/bans.ts';
import { adminPagedList } from './paged-list.ts';
import { ADMIN_ONLY, refuseAdminAction } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers the ban reasons, the ban list, a ban and an unban. */
export async function adminBanRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;

  app.get(
    '/api/admin/banreasons',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'The reasons a moderator picks from, by key',
        response: { 200: banReasonsSchema, ...errorResponses },
      },
    },
    async () => BAN_REASONS,
  );

  adminPagedList(
    app,
    '/api/admin/bans/user',
    'Banned players, newest ban first',
    paginatedSchema(userBanRowSchema),
    (page, perPage) => banPage(db, page, perPage),
  );

  app.post(
    '/api/admin/user/ban',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'Ban a player: their sessions end, they cannot log in, and the mod API hides their cape and ears',
        body: adminBanBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      if (!isBanReason(request.body.reason))
        throw new HttpError(422, adminMessages.chooseListedReason, { reason: [adminMessages.chooseListedReason] });
      refuseAdminAction(
        await banPlayer(options, moderator, { uuid: request.body.uuid, reasonKey: request.body.reason }),
      );
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/bans/user/delete',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: "Lift a player's ban",
        body: adminUuidBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      refuseAdminAction(await unbanPlayer(options, moderator, request.body.uuid));
      return { success: true as const };
    },
  );
}
