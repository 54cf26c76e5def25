// Account calls (SPEC §7): the game-code login, logout, account deletion and the Microsoft login entry points.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isSafeRef } from '../../src/lib/routes.ts';
import { isLoginCode, redeemLoginCode } from '../auth/login-codes.ts';
import { clearSessionCookie, cookieOptions, requireUser } from '../auth/plugin.ts';
import { createSession, endSession, SESSION_COOKIE } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { deleteAccount } from '../accounts.ts';
import { findUser, toApiUser } from '../db/users.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { renderMessagePage } from '../http/message-page.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';
import type { TextureLibrary } from '../textures/library.ts';

/** The message for a wrong, used or expired login code. */
export const WRONG_CODE_MESSAGE = 'That code is incorrect. Please try again.';
/** The message for a banned account. */
export const BANNED_MESSAGE = 'The specified account has been banned for violating our terms of service.';

const checkAuthBody = z.object({ code: z.unknown(), ref: z.unknown().optional() });
const deleteBody = z.object({
  confirm: z.union([z.literal(true), z.literal('true'), z.literal('1'), z.literal(1), z.literal('on')], {
    message: 'Tick the box to confirm that you want to delete your account.',
  }),
});

/** Registers the /api/account/* calls. */
export async function accountRoutes(app: FastifyInstance, options: { db: Db; config: Config; library: TextureLibrary; bus: InvalidationBus }) {
  const { db, config, library, bus } = options;
  const sessionLifetimeMs = config.sessionDays * 86400 * 1000;

  app.post(
    '/api/account/checkauth',
    {
      config: {
        rateLimit: {
          max: config.loginAttemptsPerMinute,
          timeWindow: 60_000,
          errorResponseBuilder: () => new HttpError(429, 'Too many attempts. Wait a minute and try again.'),
        },
      },
    },
    async (request, reply) => {
      const body = parseInput(checkAuthBody, request.body);
      const ref = isSafeRef(body.ref) ? body.ref : '/';
      const uuid = isLoginCode(body.code) ? await redeemLoginCode(db, body.code) : null;
      const user = uuid ? await findUser(db, uuid) : undefined;
      if (!user) return { success: false, msg: WRONG_CODE_MESSAGE };
      if (user.banned) throw new HttpError(403, BANNED_MESSAGE);
      const token = await createSession(db, user.uuid, sessionLifetimeMs);
      reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true, sessionLifetimeMs / 1000));
      return { success: true, user: toApiUser(user), ref };
    },
  );

  app.post('/api/account/logout', async (request, reply) => {
    await requireUser(request);
    await endSession(db, request.cookies[SESSION_COOKIE]!);
    clearSessionCookie(request, reply);
    return { success: true };
  });

  app.post('/api/account/delete', async (request, reply) => {
    const user = await requireUser(request);
    parseInput(deleteBody, request.body);
    await deleteAccount(db, library, bus, user.uuid);
    clearSessionCookie(request, reply);
    return { success: true };
  });

  app.get('/api/account/oauth/redirect', async (_request, reply) => {
    if (!config.microsoftClientId) {
      reply.status(501).type('text/html; charset=utf-8');
      return renderMessagePage({
        siteName: config.siteName,
        title: 'Microsoft login is not available',
        message: 'Microsoft login is not configured on this server yet. You can still log in with a code from the game.',
        linkHref: '/account/login/minecraft',
        linkText: 'Login using Minecraft',
      });
    }
    throw new HttpError(501, 'Microsoft login is not available yet.');
  });

  app.post('/api/account/oauth/callback', async () => {
    throw new HttpError(501, 'Microsoft login is not available.', { code: ['Microsoft login is not configured on this server.'] });
  });
}
