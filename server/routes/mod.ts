// The mod API: profiles, current textures, content-addressed texture files, and the layouts other mods read (never stopped by maintenance).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '../../src/lib/schemas/common.ts';
import { modProfileSchema } from '../../src/lib/schemas/mod.ts';
import { emptyResponse, fileResponse, type ZodTypeProvider } from '../http/route-schemas.ts';
import {
  CSL_PROFILE_ROUTE,
  CSL_TEXTURE_ROUTE,
  httpDate,
  isNotModified,
  MOD_API_PREFIXES,
  MOD_HEADERS,
  PROFILE_CACHE_CONTROL,
  PROFILE_CONTENT_TYPE,
  PROFILE_ROUTE,
  TEXTURE_CACHE_CONTROL,
  TEXTURE_ROUTE,
} from '../mod/answers.ts';
import { customSkinApiJson, PICTURE_ROUTES, pictureEtag, pictureSource, pictureType, readPicture, type PictureLayout } from '../mod/layouts.ts';
import { isBlobKey } from '../storage/blob-store.ts';
import type { ImageJobs } from '../images/job-queue.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { ProfileCache } from '../mod/profiles.ts';
import type { AnswerFiles } from '../mod/answer-files.ts';

const playerParams = z.object({
  id: z.string().meta({ description: 'Player uuid (32 hex digits, dashes allowed) or username (1–16 letters, digits, underscores; any case)' }),
});
const hashParams = z.object({ hash: z.string().meta({ description: 'SHA-256 of the PNG, optionally with .png' }) });
const notModified = { 304: emptyResponse('Not modified (If-None-Match matched the ETag, or If-Modified-Since is no earlier than Last-Modified)') };
const notFoundBody = { 404: errorBodySchema };
const currentTexture = { 200: fileResponse('image/png', 'The texture'), ...notFoundBody };

/** What the layouts' descriptions say of each: what it is, and which mod reads it. */
const PICTURE_SUMMARIES: Record<PictureLayout, { summary: string; type: string }> = {
  still: {
    summary: "A player's still cape (the first frame of an animated one): OptiFine-style clients, CustomSkinLoader Legacy, Cape Provider default",
    type: 'image/png',
  },
  strip: { summary: "A player's cape as `cape_url` is: the vertical strip of frames while the animation is on (Cape Provider sprite)", type: 'image/png' },
  gif: { summary: "A player's cape as a GIF at 100 ms a frame, one frame when it is still (Cape Provider gif)", type: 'image/gif' },
  elytra: { summary: "A player's elytra: the cape texture, read at its elytra region (CustomSkinLoader Legacy's elytra URL)", type: 'image/png' },
};

/** Whether a request path belongs to the mod API (the game's hot path: logged only when it fails or is slow). */
export function isModApiPath(url: string): boolean {
  return MOD_API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

function notFound(reply: FastifyReply) {
  return reply.status(404).headers(MOD_HEADERS).send({ error: 'Not found' });
}

/** One answer of the mod API: its validators, lifetime and body. */
interface ModAnswer {
  etag: string;
  /** Last-Modified (ms since the epoch), or null for content-addressed files. */
  modifiedAt: number | null;
  cacheControl: string;
  type: string;
  body: string | Buffer;
}

/** Sends an answer with the mod API's headers: 304 when the client holds it already (the fast path answers the same way). */
function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: ModAnswer) {
  reply.headers(MOD_HEADERS).header('cache-control', answer.cacheControl).header('etag', answer.etag);
  if (answer.modifiedAt !== null) reply.header('last-modified', httpDate(answer.modifiedAt));
  if (isNotModified(request.headers, answer.etag, answer.modifiedAt)) return reply.status(304).send();
  return reply.type(answer.type).send(answer.body);
}

