// The built site in front of the app's routes: a page, a host rule or a file of the site is answered by the HTTP server
// itself, as a static host answers it (server/site/static-site.ts), before Fastify sees the request. Each answer is
// recorded in the request metrics under what answered it (the page's path, the rule's source, the file's folder).
import { performance } from 'node:perf_hooks';
import type { RequestDurations } from '../http/request-durations.ts';
import type { FastPath } from '../mod/fast-path.ts';
import type { StaticSite } from '../site/static-site.ts';

/** Serves the site's pages, rules and files before the app's routes; API paths always go on to the routes. */
export function pageFastPath(site: StaticSite, requests: RequestDurations): FastPath {
  let stopped = false;
  let answered = 0;
  const answer = (request: Parameters<FastPath>[0], response: Parameters<FastPath>[1]): boolean => {
    if (stopped || request.url === undefined || request.url.startsWith('/api/')) return false;
    const startedAt = performance.now();
    const label = site.answer(request, response);
    if (label === null) return false;
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
