// What path a request is for: its raw path, and the route it matched (what hooks that decide by path must look at).
import type { FastifyRequest } from 'fastify';

/** The path of a request as sent, also when the request line names an absolute URL (`POST http://host/api/x`). */
export function requestPath(request: FastifyRequest): string {
  const url = request.url;
  if (url.startsWith('/')) {
    const query = url.indexOf('?');
    return query < 0 ? url : url.slice(0, query);
  }
  try {
    return new URL(request.url, 'http://localhost').pathname;
  } catch {
    return request.url.split('?', 1)[0]!;
  }
}

/**
 * The path a request is routed by: the pattern of the route it matched (`/api/gallery/:hash`), or, when only a
 * catch-all route or none matched, its path decoded as the router decodes it (so `/%61pi/x` is `/api/x`, as the router
 * sees it).
 */
export function routePath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern !== undefined && !pattern.includes('*')) return pattern;
  const raw = requestPath(request);
  try {
    return decodeURI(raw);
  } catch {
    return raw;
  }
}

/** Whether a request is for the site's API (`/api/...`), decided on the route it matched. */
export function isApiRequest(request: FastifyRequest): boolean {
  return routePath(request).startsWith('/api/');
}
