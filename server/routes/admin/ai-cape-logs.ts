// The AI cape log page's calls: the AI cape creator's requests, and the texture one made.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { aiCapeLogPageSchema } from '../../../src/lib/schemas/admin.ts';
import { pageQuerySchema } from '../../../src/lib/schemas/gallery.ts';
import { adminMessages } from '../../../src/lib/admin-rules.ts';
import { aiCapeLogPage, aiCapeLogTexture } from '../../admin/ai-cape-logs.ts';
import { ADMIN_ONLY, AI_LOG_PAGE_SIZE } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, fileResponse, sendFile, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET /api/admin/ai-cape-logs and /api/admin/ai-cape-logs/:id. */
export async function adminAiCapeLogRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, library } = options;

  app.get(
    '/api/admin/ai-cape-logs',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: "The AI cape creator's requests, newest first",
        querystring: pageQuerySchema,
        response: { 200: aiCapeLogPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = request.query.page;
      const { logs, total } = await aiCapeLogPage(db, page, AI_LOG_PAGE_SIZE);
      return { logs, pages: { total_count: total, per_page: AI_LOG_PAGE_SIZE, current_page: page } };
    },
  );

  app.get(
    '/api/admin/ai-cape-logs/:id',
    {
      config: ADMIN_ONLY,
      schema: {
        summary: 'The texture an AI cape request made',
        params: z.object({
          id: z.coerce
            .number()
            .int()
            .positive()
            .max(2 ** 31 - 1),
        }),
        response: { 200: fileResponse('image/png', 'The texture'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const hash = await aiCapeLogTexture(db, request.params.id);
      const bytes = hash ? await library.read(hash) : null;
      if (!bytes) throw new HttpError(404, adminMessages.noLogImage);
      return sendFile(reply.header('cache-control', 'private, max-age=86400'), 'image/png', bytes);
    },
  );
}
