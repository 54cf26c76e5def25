// General calls (SPEC §7): the current user, home statistics and contributors.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Contributor } from '../../src/lib/types.ts';
import { requireUser } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import { countUsers, toApiUser } from '../db/users.ts';

const contributorsSchema = z.array(z.object({ uuid: z.string().regex(/^[0-9a-f]{32}$/), username: z.string().min(1) }));

/** Reads and checks the contributors content file. */
export function loadContributors(file: URL | string): Contributor[] {
  return contributorsSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** Registers GET /api/user, /api/csrf-cookie, /api/home and /api/contributors. */
export async function generalRoutes(app: FastifyInstance, options: { db: Db; contributors: Contributor[] }) {
  const { db, contributors } = options;

  app.get('/api/user', async (request) => toApiUser(await requireUser(request)));

  // The auth plugin sets XSRF-TOKEN on every API response; this call exists only to receive it.
  app.get('/api/csrf-cookie', async (_request, reply) => reply.status(204).send());

  app.get('/api/home', async () => ({ users: await countUsers(db) }));

  app.get('/api/contributors', async () => contributors);
}
