// The browser's API client: the ofetch factory (credentials, the XSRF header, the app-wide statuses 401, 503, 408, 502
// and 504) and the one client built from it, wired to the session store and the overlays.
import { ofetch, type $Fetch } from 'ofetch';
import { isNotAdminAnswer } from '../admin-access';
import { UNAUTHENTICATED_MESSAGE } from '../login-errors';
import type { z } from 'zod';
import { apiPath, API_CALLS, type ApiCallName, type ApiParams, type ParamsArgument } from '../api-calls';
import { getCookie } from './cookies';
import { loginUrlFor } from '../routes';
import { leaveFlash, showFlash } from './flash';
import { $apiOffline, $maintenance, forgetAdminRights, forgetUser } from './session';
import type { API_CALL_SCHEMAS } from '../schemas/api-calls';

/** What happens on the statuses with an app-wide meaning (401, 503, 408). */
export interface StatusHandlers {
  /** Called on 401: the user is logged out; `reason` is why when the API says (a ban), else null. */
  onUnauthorized: (reason: string | null) => void;
  /** Called on 503: maintenance mode. */
  onMaintenance: () => void;
  /** Called on 408 or a timeout of an /api/ call. */
  onOffline: () => void;
}

/** Where the API is and how its XSRF token is read. */
export interface XsrfSource {
  /** The API host, '' for the same origin. */
  baseURL: string;
  /** Reads the XSRF token: the XSRF-TOKEN cookie, or the one the API handed out; undefined when there is none. */
  readXsrfToken: () => string | undefined;
  /**
   * Keeps the token the API answered (a page on another host than the API cannot read its cookie); undefined forgets
   * it (after the API refused it).
   */
  keepXsrfToken?: (token: string | undefined) => void;
}

/** What the client needs: the API host, the XSRF token and the app-wide status handlers. */
export interface ApiClientOptions extends StatusHandlers, XsrfSource {
  /** Milliseconds before a call counts as timed out. */
  timeout?: number;
  /** Called when the API refuses a call because the user is not an admin (the session's group is out of date). */
  onNotAdmin?: () => void;
}

/** The call that hands out the XSRF-TOKEN cookie before a visitor's first state-changing call. */
export const XSRF_COOKIE_PATH = API_CALLS.xsrfCookie.path;

function isApiUrl(request: unknown): boolean {
  const url = typeof request === 'string' ? request : request instanceof Request ? request.url : String(request);
  return url.includes('/api/');
}

/**
 * Returns the XSRF token, first asking the API for it (GET /api/csrf-cookie sets the cookie and answers its value) when
 * there is none yet.
 */
export async function ensureXsrfToken(source: XsrfSource): Promise<string | undefined> {
  if (!source.readXsrfToken()) {
    const answer = await fetch(`${source.baseURL}${XSRF_COOKIE_PATH}`, { credentials: 'include' })
      .then((response) => (response.ok ? (response.json() as Promise<{ token?: unknown }>) : null))
      .catch(() => null);
    if (typeof answer?.token === 'string') source.keepXsrfToken?.(answer.token);
  }
  return source.readXsrfToken();
}

/** The status the API refuses a state-changing call with when its XSRF token is missing or wrong. */
export const XSRF_REFUSED_STATUS = 419;

/** Why a 401 logged the player out, when its body says (any message but the plain "Unauthenticated."), else null. */
export function logoutReason(body: unknown): string | null {
  const message = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  return typeof message === 'string' && message !== '' && message !== UNAUTHENTICATED_MESSAGE ? message : null;
}

/**
 * The statuses of an /api/ URL that mean the API cannot be reached: its own request timeout (408), and a proxy in front
 * that finds no process answering (502) or none in time (504).
 */
const OFFLINE_STATUSES: ReadonlySet<number> = new Set([408, 502, 504]);

/**
 * Reacts to a response status and body: 401 logs out (with the reason it gives), 503 maintenance, 408, 502 or 504 from
 * an /api/ URL offline; other statuses do nothing.
 */
export function handleAppStatus(status: number, handlers: StatusHandlers, apiUrl = true, body?: unknown): void {
  if (status === 401) handlers.onUnauthorized(logoutReason(body));
  else if (status === 503) handlers.onMaintenance();
  else if (OFFLINE_STATUSES.has(status) && apiUrl) handlers.onOffline();
}

