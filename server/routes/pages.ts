// The 404 answers of every path no route and no file of the built site answers: JSON for the API, the site's 404 page
// for anything else. The site's pages, host rules and files are answered before the routes (server/setup/page-fast-path.ts).
import type { FastifyInstance } from 'fastify';
import { isApiRequest } from '../http/request-path.ts';
import type { AppContext } from '../operations/app-context.ts';

/** Registers the 404 answers. */
export async function pageRoutes(app: FastifyInstance, options: AppContext) {
  app.setNotFoundHandler(async (request, reply) => {
    if (isApiRequest(request) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: 'Not found' });
    }
    reply.hijack();
    options.site.notFound(request.raw, reply.raw);
  });
}
