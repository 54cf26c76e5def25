// The mod API: profiles, current textures and content-addressed texture files (never stopped by maintenance).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isBlobKey } from '../storage/blob-store.ts';
import type { TextureLibrary } from '../textures/library.ts';
import type { ProfileCache } from '../mod/profiles.ts';

/** How long game clients and proxies may reuse a profile. */
const PROFILE_CACHE_CONTROL = 'public, max-age=60';
const TEXTURE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

function notFound(reply: FastifyReply) {
  return reply.status(404).send({ error: 'Not found' });
}

/** Registers GET /profile/:id, /profile/:id/cape, /profile/:id/ears and /textures/:hash. */
export async function modRoutes(app: FastifyInstance, options: { profiles: ProfileCache; library: TextureLibrary }) {
  const { profiles, library } = options;

  const sendTexture = async (reply: FastifyReply, hash: string | null, cacheControl: string) => {
    const bytes = hash ? await library.readRegistered(hash) : null;
    if (!bytes) return notFound(reply);
    return reply.header('cache-control', cacheControl).header('etag', `"${hash}"`).header('access-control-allow-origin', '*').type('image/png').send(bytes);
  };

  app.get<{ Params: { id: string } }>('/profile/:id', async (request, reply) => {
    const profile = await profiles.get(request.params.id);
    if (!profile) return notFound(reply);
    reply.header('cache-control', PROFILE_CACHE_CONTROL).header('etag', profile.etag).header('access-control-allow-origin', '*');
    if (request.headers['if-none-match'] === profile.etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(profile.json);
  });

  app.get<{ Params: { id: string } }>('/profile/:id/cape', async (request, reply) => {
    const profile = await profiles.get(request.params.id);
    return sendTexture(reply, profile?.capeHash ?? null, 'public, max-age=60');
  });

  app.get<{ Params: { id: string } }>('/profile/:id/ears', async (request, reply) => {
    const profile = await profiles.get(request.params.id);
    return sendTexture(reply, profile?.earsHash ?? null, 'public, max-age=60');
  });

  app.get<{ Params: { hash: string } }>('/textures/:hash', async (request, reply) => {
    const hash = request.params.hash.replace(/\.png$/, '');
    if (!isBlobKey(hash)) return notFound(reply);
    if (request.headers['if-none-match'] === `"${hash}"`) return reply.status(304).header('cache-control', TEXTURE_CACHE_CONTROL).send();
    return sendTexture(reply, hash, TEXTURE_CACHE_CONTROL);
  });
}
