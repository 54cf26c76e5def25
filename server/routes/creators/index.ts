// The cape creators' calls (one route file per generator) and the creators' capes' preview, wear and share calls,
// registered in order as one plugin.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../operations/app-context.ts';
import { aiCreatorRoutes } from './ai.ts';
import { animatedCreatorRoutes } from './animated.ts';
import { bannerCreatorRoutes } from './banner.ts';
import { creationRoutes } from './creations.ts';
import { headCreatorRoutes } from './head.ts';
import { imageCreatorRoutes } from './image.ts';
import { optifineCreatorRoutes } from './optifine.ts';

/** The creators' route files, in the order they register. */
const CREATOR_ROUTES = [
  imageCreatorRoutes,
  animatedCreatorRoutes,
  headCreatorRoutes,
  optifineCreatorRoutes,
  bannerCreatorRoutes,
  aiCreatorRoutes,
  creationRoutes,
];

/** Registers every creator call. */
export async function creatorRoutes(instance: FastifyInstance, context: AppContext) {
  for (const routes of CREATOR_ROUTES) await instance.register(routes, context);
}
