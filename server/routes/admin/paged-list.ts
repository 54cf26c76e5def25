// The admin list calls that answer one page of rows with its pager (the ban list, the whitelist, the gallery reports,
// the registered apps): admins only, `?page=N`, ADMIN_PAGE_SIZE rows a page, links back to the same path.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { pageQuerySchema } from '../../../src/lib/schemas/gallery.ts';
import { paginate, type Paginated } from '../../http/pagination.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { ADMIN_ONLY, ADMIN_PAGE_SIZE } from './shared.ts';

/** One page of a list as the domain reads it: its rows and how many rows the whole list has. */
export interface ListPage<Row> {
  rows: Row[];
  total: number;
}

/** Registers GET `path`: the page of the list `loadPage` reads, as `pageSchema` describes it, with its pager. */
export function adminPagedList<Row>(
  app: FastifyInstance,
  path: string,
  summary: string,
  pageSchema: z.ZodType<Paginated<Row>>,
  loadPage: (page: number, perPage: number) => Promise<ListPage<Row>>,
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    path,
    {
      config: ADMIN_ONLY,
      schema: { summary, querystring: pageQuerySchema, response: { 200: pageSchema, ...errorResponses } },
    },
    async (request) => {
      const { rows, total } = await loadPage(request.query.page, ADMIN_PAGE_SIZE);
      return paginate(rows, request.query.page, ADMIN_PAGE_SIZE, total, path);
    },
  );
}
