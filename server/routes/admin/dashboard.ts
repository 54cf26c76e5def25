// The admin dashboard's call: the site's totals.
import type { FastifyInstance } from 'fastify';
import { adminInfoSchema } from '../../../src/lib/schemas/admin.ts';
import { ADMIN_ONLY } from './shared.ts';
import type { AppContext } from '../../operations/app-context.ts';
import { readSiteCounts } from '../../db/site-counts.ts';
import { sumCounters, typeCounterKeys } from '../../gallery/counts.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';

/** Registers GET /api/admin/info. */
export async function adminDashboardRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = options;
  app.get(
    '/api/admin/info',
    {
      config: ADMIN_ONLY,
      schema: { summary: "The admin dashboard's totals", response: { 200: adminInfoSchema, ...errorResponses } },
    },
    async () => {
      const [counts, totalGallery] = await Promise.all([
        readSiteCounts(db),
        sumCounters(db, typeCounterKeys(undefined)),
      ]);
      return {
        totalUsers: counts.users,
        totalPremium: counts.premium,
        totalGallery,
        totalCapes: counts.capes,
        totalEars: counts.ears,
      };
    },
  );
}
