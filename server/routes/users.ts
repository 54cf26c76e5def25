// Player lookup and player reports: GET /api/user/search/{id}, POST /api/user/report.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { successSchema } from '../../src/lib/schemas/common.ts';
import { playerIdSchema } from '../../src/lib/schemas/ids.ts';
import { playerLookupSchema, userReportBodySchema } from '../../src/lib/schemas/players.ts';
import { playerMessages } from '../../src/lib/player-messages.ts';
import { reportMessages } from '../../src/lib/report-rules.ts';
import type { ModProfile } from '../../src/lib/schemas/types.ts';
import { requireUser } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import { findUser } from '../db/users.ts';
import { HttpError } from '../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { perUserRateLimit } from '../http/user-rate-limit.ts';
import { parsePlayerId } from '../mod/profiles.ts';
import { reportPlayer, type ReportRefusal } from '../users/reports.ts';
import type { AppContext } from '../operations/app-context.ts';

/** How many players one player may report in ten minutes. */
const REPORTS_PER_10_MINUTES = 10;

const REFUSALS: Record<ReportRefusal, { status: number; message: string }> = {
  unknown: { status: 404, message: playerMessages.unknown },
  self: { status: 422, message: reportMessages.reportSelf },
  duplicate: { status: 422, message: reportMessages.duplicate },
};

/** The uuid of the registered player a name or uuid names (the newest account holding a name), or null. */
async function findPlayerUuid(db: Db, id: string): Promise<string | null> {
  const parsed = parsePlayerId(id);
  if (!parsed) return null;
  const row = await db
    .selectFrom('users')
    .select('uuid')
    .where('uuid' in parsed ? 'uuid' : 'username_lower', '=', 'uuid' in parsed ? parsed.uuid : parsed.username)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.uuid ?? null;
}

/** Registers the player lookup and the player report. */
export async function userRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, profiles } = options;

  app.get(
    '/api/user/search/:id',
    {
      schema: {
        summary: 'Look up a registered player by name (any case) or uuid (with or without dashes)',
        params: z.object({ id: playerIdSchema }),
        response: { 200: playerLookupSchema, ...errorResponses },
      },
    },
    async (request) => {
      const uuid = await findPlayerUuid(db, request.params.id);
      const user = uuid ? await findUser(db, uuid) : undefined;
      const profile = user ? await profiles.get(user.uuid) : null;
      if (!user || !profile) throw new HttpError(404, playerMessages.unknown);
      return {
        uuid: user.uuid,
        username: user.username,
        group: { name: user.group.name, emoji: user.group.emoji },
        premium: user.premium ? { boost_only: user.premium.boost_only } : null,
        // Exactly what the mod API serves for the player (a banned player's textures are hidden there too).
        profile: JSON.parse(profile.json) as ModProfile,
      };
    },
  );

  app.post(
    '/api/user/report',
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit('user-report', REPORTS_PER_10_MINUTES, 10 * 60_000, reportMessages.tooOften),
      },
      schema: {
        summary: 'Report a player to the moderators',
        body: userReportBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const refusal = await reportPlayer(db, user.uuid, request.body.uuid, {
        reasonKey: request.body.reason,
        note: request.body.note,
      });
      if (refusal) throw new HttpError(REFUSALS[refusal].status, REFUSALS[refusal].message);
      return { success: true as const };
    },
  );
}
