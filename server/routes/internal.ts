// Calls from the game auth server (bearer AUTH_API_KEY): a player joined, hand out a login code.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issueLoginCode } from '../auth/login-codes.ts';
import { isUsername, normalizeUuid } from '../auth/player-ids.ts';
import { safeEqual } from '../auth/plugin.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { findUser, upsertUser } from '../db/users.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';

const authBody = z.object({
  uuid: z.string().refine((value) => normalizeUuid(value) !== null, { message: 'The uuid must be a player uuid.' }),
  username: z.string().refine(isUsername, { message: 'The username must be 1 to 16 letters, digits or underscores.' }),
});

function checkBearer(request: FastifyRequest, key: string | undefined): void {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!key || !token || !safeEqual(token, key)) throw new HttpError(401, 'A valid API key is required.');
}

/** Registers POST /api/internal/auth. */
export async function internalRoutes(app: FastifyInstance, options: { db: Db; config: Config; bus: InvalidationBus }) {
  const { db, config, bus } = options;

  app.post('/api/internal/auth', async (request) => {
    checkBearer(request, config.authApiKey);
    const body = parseInput(authBody, request.body);
    const uuid = normalizeUuid(body.uuid)!;
    await upsertUser(db, uuid, body.username);
    await bus.publish(uuid);
    const user = await findUser(db, uuid);
    if (user!.banned) return { success: false, banned: true, code: null };
    return { success: true, banned: false, code: await issueLoginCode(db, uuid) };
  });
}
