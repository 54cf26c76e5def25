// Account calls: the game-code login, the Microsoft login (redirect and callback), logout and account deletion.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  checkAuthBodySchema,
  checkAuthResultSchema,
  deleteAccountBodySchema,
  loginFailureSchema,
  oauthCallbackBodySchema,
  oauthCallbackResultSchema,
} from '../../src/lib/schemas/account.ts';
import { anyErrorBodySchema, errorBodySchema, successSchema } from '../../src/lib/schemas/common.ts';
import {
  BANNED_ACCOUNT_MESSAGE,
  loginErrorPath,
  MICROSOFT_LOGIN_FAILURES,
  type MicrosoftLoginFailure,
} from '../../src/lib/login-errors.ts';
import { isSafeRef } from '../../src/lib/routes.ts';
import { isLoginCode, redeemLoginCode } from '../auth/login-codes.ts';
import {
  OAUTH_LOGIN_COOKIE,
  OAUTH_LOGIN_COOKIE_PATH,
  OAUTH_LOGIN_TTL_MS,
  savePendingOAuthLogin,
  takePendingOAuthLogin,
} from '../auth/oauth-logins.ts';
import { clearSessionCookie, cookieOptions, requireUser, safeEqual } from '../auth/plugin.ts';
import { createSession, endSession, SESSION_COOKIE } from '../auth/sessions.ts';
import { deleteAccount } from '../accounts/deletion.ts';
import { findUser, recordLogin, toApiUser, upsertUser } from '../db/users.ts';
import { createMicrosoftLogin, MicrosoftLoginError, type GameProfile } from '../integrations/microsoft.ts';
import { HttpError } from '../http/errors.ts';
import { emptyResponse, errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import { loginFailureBudget } from '../auth/login-budget.ts';
import type { LoginResult } from '../operations/metrics.ts';
import type { AppContext } from '../operations/app-context.ts';

/** The message for a wrong, used or expired login code. */
export const WRONG_CODE_MESSAGE = 'That code is incorrect. Please try again.';
/** The message for a banned account. */
export const BANNED_MESSAGE = BANNED_ACCOUNT_MESSAGE;
/** The message when one client has made too many code logins this minute. */
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Wait a minute and try again.';
/** The message when the site as a whole has seen too many wrong codes this minute. */
export const LOGIN_BUDGET_SPENT_MESSAGE =
  'Too many wrong codes have been tried on this site in the last minute. Wait a minute and try again.';

/**
 * The status of each Microsoft login failure: the player's sign-in is stale (400), their account cannot play (403), or
 * a service failed (502).
 */
const MICROSOFT_FAILURE_STATUS: Record<MicrosoftLoginFailure, number> = {
  expired: 400,
  noXboxAccount: 403,
  childAccount: 403,
  xboxUnavailableInRegion: 403,
  adultVerificationNeeded: 403,
  xboxRefused: 403,
  noGame: 403,
  banned: 403,
  unavailable: 502,
};

/**
 * The refusal of a Microsoft login: its status, and its message as the message and under `errors` (what the login page
 * lists).
 */
function microsoftLoginFailure(reason: MicrosoftLoginFailure): HttpError {
  const message = MICROSOFT_LOGIN_FAILURES[reason];
  return new HttpError(MICROSOFT_FAILURE_STATUS[reason], message, { microsoft: [message] });
}

/** Registers the /api/account/* calls. */
export async function accountRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, config, library, bus } = options;
  const countCodeLogin = (result: LoginResult) => options.metrics.countLogin('code', result);
  /** Counts a refused Microsoft login and makes its answer. */
  const refuseMicrosoftLogin = (reason: MicrosoftLoginFailure) => {
    options.metrics.countLogin('microsoft', reason);
    return microsoftLoginFailure(reason);
  };
  const sessionLifetimeMs = config.sessionDays * 86400 * 1000;
  const microsoft = config.microsoft ? createMicrosoftLogin(config.microsoft) : undefined;

  /**
   * Starts a session for a player and sets its cookie (every login ends here); true when it is the account's first
   * login.
   */
  async function startSession(request: FastifyRequest, reply: FastifyReply, uuid: string): Promise<boolean> {
    const token = await createSession(db, uuid, sessionLifetimeMs);
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true, sessionLifetimeMs / 1000));
    return recordLogin(db, uuid);
  }

  /**
   * Each login call's limit a client: as many calls a minute as it may try codes, then 429 with
   * TOO_MANY_ATTEMPTS_MESSAGE (`onRefused` runs on each refusal).
   */
  const loginRateLimit = (onRefused?: () => void) => ({
    max: config.loginAttemptsPerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: () => {
      onRefused?.();
      return new HttpError(429, TOO_MANY_ATTEMPTS_MESSAGE);
    },
  });

  const failureBudget = loginFailureBudget(options.counter, config.loginFailuresPerMinute, () =>
    instance.log.warn(
      { perMinute: config.loginFailuresPerMinute },
      'the failed code login budget is spent: code logins wait for the next minute',
    ),
  );

  app.post(
    '/api/account/checkauth',
    {
      config: {
        rateLimit: loginRateLimit(() => countCodeLogin('rate_limited')),
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
      const firstLogin = await startSession(request, reply, user.uuid);
      countCodeLogin('ok');
      return { success: true as const, user: toApiUser(user), ref, firstLogin };
    },
  );

  app.post(
    '/api/account/logout',
    {
      config: { auth: 'session' },
      schema: { summary: 'Log out', response: { 200: successSchema, ...errorResponses } },
    },
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
      await deleteAccount(db, library, bus, user.uuid, user);
      clearSessionCookie(request, reply);
      return { success: true as const };
    },
  );

  app.get(
    '/api/account/oauth/redirect',
    {
      // Each start keeps a row for 10 minutes: one address starts at most as many logins a minute as it may try codes.
      config: {
        rateLimit: loginRateLimit(),
      },
      schema: {
        summary: "The Microsoft login button's link: on to the Microsoft sign-in page",
        description:
          'Starts an authorization code flow with PKCE (S256): the state, the code verifier and the ref are kept for 10 minutes under a ' +
          'random token in an HttpOnly cookie (`oauth_login`, path /api/account/oauth), and the browser goes to the Microsoft sign-in page, ' +
          'which returns it to the login page with `code` and `state`. Without MICROSOFT_CLIENT_ID: back to the login page, which says so.',
        querystring: z.object({
          ref: z.string().optional().meta({ description: 'The site path to return to after the login' }),
        }),
        response: {
          302: emptyResponse(
            'To the Microsoft sign-in page; or, when Microsoft login is not configured, back to the login page, which says so',
          ),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const ref = isSafeRef(request.query.ref) ? request.query.ref : undefined;
      // The site's own login page shows the message in its error box and keeps where the player was going.
      if (!microsoft) return reply.redirect(loginErrorPath('microsoft_unavailable', ref), 302);
      const login = await microsoft.startLogin();
      const token = await savePendingOAuthLogin(
        db,
        { state: login.state, codeVerifier: login.codeVerifier, ref: ref ?? '/' },
        request.cookies[OAUTH_LOGIN_COOKIE],
      );
      reply.setCookie(OAUTH_LOGIN_COOKIE, token, {
        ...cookieOptions(request, true, OAUTH_LOGIN_TTL_MS / 1000),
        path: OAUTH_LOGIN_COOKIE_PATH,
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(login.url.href, 302);
    },
  );

  app.post(
    '/api/account/oauth/callback',
    {
      config: {
        rateLimit: loginRateLimit(),
      },
      schema: {
        summary: 'Finish the Microsoft login with the code and state the sign-in page returned',
        description:
          'Only in the browser that started the login (its `oauth_login` cookie), once, within 10 minutes. The code is redeemed with the ' +
          'PKCE verifier, then Xbox Live, XSTS and the game services give the player profile; the account is created or renamed and a ' +
          'session starts. Failures: 400 (a wrong, used or expired sign-in), 403 (no Xbox profile, a child account outside a family, no ' +
          'game, banned, and other Xbox refusals), 429, 501 (not configured), 502 (Microsoft or Xbox unreachable).',
        body: oauthCallbackBodySchema,
        response: {
          200: oauthCallbackResultSchema,
          '4xx': anyErrorBodySchema,
          '5xx': z.union([errorBodySchema, loginFailureSchema]),
        },
      },
    },
    async (request, reply) => {
      if (!microsoft) throw new HttpError(501, 'Microsoft login is not configured on this server.');
      const token = request.cookies[OAUTH_LOGIN_COOKIE];
      if (token)
        reply.clearCookie(OAUTH_LOGIN_COOKIE, { ...cookieOptions(request, true), path: OAUTH_LOGIN_COOKIE_PATH });
      // One use: the login is taken whatever comes next, so neither its state nor its code can be tried again.
      const pending = token ? await takePendingOAuthLogin(db, token) : null;
      const { code, state } = request.body;
      if (
        !pending ||
        typeof code !== 'string' ||
        code === '' ||
        typeof state !== 'string' ||
        !safeEqual(state, pending.state)
      ) {
        throw refuseMicrosoftLogin('expired');
      }
      let profile: GameProfile;
      try {
        profile = await microsoft.gameProfile({ code, state, codeVerifier: pending.codeVerifier });
      } catch (error) {
        if (!(error instanceof MicrosoftLoginError)) throw error;
        if (error.reason === 'unavailable')
          request.log.warn({ detail: error.message }, 'Microsoft login: an outside service failed');
        else request.log.info({ reason: error.reason, detail: error.message }, 'Microsoft login refused');
        throw refuseMicrosoftLogin(error.reason);
      }
      const { user, renamed } = await db.transaction().execute(async (trx) => {
        const renamed = await upsertUser(trx, profile.uuid, profile.username);
        return { user: (await findUser(trx, profile.uuid))!, renamed };
      });
      // The player's answers are found by name too: every process hears of a new name at once.
      if (renamed) await options.bus.publish(user.uuid);
      if (user.banned) throw refuseMicrosoftLogin('banned');
      const firstLogin = await startSession(request, reply, user.uuid);
      options.metrics.countLogin('microsoft', 'ok');
      return { user: toApiUser(user), ref: pending.ref, firstLogin };
    },
  );
}
