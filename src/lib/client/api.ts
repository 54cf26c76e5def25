// The browser's API client, wired to the session store and the overlays.
import type { z } from 'zod';
import { apiPath, API_CALLS, type ApiCallName, type ApiParams, type ParamsArgument } from '../api-calls';
import { createApiClient, type ApiClientOptions } from '../api-client';
import { getCookie } from '../cookies';
import { loginUrlFor } from '../routes';
import { leaveFlash, showFlash } from '../flash';
import { $apiOffline, $maintenance, forgetAdminRights, forgetUser } from './session';
import type { API_CALL_SCHEMAS } from '../schemas/api-calls';

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
