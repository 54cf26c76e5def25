// Calls from the game auth server (bearer AUTH_API_KEY): a player joined, hand out a login code.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { issueLoginCode } from '../auth/login-codes.ts';
import { isUsername, normalizeUuid } from '../../src/lib/ids.ts';
import { findUser, upsertUser } from '../db/users.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { AppContext } from '../operations/app-context.ts';

const authBody = z.object({
  uuid: z
    .string()
    .refine((value) => normalizeUuid(value) !== null, { message: 'The uuid must be a player uuid.' })
    .meta({ description: 'Player uuid, with or without dashes' }),
  username: z.string().refine(isUsername, { message: 'The username must be 1 to 16 letters, digits or underscores.' }),
});

const authResult = z.object({
  success: z.boolean(),
  banned: z.boolean(),
  code: z
    .string()
    .nullable()
    .meta({ description: 'The 6-digit login code to show the player; null for a banned player' }),
});

/** Registers POST /api/internal/auth. */
export async function gameAuthServerRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, bus } = options;

  app.post(
    '/api/internal/auth',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: 'A player joined the game auth server: register them and hand out a login code',
        body: authBody,
        response: { 200: authResult, ...errorResponses },
      },
    },
    async (request) => {
      const uuid = normalizeUuid(request.body.uuid)!;
      // A new name is a change to the player's mod API answers (they are found by name too); a new account has none
      // yet.
      if (await upsertUser(db, uuid, request.body.username)) await bus.publish(uuid);
      const user = await findUser(db, uuid);
      if (user!.banned) return { success: false, banned: true, code: null };
      return { success: true, banned: false, code: await issueLoginCode(db, uuid) };
    },
  );
}
