// The registration codes page's call: a player's one-time login code, the account made when needed (audited).
import type { FastifyInstance } from 'fastify';
import { registrationBodySchema, registrationCodeSchema } from '../../../src/lib/schemas/admin.ts';
import { noPlayerCalledMessage } from '../../../src/lib/admin-rules.ts';
import { BANNED_ACCOUNT_MESSAGE } from '../../../src/lib/login-errors.ts';
import { recordAdminAction } from '../../audit/record.ts';
import { ADMIN_ONLY } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { LOGIN_CODE_TTL_MS } from '../../auth/login-codes.ts';
import { requireAdmin } from '../../auth/plugin.ts';
import { issueRegistrationCode, PROFILE_SERVICE_DOWN_MESSAGE } from '../../accounts/registration.ts';
import { HttpError, whenServiceFails } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers POST /api/admin/registration/generate. */
export async function adminRegistrationRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, config, bus } = options;
  app.post(
    '/api/admin/registration/generate',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: "A player's one-time login code (as `cloakroom code` prints it); the account is created when needed",
        body: registrationBodySchema,
        response: { 200: registrationCodeSchema, ...errorResponses },
      },
    },
    async (request) => {
      const moderator = await requireAdmin(request);
      const { username } = request.body;
      const outcome = await issueRegistrationCode(db, config, username, {
        inTransaction: (trx, user) => recordAdminAction(trx, moderator, { action: 'REGISTRATION_CODE', target: user }),
      }).catch(whenServiceFails(PROFILE_SERVICE_DOWN_MESSAGE));
      if (outcome.kind === 'unknown')
        throw new HttpError(404, noPlayerCalledMessage(username), { username: [noPlayerCalledMessage(username)] });
      // A new name is a change to the player's mod API answers (they are found by name too): every process hears of it
      // at once.
      if (outcome.renamed) await bus.publish(outcome.user.uuid);
      if (outcome.kind === 'banned') throw new HttpError(403, BANNED_ACCOUNT_MESSAGE);
      return {
        success: true as const,
        code: outcome.code,
        username: outcome.user.username,
        uuid: outcome.user.uuid,
        expiresInMinutes: LOGIN_CODE_TTL_MS / 60_000,
      };
    },
  );
}