/** Registers GET /profile/:id (+ /cape, /ears), /textures/:hash, the picture layouts by player and CustomSkinAPI under /csl/. */
export async function modRoutes(
  instance: FastifyInstance,
  options: { profiles: ProfileCache; library: TextureLibrary; imageJobs: ImageJobs; answerFiles: AnswerFiles | undefined },
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { profiles, library, imageJobs, answerFiles } = options;

  /** A player's current texture by its hash, with the profile's lifetime and Last-Modified. */
  const sendCurrentTexture = async (request: FastifyRequest, reply: FastifyReply, id: string, slot: 'capeHash' | 'earsHash') => {
    const profile = await profiles.get(id);
    const hash = profile?.[slot] ?? null;
    const bytes = hash ? await library.readRegistered(hash) : null;
    if (!profile || !hash || !bytes) return notFound(reply);
    return sendAnswer(request, reply, {
      etag: `"${hash}"`,
      modifiedAt: profiles.modifiedAt(profile),
      cacheControl: PROFILE_CACHE_CONTROL,
      type: 'image/png',
      body: bytes,
    });
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
      // The profile's JSON is serialized once per change (the cache keeps it as text), so it is sent as text, not through the schema.
      const profile = await profiles.get(request.params.id);
      if (!profile) return notFound(reply);
      const modifiedAt = profiles.modifiedAt(profile);
      // Written only while it is the cached profile: one loaded while a change was being made is answered, never kept.
      if (profiles.isCurrent(profile)) answerFiles?.writeProfile(profile.uuid, profile.json, modifiedAt);
      return sendAnswer(request, reply, {
        etag: profile.etag,
        modifiedAt,
        cacheControl: PROFILE_CACHE_CONTROL,
        type: PROFILE_CONTENT_TYPE,
        body: profile.json,
      });
    },
  );

  app.get('/profile/:id/cape', { schema: { summary: "A player's current cape", params: playerParams, response: currentTexture } }, (request, reply) =>
    sendCurrentTexture(request, reply, request.params.id, 'capeHash'),
  );

  app.get('/profile/:id/ears', { schema: { summary: "A player's current ears", params: playerParams, response: currentTexture } }, (request, reply) =>
    sendCurrentTexture(request, reply, request.params.id, 'earsHash'),
  );

  /** A content-addressed texture file: 404 unless it is registered. */
  const sendTextureFile = async (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const hash = name.replace(/\.png$/, '');
    const bytes = isBlobKey(hash) ? await library.readRegistered(hash) : null;
    if (!bytes) return notFound(reply);
    answerFiles?.writeTexture(hash, bytes);
    return sendAnswer(request, reply, { etag: `"${hash}"`, modifiedAt: null, cacheControl: TEXTURE_CACHE_CONTROL, type: 'image/png', body: bytes });
  };

  for (const [route, summary] of [
    [TEXTURE_ROUTE, 'A stored texture by its SHA-256 (cached for a year: the content never changes)'],
    [CSL_TEXTURE_ROUTE, 'A stored texture by its SHA-256, where CustomSkinAPI reads it ({root}textures/{hash} with the root /csl/)'],
  ] as const) {
    app.get(route, { schema: { summary, params: hashParams, response: { ...currentTexture, ...notModified } } }, (request, reply) =>
      sendTextureFile(request, reply, request.params.hash),
    );
  }

  for (const layout of Object.keys(PICTURE_ROUTES) as PictureLayout[]) {
    const { summary, type } = PICTURE_SUMMARIES[layout];
    const response = { 200: fileResponse(type, 'The picture'), ...notModified, ...notFoundBody };
    app.get(PICTURE_ROUTES[layout], { schema: { summary, params: playerParams, response } }, async (request, reply) => {
      // A cached player's picture is answered by the fast path before it gets here.
      const profile = await profiles.get(request.params.id);
      const source = profile ? pictureSource(profile, layout) : null;
      const bytes = source ? await readPicture(library, imageJobs, source) : null;
      if (!profile || !source || !bytes) return notFound(reply);
      return sendAnswer(request, reply, {
        etag: pictureEtag(source),
        modifiedAt: profiles.modifiedAt(profile),
        cacheControl: PROFILE_CACHE_CONTROL,
        type: pictureType(source),
        body: bytes,
      });
    });
  }

  app.get(
    CSL_PROFILE_ROUTE,
    {
      schema: {
        summary: 'A player as CustomSkinAPI reads them: {"username", "cape", "elytra"} with texture hashes, read from /csl/textures/{hash}',
        params: playerParams,
        response: {
          200: z.object({ username: z.string(), cape: z.string().optional(), elytra: z.string().optional() }).meta({ id: 'CustomSkinApiProfile' }),
          ...notModified,
          ...notFoundBody,
        },
      },
    },
    async (request, reply) => {
      const profile = await profiles.get(request.params.id);
      if (!profile) return notFound(reply);
      const { json, etag } = customSkinApiJson(profile);
      return sendAnswer(request, reply, {
        etag,
        modifiedAt: profiles.modifiedAt(profile),
        cacheControl: PROFILE_CACHE_CONTROL,
        type: PROFILE_CONTENT_TYPE,
        body: json,
      });
    },
  );
}
