// The API client factory (ofetch): credentials, XSRF header and the SPEC §8 status handling.
import { ofetch, FetchError, type $Fetch } from 'ofetch';

/** What the client does on the statuses that SPEC §8 gives app-wide meaning. */
export interface ApiClientOptions {
  /** The API host, '' for the same origin. */
  baseURL: string;
  /** Reads the XSRF-TOKEN cookie; undefined when there is none. */
  readXsrfToken: () => string | undefined;
  /** Called on 401: the user is logged out. */
  onUnauthorized: () => void;
  /** Called on 503: maintenance mode. */
  onMaintenance: () => void;
  /** Called on 408 or a timeout of an /api/ call. */
  onOffline: () => void;
  /** Milliseconds before a call counts as timed out. */
  timeout?: number;
}

/** The call that hands out the XSRF-TOKEN cookie before a visitor's first state-changing call. */
export const XSRF_COOKIE_PATH = '/api/csrf-cookie';

function isApiUrl(request: unknown): boolean {
  const url = typeof request === 'string' ? request : request instanceof Request ? request.url : String(request);
  return url.includes('/api/');
}

/** Creates an ofetch instance that sends cookies and the XSRF header and reacts to 401, 503, 408 and timeouts. */
export function createApiClient(options: ApiClientOptions): $Fetch {
  return ofetch.create({
    baseURL: options.baseURL || undefined,
    credentials: 'include',
    timeout: options.timeout ?? 15000,
    retry: 0,
    headers: { accept: 'application/json' },
    async onRequest({ options: request }) {
      const method = (request.method ?? 'GET').toUpperCase();
      if (!options.readXsrfToken() && !['GET', 'HEAD', 'OPTIONS'].includes(method)) {
        // A first visit has no XSRF-TOKEN cookie yet: any API response sets one.
        await fetch(`${options.baseURL}${XSRF_COOKIE_PATH}`, { credentials: 'include' }).catch(() => undefined);
      }
      const token = options.readXsrfToken();
      if (token) {
        const headers = new Headers(request.headers);
        headers.set('x-xsrf-token', token);
        request.headers = headers;
      }
    },
    onRequestError({ request, error }) {
      if (isApiUrl(request) && (error.name === 'TimeoutError' || error.name === 'AbortError' || error instanceof TypeError)) {
        options.onOffline();
      }
    },
    onResponseError({ request, response }) {
      if (response.status === 401) options.onUnauthorized();
      else if (response.status === 503) options.onMaintenance();
      else if (response.status === 408 && isApiUrl(request)) options.onOffline();
    },
  });
}

/** What the shared error display shows: one message, or the first message of each field. */
export type ErrorDisplay = { kind: 'message'; message: string } | { kind: 'fields'; messages: string[] };

/** Turns an error response body (`{error}`, `{message}` or Laravel `{errors: {field: [msg]}}`) into what the error display shows. */
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