/** Creates an ofetch instance that sends cookies and the XSRF header and reacts to 401, 503, 408 and timeouts. */
export function createApiClient(options: ApiClientOptions): $Fetch {
  return ofetch.create({
    baseURL: options.baseURL || undefined,
    credentials: 'include',
    timeout: options.timeout ?? 15000,
    // Only a call refused for its XSRF token is sent again, once, with a fresh token (the API's cookie expired or
    // changed since the page read it).
    retry: 1,
    retryDelay: 0,
    retryStatusCodes: [XSRF_REFUSED_STATUS],
    headers: { accept: 'application/json' },
    async onRequest({ options: request }) {
      const method = (request.method ?? 'GET').toUpperCase();
      const token = ['GET', 'HEAD', 'OPTIONS'].includes(method)
        ? options.readXsrfToken()
        : await ensureXsrfToken(options);
      if (token) {
        const headers = new Headers(request.headers);
        headers.set('x-xsrf-token', token);
        request.headers = headers;
      }
    },
    onRequestError({ request, error }) {
      if (
        isApiUrl(request) &&
        (error.name === 'TimeoutError' || error.name === 'AbortError' || error instanceof TypeError)
      ) {
        options.onOffline();
      }
    },
    onResponseError({ request, response }) {
      if (response.status === XSRF_REFUSED_STATUS) options.keepXsrfToken?.(undefined);
      handleAppStatus(response.status, options, isApiUrl(request), response._data);
      if (isNotAdminAnswer(response.status, response._data)) options.onNotAdmin?.();
    },
  });
}

/** The API host; empty means the same origin as the site. */
export const API_URL: string = (import.meta.env.PUBLIC_API_URL as string | undefined) ?? '';

/**
 * After a 401: forgets the local user, says why when the API did (a ban: on this page, or on the login page it goes
 * to), and on a page that needs a login, goes to the login page.
 */
function logOutLocally(reason: string | null): void {
  forgetUser();
  const leaving = document.documentElement.hasAttribute('data-auth');
  if (reason) {
    if (leaving) leaveFlash(reason, 'warning');
    else showFlash({ message: reason, tone: 'warning' });
  }
  if (leaving) location.replace(loginUrlFor(location.pathname + location.search));
}

/** The XSRF token the API handed out, kept while the page cannot read the API's cookie (the API on another host). */
let handedXsrfToken: string | undefined;

/**
 * The browser's API host, XSRF cookie and app-wide session effects (401 logs out, 503 maintenance, 408 or no answer
 * offline), shared by the client and file uploads.
 */
export const API_OPTIONS: ApiClientOptions = {
  baseURL: API_URL,
  readXsrfToken: () => getCookie('XSRF-TOKEN') ?? handedXsrfToken,
  keepXsrfToken: (token) => void (handedXsrfToken = token),
  onUnauthorized: logOutLocally,
  onMaintenance: () => $maintenance.set(true),
  onOffline: () => $apiOffline.set(true),
  onNotAdmin: forgetAdminRights,
};

/** The client every page and island uses for `/api/` calls. */
export const api = createApiClient(API_OPTIONS);

/** The schemas of a call (type only: the browser never loads them). */
type CallSchemas<Name extends ApiCallName> = (typeof API_CALL_SCHEMAS)[Name];
/** What a call answers, as its answer schema gives it. */
export type ApiAnswer<Name extends ApiCallName> =
  CallSchemas<Name> extends { answer: infer Answer extends z.ZodType } ? z.output<Answer> : never;
/** The JSON body a call takes, as its body schema accepts it. */
export type ApiBody<Name extends ApiCallName> =
  CallSchemas<Name> extends { body: infer Body extends z.ZodType } ? z.input<Body> : never;
/** The query a call takes, as its query schema accepts it. */
export type ApiQuery<Name extends ApiCallName> =
  CallSchemas<Name> extends { query: infer Query extends z.ZodType } ? z.input<Query> : never;
/** The calls that answer JSON, which {@link apiCall} makes. */
export type JsonCallName = {
  [Name in ApiCallName]: CallSchemas<Name> extends { answer: z.ZodType } ? Name : never;
}[ApiCallName];
/** What {@link apiCall} takes besides the name: the call's path parameters, body and query, and an abort signal. */
export type ApiCallOptions<Name extends ApiCallName> = (keyof ApiParams<Name> extends never
  ? { params?: never }
  : { params: ApiParams<Name> }) &
  ([ApiBody<Name>] extends [never] ? { body?: never } : { body: ApiBody<Name> }) &
  ([ApiQuery<Name>] extends [never] ? { query?: never } : { query?: ApiQuery<Name> }) & { signal?: AbortSignal };

/**
 * Makes one of the site's API calls by name, with the client's XSRF and session handling; resolves with its typed
 * answer.
 */
export function apiCall<Name extends JsonCallName>(
  name: Name,
  ...[options]: Record<never, never> extends ApiCallOptions<Name>
    ? [options?: ApiCallOptions<Name>]
    : [options: ApiCallOptions<Name>]
): Promise<ApiAnswer<Name>> {
  const { params, body, query, signal } = (options ?? {}) as {
    params?: object;
    body?: Record<string, unknown>;
    query?: Record<string, unknown>;
    signal?: AbortSignal;
  };
  return api<ApiAnswer<Name>>(apiPath(name, ...([params] as ParamsArgument<Name>)), {
    method: API_CALLS[name].method,
    body,
    query,
    signal,
  });
}

/** The full URL of a call (an image, a download, a link), its path parameters filled in. */
export function apiUrl<Name extends ApiCallName>(name: Name, ...params: ParamsArgument<Name>): string {
  return `${API_URL}${apiPath(name, ...params)}`;
}
