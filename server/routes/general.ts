// General calls: the current user, home statistics and contributors.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contributorSchema, homeStatsSchema, userSchema, xsrfTokenSchema } from '../../src/lib/schemas/account.ts';
import { requireUser } from '../auth/plugin.ts';
import { countUsers, registeredPlayers, toApiUser } from '../db/users.ts';
import { errorResponses, type ZodTypeProvider } from '../http/route-schemas.ts';
import type { AppContext } from '../operations/app-context.ts';

/** How long a browser keeps the contributors list, in seconds. */
const CONTRIBUTORS_MAX_AGE_S = 300;

/** Registers GET /api/user, /api/csrf-cookie, /api/home and /api/contributors. */
export async function generalRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;
  const { contributors } = options.config;

  app.get(
    '/api/user',
    {
      config: { auth: 'session' },
      schema: { summary: 'The logged-in user', response: { 200: userSchema, ...errorResponses } },
    },
    async (request) => toApiUser(await requireUser(request)),
  );

  // The auth plugin sets XSRF-TOKEN on every API response; this call exists to receive it, and answers its value for a
  // page on another host, which cannot read the API's cookies.
  app.get(
    '/api/csrf-cookie',
    {
      schema: {
        summary: 'Sets the XSRF-TOKEN cookie and answers its value',
        response: { 200: xsrfTokenSchema, ...errorResponses },
      },
    },
    async (request) => ({ token: request.xsrfToken! }),
  );

  app.get(
    '/api/home',
    { schema: { summary: 'Home page statistics', response: { 200: homeStatsSchema, ...errorResponses } } },
    async () => ({
      users: await countUsers(db),
    }),
  );

  // Every page's footer asks for the list: the browser keeps it for a few minutes instead of asking on each page.
  app.get(
    '/api/contributors',
    {
      schema: { summary: 'The footer contributors', response: { 200: z.array(contributorSchema), ...errorResponses } },
    },
    async (_request, reply) => {
      reply.header('cache-control', `private, max-age=${CONTRIBUTORS_MAX_AGE_S}`);
      return registeredPlayers(db, contributors);
    },
  );
}
