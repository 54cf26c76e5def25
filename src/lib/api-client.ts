// The API client factory (ofetch): credentials, XSRF header and the app-wide status handling (401, 503, 408).
import { ofetch, FetchError, type $Fetch } from 'ofetch';
import { isNotAdminAnswer } from './admin-access';
import { API_CALLS } from './api-calls';
import { UNAUTHENTICATED_MESSAGE } from './login-errors';

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

/** A link shown after an error message (e.g. to a compression site). */
export interface ErrorLink {
  href: string;
  label: string;
}

/**
 * What the shared error display shows, always as text: one message (with an optional link after it), or the first
 * message of each field.
 */
export type ErrorDisplay =
  { kind: 'message'; message: string; link?: ErrorLink } | { kind: 'fields'; messages: string[] };

/**
 * Turns an error response body (`{error}`, `{message}` or Laravel `{errors: {field: [msg]}}`) into what the error
 * display shows.
 */
export function describeApiError(body: unknown, fallback = 'Something went wrong'): ErrorDisplay {
  if (body && typeof body === 'object') {
    const data = body as { error?: unknown; errors?: unknown; message?: unknown; msg?: unknown };
    if (data.errors && typeof data.errors === 'object' && !Array.isArray(data.errors)) {
      const messages = Object.values(data.errors as Record<string, unknown>)
        .map((value) => (Array.isArray(value) ? value[0] : value))
        .filter((value): value is string => typeof value === 'string' && value.length > 0);
      if (messages.length > 0) return { kind: 'fields', messages };
    }
    if (Array.isArray(data.errors)) {
      const messages = data.errors.filter((value): value is string => typeof value === 'string');
      if (messages.length > 0) return { kind: 'fields', messages };
    }
    for (const candidate of [data.error, data.msg, data.message]) {
      if (typeof candidate === 'string' && candidate.length > 0) return { kind: 'message', message: candidate };
    }
  }
  return { kind: 'message', message: fallback };
}

/** The response body of a failed call, when ofetch has one. */
export function errorBody(error: unknown): unknown {
  return error instanceof FetchError ? error.data : undefined;
}

/** The status a failed call was answered with, when it was answered. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof FetchError ? error.status : undefined;
}
