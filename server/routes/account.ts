// Account calls (SPEC §7): the game-code login, logout, account deletion and the Microsoft login entry points.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { checkAuthBodySchema, checkAuthResultSchema, deleteAccountBodySchema, successSchema } from '../../src/lib/api-schemas.ts';
import { loginErrorPath } from '../../src/lib/login-errors.ts';
import { isSafeRef } from '../../src/lib/routes.ts';
import { isLoginCode, redeemLoginCode } from '../auth/login-codes.ts';
import { clearSessionCookie, cookieOptions, requireUser } from '../auth/plugin.ts';
import { createSession, endSession, SESSION_COOKIE } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { deleteAccount } from '../accounts.ts';
import { findUser, toApiUser } from '../db/users.ts';
import { HttpError } from '../http/errors.ts';
import { emptyResponse, errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';
import type { WindowCounter } from '../redis/window-counter.ts';
import { loginFailureBudget } from '../auth/login-budget.ts';
import type { LoginResult, Metrics } from '../metrics.ts';
import type { TextureLibrary } from '../textures/library.ts';

/** The message for a wrong, used or expired login code. */
export const WRONG_CODE_MESSAGE = 'That code is incorrect. Please try again.';
/** The message for a banned account. */
export const BANNED_MESSAGE = 'The specified account has been banned for violating our terms of service.';
/** The message when one client has made too many code logins this minute. */
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Wait a minute and try again.';
/** The message when the site as a whole has seen too many wrong codes this minute. */
export const LOGIN_BUDGET_SPENT_MESSAGE = 'Too many wrong codes have been tried on this site in the last minute. Wait a minute and try again.';

/** Registers the /api/account/* calls. */
export async function accountRoutes(
  instance: FastifyInstance,
  options: { db: Db; config: Config; library: TextureLibrary; bus: InvalidationBus; counter: WindowCounter; metrics: Metrics },
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, config, library, bus } = options;
  const countCodeLogin = (result: LoginResult) => options.metrics.countLogin('code', result);
  const sessionLifetimeMs = config.sessionDays * 86400 * 1000;
  const failureBudget = loginFailureBudget(options.counter, config.loginFailuresPerMinute, () =>
    instance.log.warn({ perMinute: config.loginFailuresPerMinute }, 'the failed code login budget is spent: code logins wait for the next minute'),
  );

  app.post(
    '/api/account/checkauth',
    {
      config: {
        rateLimit: {
          max: config.loginAttemptsPerMinute,
          timeWindow: 60_000,
          errorResponseBuilder: () => {
            countCodeLogin('rate_limited');
            return new HttpError(429, TOO_MANY_ATTEMPTS_MESSAGE);
          },
        },
      },
      schema: {
        summary: 'Log in with a 6-digit code from the game auth server (or a registration code)',
        body: checkAuthBodySchema,
        response: { 200: checkAuthResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const ref = isSafeRef(body.ref) ? body.ref : '/';
      if (!isLoginCode(body.code)) {
        countCodeLogin('wrong_code');
        return { success: false as const, msg: WRONG_CODE_MESSAGE };
      }
      if (!(await failureBudget.take())) {
        countCodeLogin('too_many_failures');
        throw new HttpError(429, LOGIN_BUDGET_SPENT_MESSAGE);
      }
      const uuid = await redeemLoginCode(db, body.code);
      const user = uuid ? await findUser(db, uuid) : undefined;
      if (!user) {
        countCodeLogin('wrong_code');
        return { success: false as const, msg: WRONG_CODE_MESSAGE };
      }
      await failureBudget.giveBack();
      if (user.banned) {
        countCodeLogin('banned');
        throw new HttpError(403, BANNED_MESSAGE);
      }
      const token = await createSession(db, user.uuid, sessionLifetimeMs);
      reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true, sessionLifetimeMs / 1000));
      countCodeLogin('ok');
      return { success: true as const, user: toApiUser(user), ref };
    },
  );

  app.post(
    '/api/account/logout',
    { config: { auth: 'session' }, schema: { summary: 'Log out', response: { 200: successSchema, ...errorResponses } } },
    async (request, reply) => {
      await endSession(db, request.cookies[SESSION_COOKIE]!);
      clearSessionCookie(request, reply);
      return { success: true as const };
    },
  );

  app.post(
    '/api/account/delete',
    {
      config: { auth: 'session' },
      schema: {
        summary: 'Delete the account, its textures and gallery uploads',
        body: deleteAccountBodySchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await deleteAccount(db, library, bus, user.uuid);
      clearSessionCookie(request, reply);
      return { success: true as const };
    },
  );

  app.get(
    '/api/account/oauth/redirect',
    {
      schema: {
        summary: "The Microsoft login button's link: on to the Microsoft sign-in page",
        querystring: z.object({ ref: z.string().optional().meta({ description: 'The site path to return to after the login' }) }),
        response: { 302: emptyResponse('Microsoft login is not configured: back to the login page, which says so'), ...errorResponses },
      },
    },
    async (request, reply) => {
      // The site's own login page shows the message in its error box and keeps where the player was going.
      if (!config.microsoftClientId) {
        const ref = isSafeRef(request.query.ref) ? request.query.ref : undefined;
        return reply.redirect(loginErrorPath('microsoft_unavailable', ref), 302);
      }
      throw new HttpError(501, 'Microsoft login is not available yet.');
    },
  );

  app.post(
    '/api/account/oauth/callback',
    {
      schema: {
        summary: 'Finish the Microsoft login with the code the sign-in page returned',
        body: z.object({ code: z.string().optional() }),
        response: { ...errorResponses },
      },
    },
    async () => {
      throw new HttpError(501, 'Microsoft login is not configured on this server.');
    },
  );
}
