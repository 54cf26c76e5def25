// The admin pages' calls, one route file per page group, registered in order as one plugin.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../operations/app-context.ts';
import { adminAiCapeLogRoutes } from './ai-cape-logs.ts';
import { adminAppClientRoutes } from './app-clients.ts';
import { adminAuditRoutes } from './audit.ts';
import { adminBanRoutes } from './bans.ts';
import { adminDashboardRoutes } from './dashboard.ts';
import { adminGalleryReportRoutes } from './gallery-reports.ts';
import { adminPlayerRoutes } from './players.ts';
import { adminRegistrationRoutes } from './registration.ts';
import { adminUserReportRoutes } from './user-reports.ts';
import { adminWhitelistRoutes } from './whitelist.ts';

/** The admin route files, in the order they register. */
const ADMIN_ROUTES = [
  adminDashboardRoutes,
  adminRegistrationRoutes,
  adminBanRoutes,
  adminPlayerRoutes,
  adminWhitelistRoutes,
  adminAiCapeLogRoutes,
  adminUserReportRoutes,
  adminGalleryReportRoutes,
  adminAuditRoutes,
  adminAppClientRoutes,
];

/** Registers every admin call. */
export async function adminRoutes(instance: FastifyInstance, context: AppContext) {
  for (const routes of ADMIN_ROUTES) await instance.register(routes, context);
}
