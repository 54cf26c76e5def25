// The mod API: profiles, current textures and content-addressed texture files (never stopped by maintenance).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, modProfileSchema } from '../../src/lib/api-schemas.ts';
import { emptyResponse, fileResponse, sendFile, type ZodTypeProvider } from '../http/route-schemas.ts';
import { MOD_HEADERS, PROFILE_CACHE_CONTROL, PROFILE_CONTENT_TYPE, PROFILE_ROUTE, TEXTURE_CACHE_CONTROL, TEXTURE_ROUTE } from '../mod/answers.ts';
import { isBlobKey } from '../storage/blob-store.ts';
import type { TextureLibrary } from '../textures/library.ts';
import type { ProfileCache } from '../mod/profiles.ts';

const playerParams = z.object({
  id: z.string().meta({ description: 'Player uuid (32 hex digits, dashes allowed) or username (1–16 letters, digits, underscores)' }),
});
const notModified = { 304: emptyResponse('Not modified (If-None-Match matched the ETag)') };
const notFoundBody = { 404: errorBodySchema };
const currentTexture = { 200: fileResponse('image/png', 'The texture'), ...notFoundBody };

/** Whether a request path belongs to the mod API (the game's hot path: logged only when it fails or is slow). */
export function isModApiPath(url: string): boolean {
  return url.startsWith('/profile/') || url.startsWith('/textures/');
}

function notModifiedTexture(reply: FastifyReply, hash: string) {
  return reply.status(304).headers(MOD_HEADERS).header('cache-control', TEXTURE_CACHE_CONTROL).header('etag', `"${hash}"`).send();
}

function notFound(reply: FastifyReply) {
  return reply.status(404).headers(MOD_HEADERS).send({ error: 'Not found' });
}

/** Registers GET /profile/:id, /profile/:id/cape, /profile/:id/ears and /textures/:hash. */
export async function modRoutes(instance: FastifyInstance, options: { profiles: ProfileCache; library: TextureLibrary }) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { profiles, library } = options;

  const sendTexture = async (reply: FastifyReply, hash: string | null, cacheControl: string) => {
    const bytes = hash ? await library.readRegistered(hash) : null;
    if (!bytes) return notFound(reply);
    return sendFile(reply.headers(MOD_HEADERS).header('cache-control', cacheControl).header('etag', `"${hash}"`), 'image/png', bytes);
  };

  // The profile's JSON is serialized once per change (the cache keeps it as text), so it is sent as text, not through the schema.
  const sendProfile = (reply: FastifyReply, json: string, etag: string, ifNoneMatch: string | undefined) => {
    reply.headers(MOD_HEADERS).header('cache-control', PROFILE_CACHE_CONTROL).header('etag', etag);
    if (ifNoneMatch === etag) return reply.status(304).send();
    return reply.type(PROFILE_CONTENT_TYPE).send(json);
  };

  app.get(
    PROFILE_ROUTE,
    {
      schema: {
        summary: "A player's cosmetics, as the mod reads them",
        params: playerParams,
        response: { 200: modProfileSchema, ...notModified, ...notFoundBody },
      },
    },
    async (request, reply) => {
      // A cached profile asked for by its uuid is answered by the fast path (server/mod/fast-path.ts) before it gets here.
      const profile = await profiles.get(request.params.id);
      if (!profile) return notFound(reply);
      return sendProfile(reply, profile.json, profile.etag, request.headers['if-none-match']);
    },
  );

  app.get('/profile/:id/cape', { schema: { summary: "A player's current cape", params: playerParams, response: currentTexture } }, async (request, reply) => {
    const profile = await profiles.get(request.params.id);
    return sendTexture(reply, profile?.capeHash ?? null, PROFILE_CACHE_CONTROL);
  });

  app.get('/profile/:id/ears', { schema: { summary: "A player's current ears", params: playerParams, response: currentTexture } }, async (request, reply) => {
    const profile = await profiles.get(request.params.id);
    return sendTexture(reply, profile?.earsHash ?? null, PROFILE_CACHE_CONTROL);
  });

  app.get(
    TEXTURE_ROUTE,
    {
      schema: {
        summary: 'A stored texture by its SHA-256 (cached for a year: the content never changes)',
        params: z.object({ hash: z.string().meta({ description: 'SHA-256 of the PNG, optionally with .png' }) }),
        response: { ...currentTexture, ...notModified },
      },
    },
    async (request, reply) => {
      const hash = request.params.hash.replace(/\.png$/, '');
      if (!isBlobKey(hash)) return notFound(reply);
      if (request.headers['if-none-match'] === `"${hash}"`) return notModifiedTexture(reply, hash);
      return sendTexture(reply, hash, TEXTURE_CACHE_CONTROL);
    },
  );
}
