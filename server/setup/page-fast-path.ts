// The built site in front of the app's routes: a page, a host rule or a file of the site is answered by the HTTP server
// itself, as a static host answers it (server/site/static-site.ts), before Fastify sees the request; so is the 404 page
// of a path no route of the app can match (its first segment is none of theirs). Each answer is recorded in the
// request metrics under what answered it (the page's path, the rule's source, the file's folder, `unmatched`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { remembered } from '../http/remembered.ts';
import { UNMATCHED_ROUTE, type RequestDurations } from '../http/request-durations.ts';
import type { FastPath } from '../mod/fast-path.ts';
import type { StaticSite } from '../site/static-site.ts';

/** The first segment of a path as the router reads it (decoded), or null when it cannot be decoded. */
function firstSegment(path: string): string | null {
  const segment = path.split(/[/?]/, 2)[1] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Watches the routes as they register and says whether the app may have a GET route for a path: one whose first
 * segment is a route's (any path at all once a route starts with a parameter or a wildcard).
 */
export function appRoutePaths(app: FastifyInstance): (path: string) => boolean {
  const segments = new Set<string>();
  let everyPath = false;
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.includes('GET') && !methods.includes('HEAD')) return;
    const segment = firstSegment(route.url) ?? '';
    if (segment.startsWith(':') || segment.includes('*')) everyPath = true;
    else segments.add(segment);
  });
  // Answered once per path (requests come once every route is registered).
  const mayAnswer = remembered((path: string) => {
    const segment = firstSegment(path);
    return segment === null || segments.has(segment);
  });
  return (path) => everyPath || mayAnswer(path);
}

/**
 * Serves the site's pages, rules and files before the app's routes, and the 404 page of a GET or HEAD that no route can
 * take (`appMayAnswer` says which may); API paths always go on to the routes.
 */
export function pageFastPath(
  site: StaticSite,
  requests: RequestDurations,
  appMayAnswer: (path: string) => boolean,
): FastPath {
  let stopped = false;
  let answered = 0;
  const answer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url;
    if (stopped || url === undefined || url.startsWith('/api/')) return false;
    const startedAt = performance.now();
    let label = site.answer(request, response);
    if (label === null) {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.startsWith('/') || appMayAnswer(url))
        return false;
      site.notFound(request, response);
      label = UNMATCHED_ROUTE;
    }
    answered += 1;
    requests.observe(request.method!, label, response.statusCode, (performance.now() - startedAt) / 1000);
    return true;
  };
  return Object.assign(answer, {
    stop: () => void (stopped = true),
    get answered() {
      return answered;
    },
  });
}
