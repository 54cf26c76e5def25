// The registered apps page's calls: the apps that may sign players in with a code, and removing one (audited), which
// ends every connection players made with it.
import type { FastifyInstance } from 'fastify';
import { appClientBodySchema, appClientPageSchema, appClientRemovalSchema } from '../../../src/lib/schemas/admin.ts';
import { appClientPage, removeAppClient } from '../../auth/app-clients.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { adminPagedList } from './paged-list.ts';
import { ADMIN_ONLY } from './shared.ts';

/** Registers GET /api/admin/oauth-clients and its delete. */
export async function adminAppClientRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;

  adminPagedList(
    app,
    '/api/admin/oauth-clients',
    'The apps registered to sign players in with a code, newest first, with their connections',
    appClientPageSchema,
    (page, perPage) => appClientPage(db, page, perPage),
  );

  app.post(
    '/api/admin/oauth-clients/delete',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: "Remove an app: every player's connection with it ends, and it can no longer sign anyone in",
        body: appClientBodySchema,
        response: { 200: appClientRemovalSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const removed = await removeAppClient(db, request.body.clientId, moderator);
      if (!removed) throw new HttpError(404, 'No app is registered with that client_id.');
      return { success: true as const, connections: removed.connections };
    },
  );
}
