// The edit user page's calls: a player's record, and the actions on one player (cache, cape or ears removal, account
// deletion, cape flags), each audited.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  adminDeleteBodySchema,
  adminProfileFlagsBodySchema,
  adminTextureRemovalSchema,
  adminUserRecordSchema,
  adminUuidBodySchema,
} from '../../../src/lib/schemas/admin.ts';
import { successSchema } from '../../../src/lib/schemas/common.ts';
import { usernameField } from '../../../src/lib/schemas/ids.ts';
import { adminMessages, nothingToDeleteMessage } from '../../../src/lib/admin-rules.ts';
import { playerMessages } from '../../../src/lib/player-messages.ts';
import type { Moderator } from '../../audit/record.ts';
import { ADMIN_ONLY } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import {
  adminPlayerRecord,
  deletePlayer,
  refreshPlayerCache,
  removePlayerTexture,
  setCapeFlags,
} from '../../admin/players.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers the edit user page's calls. */
export async function adminPlayerRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus, library, imageJobs, profiles } = options;
  const context = { db, library, bus, imageJobs };

  app.get(
    '/api/admin/user/:username',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: "A player's record for the edit user page",
        params: z.object({ username: usernameField(playerMessages.usernamePattern) }),
        response: { 200: adminUserRecordSchema, ...errorResponses },
      },
    },
    async (request) => {
      const record = await adminPlayerRecord(db, library, profiles, request.params.username);
      if (!record) throw new HttpError(404, playerMessages.unknown);
      return record;
    },
  );

  /**
   * Registers a POST /api/admin/user/... action on one player: 404 for an unknown player, `{success: true}` otherwise.
   */
  const playerAction = <B extends z.ZodType<{ uuid: string }>>(
    path: string,
    summary: string,
    body: B,
    act: (moderator: Moderator, uuid: string) => Promise<boolean>,
  ) =>
    app.post(
      path,
      { config: ADMIN_ONLY, schema: { summary, body, response: { 200: successSchema, ...errorResponses } } },
      async (request) => {
        const moderator = await requireAdmin(request);
        if (!(await act(moderator, (request.body as { uuid: string }).uuid)))
          throw new HttpError(404, playerMessages.unknown);
        return { success: true as const };
      },
    );

  playerAction(
    '/api/admin/user/cache',
    "Drop every process's cached profile of a player",
    adminUuidBodySchema,
    (moderator, uuid) => refreshPlayerCache(context, moderator, uuid),
  );
  for (const slot of ['cape', 'ears'] as const) {
    app.post(
      `/api/admin/user/${slot}/delete`,
      {
        config: ADMIN_ONLY,
        schema: {
          summary: `Remove a player's ${slot}: it goes on the blocklist and off every player wearing the same picture`,
          body: adminUuidBodySchema,
          response: { 200: adminTextureRemovalSchema, ...errorResponses },
        },
      },
      async (request) => {
        const moderator = await requireAdmin(request);
        const removed = await removePlayerTexture(context, moderator, request.body.uuid, slot);
        if (removed === 'unknown') throw new HttpError(404, playerMessages.unknown);
        if (removed === 'nothing') throw new HttpError(422, nothingToDeleteMessage(slot));
        return { success: true as const, players: removed.players };
      },
    );
  }
  playerAction(
    '/api/admin/user/delete',
    "Delete a player's account and everything it owns",
    adminDeleteBodySchema,
    (moderator, uuid) => deletePlayer(context, moderator, uuid),
  );

  app.post(
    '/api/admin/user/profile',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: "Set a player's cape flags (animatedCape, capeGlint, upsideDown); only for a player who wears a cape",
        body: adminProfileFlagsBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { uuid, ...flags } = request.body;
      const refusal = await setCapeFlags(context, moderator, uuid, flags);
      if (refusal === 'unknown') throw new HttpError(404, playerMessages.unknown);
      if (refusal === 'no-cape') throw new HttpError(422, adminMessages.noCapeForFlags);
      return { success: true as const };
    },
  );
}
