// Request authentication: the session cookie, the XSRF-TOKEN cookie and its header check (419 on mismatch), the
// bearer keys of the bot's and the game auth server's APIs (calls without a valid key limited per address), and the
// access tokens of apps a player connected, on the routes that declare the scope they need (`config.oauthScope`).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { NOT_ADMIN_MESSAGE } from '../../src/lib/admin-access.ts';
import type { AppScope } from '../../src/lib/app-scopes.ts';
import { bannedLogoutMessage, UNAUTHENTICATED_MESSAGE } from '../../src/lib/login-errors.ts';
import type { Db } from '../db/database.ts';
import { banReason, findUser, type UserRow } from '../db/users.ts';
import { HttpError } from '../http/errors.ts';
import { isApiRequest } from '../http/request-path.ts';
import type { WindowCounter } from '../redis/window-counter.ts';
import { appAccessOf } from './app-grants.ts';
import { bearerChallenge, bearerTokenOf, INVALID_TOKEN_MESSAGE, insufficientScopeMessage } from './bearer.ts';
import { SESSION_COOKIE, sessionUser } from './sessions.ts';

/** The anti-forgery cookie the page reads and echoes in `x-xsrf-token`. */
export const XSRF_COOKIE = 'XSRF-TOKEN';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who may call a route: a logged-in player, an admin, or the game auth server with its bearer key; unset is everyone.
 */
type RouteAuth = 'session' | 'admin' | 'bearer' | 'bot';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, loaded lazily from the session cookie. */
    currentUser(): Promise<UserRow | null>;
    /** Why the session cookie logs no one in when a ban ended it (the message says why), else null. */
    sessionEndedMessage(): Promise<string | null>;
    /**
     * The XSRF token of an API request: its XSRF-TOKEN cookie, or the one this answer sets (a page on another host
     * cannot read the API's cookie, so GET /api/csrf-cookie also hands it out in its body).
     */
    xsrfToken: string | undefined;
  }
  interface FastifyContextConfig {
    /** Who may call the route; checked before the input is validated, and written into the OpenAPI description. */
    auth?: RouteAuth;
    /**
     * With `auth: 'session'`: the route also takes an app's access token with this scope (`Authorization: Bearer`),
     * instead of the session cookie and without the XSRF header; a call with a token ignores the cookies.
     */
    oauthScope?: AppScope;
  }
}

/** Whether two strings are equal, in constant time. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Cookie attributes for this request: HttpOnly or not, Secure over HTTPS. */
export function cookieOptions(request: FastifyRequest, httpOnly: boolean, maxAgeSeconds?: number) {
  return { path: '/', httpOnly, sameSite: 'lax' as const, secure: request.protocol === 'https', maxAge: maxAgeSeconds };
}

/** The user of the request's session; throws 401 when there is none, saying why when a ban ended it. */
export async function requireUser(request: FastifyRequest): Promise<UserRow> {
  const user = await request.currentUser();
  if (!user) throw new HttpError(401, (await request.sessionEndedMessage()) ?? UNAUTHENTICATED_MESSAGE);
  return user;
}

/** The request's user when an admin; 401 without a session, 403 for anyone else. */
export async function requireAdmin(request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(request);
  if (!user.group.admin) throw new HttpError(403, NOT_ADMIN_MESSAGE);
  return user;
}

/** Clears the session cookie on a reply. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, true));
}

function decodeHeader(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Refuses a state-changing call whose x-xsrf-token header does not match its XSRF-TOKEN cookie (419). */
async function checkXsrf(request: FastifyRequest): Promise<void> {
  const cookieToken = request.cookies[XSRF_COOKIE];
  const headerToken = request.headers['x-xsrf-token'];
  if (!cookieToken || typeof headerToken !== 'string' || !safeEqual(decodeHeader(headerToken), cookieToken)) {
    throw new HttpError(419, 'CSRF token mismatch.');
  }
}

/** A route's hooks of one kind as a list. */
function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** Whether the request carries the bearer key; an unset key matches no request. */
function hasBearer(request: FastifyRequest, key: string | undefined): boolean {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  return Boolean(key && token && safeEqual(token, key));
}

/** The refusals of calls without a valid key, counted per address apart from any key holder's own rate limit. */
const KEY_REFUSALS = 'api-key-refusals:';

/**
 * Refuses a request without the bearer key: 401, and 429 once its address has been refused `perMinute` times this
 * minute.
 */
async function checkBearer(
  request: FastifyRequest,
  key: string | undefined,
  refusals: WindowCounter,
  perMinute: number,
): Promise<void> {
  if (hasBearer(request, key)) return;
  const { current } = await refusals.increment(KEY_REFUSALS + request.ip, 60_000);
  if (current > perMinute) throw new HttpError(429, 'Too many calls without a valid API key. Wait a minute.');
  throw new HttpError(401, 'A valid API key is required.');
}

/**
 * The OpenAPI security requirement of a route: its auth, plus the XSRF header for state-changing site calls, or an
 * app's access token with the route's scope.
 */
function securityOf(
  auth: RouteAuth | undefined,
  stateChanging: boolean,
  scope: AppScope | undefined,
): Array<Record<string, string[]>> | undefined {
  if (auth === 'bearer') return [{ bearer: [] }];
  if (auth === 'bot') return [{ botKey: [] }];
  const requirement: Record<string, string[]> = {};
  if (auth) requirement.session = [];
  if (stateChanging) requirement.xsrf = [];
  if (Object.keys(requirement).length === 0) return undefined;
  return scope ? [requirement, { appToken: [scope] }] : [requirement];
}

/** What an app's access token gives a call: the player it acts for and the scopes they approved. */
interface AppCall {
  user: UserRow;
  scopes: AppScope[];
}

