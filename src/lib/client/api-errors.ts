// What a failed API call says: its status, its body, and the text the shared error display shows for it.
import { FetchError } from 'ofetch';

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