async function authPlugin(
  app: FastifyInstance,
  options: {
    db: Db;
    authApiKey: string | undefined;
    botApiKey?: string | undefined;
    xsrfExempt: (url: string) => boolean;
    /** Counts the calls refused for a missing or wrong key, per address. */
    counter: WindowCounter;
    /** Refused calls per address and minute before they are answered 429. */
    keyRefusalsPerMinute: number;
  },
) {
  const { db, counter, keyRefusalsPerMinute } = options;

  /**
   * The app call a request makes, read once: undefined when the route takes no access token or the request brings
   * none (the session cookie counts then), null when its token is wrong, expired, revoked or its player banned.
   */
  const appCallOf = (request: FastifyRequest) => {
    const cache = request as FastifyRequest & { appCallPromise?: Promise<AppCall | null | undefined> };
    cache.appCallPromise ??= (async () => {
      const token = request.routeOptions.config.oauthScope ? bearerTokenOf(request) : undefined;
      if (token === undefined) return undefined;
      const access = await appAccessOf(db, token);
      const user = access ? await findUser(db, access.userUuid) : undefined;
      return access && user && !user.banned ? { user, scopes: access.scopes } : null;
    })();
    return cache.appCallPromise;
  };

  /** The XSRF check of a route that takes access tokens: a call with a token needs none (it sends no cookies). */
  const checkXsrfUnlessToken = async (request: FastifyRequest) => {
    if (bearerTokenOf(request) === undefined) await checkXsrf(request);
  };

  /**
   * The check of a route that takes access tokens: a call with a token needs a live one (401) with the route's scope
   * (403), each refusal with its challenge; a call without one needs a session, as on any other route.
   */
  const checkAppOrSession = async (request: FastifyRequest, reply: FastifyReply, scope: AppScope) => {
    const call = await appCallOf(request);
    if (call === null) {
      reply.header('www-authenticate', bearerChallenge(scope, 'invalid_token'));
      throw new HttpError(401, INVALID_TOKEN_MESSAGE);
    }
    if (call && !call.scopes.includes(scope)) {
      reply.header('www-authenticate', bearerChallenge(scope, 'insufficient_scope'));
      throw new HttpError(403, insufficientScopeMessage(scope));
    }
    if (!call && !(await request.currentUser())) reply.header('www-authenticate', bearerChallenge(scope));
    await requireUser(request);
  };

  // Each route's `config.auth` becomes a check that runs before its input is validated (a visitor gets 401, not 422),
  // and its OpenAPI security. It runs first in preValidation, so a key holder's rate limit counted there
  // (`keyHolderRateLimit`) counts only calls with the key.
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    const scope = route.config?.oauthScope;
    if (scope && auth !== 'session') throw new Error(`Route ${route.url}: an oauthScope goes with auth 'session'`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const stateChanging =
      route.url.startsWith('/api/') &&
      !options.xsrfExempt(route.url) &&
      methods.some((method) => !SAFE_METHODS.has(method));
    const security = securityOf(auth, stateChanging, scope);
    if (security && route.schema) route.schema = { ...route.schema, security } as typeof route.schema;
    // The XSRF check belongs to the route, so it holds however the path was spelled (`/%61pi/...` is routed here too).
    if (stateChanging) route.onRequest = [scope ? checkXsrfUnlessToken : checkXsrf, ...hookList(route.onRequest)];
    if (!auth) return;
    const check =
      auth === 'bearer' || auth === 'bot'
        ? async (request: FastifyRequest) =>
            checkBearer(request, auth === 'bot' ? options.botApiKey : options.authApiKey, counter, keyRefusalsPerMinute)
        : scope
          ? async (request: FastifyRequest, reply: FastifyReply) => checkAppOrSession(request, reply, scope)
          : async (request: FastifyRequest) =>
              void (auth === 'admin' ? await requireAdmin(request) : await requireUser(request));
    route.preValidation = [check, ...hookList(route.preValidation)];
  });

  /** The session's player, loaded once per request: a banned player's session logs no one in. */
  const sessionOf = (request: FastifyRequest) => {
    const cache = request as FastifyRequest & { sessionPromise?: Promise<UserRow | null | undefined> };
    cache.sessionPromise ??= (async () => {
      const token = request.cookies[SESSION_COOKIE];
      const uuid = token ? await sessionUser(db, token) : null;
      return uuid ? await findUser(db, uuid) : undefined;
    })();
    return cache.sessionPromise;
  };

  // A call with an app's access token is the token's player's, within the route's scope; its cookies are not read.
  app.decorateRequest('currentUser', async function (this: FastifyRequest) {
    const call = await appCallOf(this);
    if (call !== undefined) return call?.scopes.includes(this.routeOptions.config.oauthScope!) ? call.user : null;
    const user = await sessionOf(this);
    return user && !user.banned ? user : null;
  });

  app.decorateRequest('sessionEndedMessage', async function (this: FastifyRequest) {
    if ((await appCallOf(this)) !== undefined) return null;
    const user = await sessionOf(this);
    return user?.banned ? bannedLogoutMessage(await banReason(db, user.uuid)) : null;
  });

  // Every API answer hands out the XSRF-TOKEN cookie when the browser has none yet.
  app.decorateRequest('xsrfToken', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiRequest(request)) return;
    request.xsrfToken = request.cookies[XSRF_COOKIE];
    if (request.xsrfToken) return;
    request.xsrfToken = randomBytes(32).toString('base64url');
    reply.setCookie(XSRF_COOKIE, request.xsrfToken, cookieOptions(request, false, 60 * 60 * 24 * 7));
  });
}

/** Registers sessions and the XSRF check for `/api/` routes (the exempt ones use their own bearer key). */
export const auth = fp(authPlugin, { name: 'cloakroom-auth' });
