// The mod API: profiles, current textures, content-addressed texture files, and the layouts other mods read (never
// stopped by maintenance).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '../../src/lib/schemas/common.ts';
import { modProfileSchema } from '../../src/lib/schemas/mod.ts';
import { emptyResponse, fileResponse, type ZodTypeProvider } from '../http/route-schemas.ts';
import {
  writeAnswer,
  writeNotFound,
  type AnswerOutput,
  CSL_PROFILE_ROUTE,
  CSL_TEXTURE_ROUTE,
  MOD_API_PREFIXES,
  playerAnswer,
  PROFILE_ROUTE,
  TEXTURE_ROUTE,
  textureAnswer,
  type ModAnswer,
} from '../mod/answer-http.ts';
import { PICTURE_ROUTES, pictureAnswer, pictureSource, readPicture, type PictureLayout } from '../mod/layouts.ts';
import { isBlobKey } from '../storage/blob-store.ts';
import type { CachedProfile } from '../mod/profiles.ts';
import { answersModifiedAt, cslAnswer, profileAnswer, showsSomething } from '../mod/player-answers.ts';
import type { AppContext } from '../operations/app-context.ts';

const playerParams = z.object({
  id: z.string().meta({
    description:
      'Player uuid (32 hex digits, dashes allowed) or username (1–16 letters, digits, underscores; any case)',
  }),
});
const hashParams = z.object({ hash: z.string().meta({ description: 'SHA-256 of the PNG, optionally with .png' }) });
const notModified = {
  304: emptyResponse(
    'Not modified (If-None-Match matched the ETag, or If-Modified-Since is no earlier than Last-Modified)',
  ),
};
const notFoundBody = { 404: errorBodySchema };
const currentTexture = { 200: fileResponse('image/png', 'The texture'), ...notFoundBody };

/**
 * MinecraftCapesAPI's answer: the still cape's PNG in base64 under `textures.cape` (a picture in JSON: the description
 * says so with `contentMediaType`, and the served-pictures test finds it by that).
 */
const base64CapeSchema = z
  .object({
    textures: z.object({
      cape: z.string().meta({
        description: "The player's still cape (an animated cape's first frame), a PNG in base64",
        contentEncoding: 'base64',
        contentMediaType: 'image/png',
      }),
    }),
  })
  .meta({ id: 'MinecraftCapesApiProfile' });

/** What the layouts' descriptions say of each: what it is, which mod reads it, and what its 200 carries. */
const PICTURE_SUMMARIES: Record<PictureLayout, { summary: string; ok: ReturnType<typeof fileResponse> | z.ZodType }> = {
  still: {
    summary:
      "A player's still cape (the first frame of an animated one): OptiFine-style clients, CustomSkinLoader Legacy, Cape Provider default",
    ok: fileResponse('image/png', 'The picture'),
  },
  strip: {
    summary:
      "A player's cape as `cape_url` is: the vertical strip of frames while the animation is on (Cape Provider sprite)",
    ok: fileResponse('image/png', 'The picture'),
  },
  gif: {
    summary:
      "A player's cape as a GIF at the strip's speed (100 ms a strip frame, equal frames in a row merged into one longer frame), one frame when it is still (Cape Provider gif)",
    ok: fileResponse('image/gif', 'The picture'),
  },
  elytra: {
    summary: "A player's elytra: the cape texture, read at its elytra region (CustomSkinLoader Legacy's elytra URL)",
    ok: fileResponse('image/png', 'The picture'),
  },
  minecraftCapesApi: {
    summary:
      "A player's still cape as CustomSkinLoader's MinecraftCapesAPI reads it ({root}{uuid} with the root /csl-minecraftcapes/): the PNG in base64 under textures.cape",
    ok: base64CapeSchema,
  },
};

/** Whether a request path belongs to the mod API (the game's hot path: logged only when it fails or is slow). */
export function isModApiPath(url: string): boolean {
  return MOD_API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/** Writing to a Fastify reply: each header of the list (name, value, …) and the status, then the body. */
const REPLY_OUTPUT: AnswerOutput<FastifyReply> = {
  head: (reply, status, headers) => {
    for (let index = 0; index < headers.length; index += 2) reply.header(headers[index]!, headers[index + 1]!);
    reply.status(status);
  },
  end: (reply, body) => void reply.send(body),
};

/** The mod API's 404, the same bytes the fast path and nginx answer. */
function notFound(reply: FastifyReply) {
  writeNotFound(REPLY_OUTPUT, reply);
  return reply;
}

/**
 * Sends an answer with the mod API's headers: 304 when the client holds it already (the fast path answers the same
 * way).
 */
function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: ModAnswer) {
  writeAnswer(REPLY_OUTPUT, reply, request.headers, answer);
  return reply;
}

/**
 * Registers GET /profile/:id (+ /cape, /ears), /textures/:hash, the picture layouts by player (MinecraftCapesAPI's
 * under /csl-minecraftcapes/ among them) and CustomSkinAPI under /csl/.
 */
export async function modRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { profiles, showing, library, imageJobs } = options;

  /** The answers of a player who has something to show, or null (unknown, or nothing to show: answered 404 alike). */
  const showingPlayer = async (id: string): Promise<CachedProfile | null> => {
    if (showing.showsNothing(id)) return null;
    const profile = await profiles.get(id);
    return profile && showsSomething(profile) ? profile : null;
  };

  /** A player's current texture by its hash, with the profile's lifetime and Last-Modified. */
  const sendCurrentTexture = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    slot: 'capeHash' | 'earsHash',
  ) => {
    const profile = await showingPlayer(id);
    const hash = profile?.[slot] ?? null;
    const bytes = hash ? await library.readRegistered(hash) : null;
    if (!profile || !hash || !bytes) return notFound(reply);
    return sendAnswer(request, reply, playerAnswer(`"${hash}"`, answersModifiedAt(profile), 'image/png', bytes));
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
      // A cached profile asked for by its uuid is answered by the fast path (server/mod/fast-path.ts) before it gets
      // here. The profile's JSON is serialized once per change (the cache keeps it as text), so it is sent as text, not
      // through the schema.
      const profile = await showingPlayer(request.params.id);
      return profile ? sendAnswer(request, reply, profileAnswer(profile)) : notFound(reply);
    },
  );

  app.get(
    '/profile/:id/cape',
    { schema: { summary: "A player's current cape", params: playerParams, response: currentTexture } },
    (request, reply) => sendCurrentTexture(request, reply, request.params.id, 'capeHash'),
  );

  app.get(
    '/profile/:id/ears',
    { schema: { summary: "A player's current ears", params: playerParams, response: currentTexture } },
    (request, reply) => sendCurrentTexture(request, reply, request.params.id, 'earsHash'),
  );

  /** A content-addressed texture file: 404 unless it is registered. */
  const sendTextureFile = async (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const hash = name.replace(/\.png$/, '');
    const bytes = isBlobKey(hash) ? await library.readRegistered(hash) : null;
    return bytes ? sendAnswer(request, reply, textureAnswer(hash, bytes)) : notFound(reply);
  };

  for (const [route, summary] of [
    [TEXTURE_ROUTE, 'A stored texture by its SHA-256 (cached for a year: the content never changes)'],
    [
      CSL_TEXTURE_ROUTE,
      'A stored texture by its SHA-256, where CustomSkinAPI reads it ({root}textures/{hash} with the root /csl/)',
    ],
  ] as const) {
    app.get(
      route,
      { schema: { summary, params: hashParams, response: { ...currentTexture, ...notModified } } },
      (request, reply) => sendTextureFile(request, reply, request.params.hash),
    );
  }

  for (const layout of Object.keys(PICTURE_ROUTES) as PictureLayout[]) {
    const { summary, ok } = PICTURE_SUMMARIES[layout];
    const response = { 200: ok, ...notModified, ...notFoundBody };
    app.get(PICTURE_ROUTES[layout], { schema: { summary, params: playerParams, response } }, async (request, reply) => {
      // A cached player's picture is answered by the fast path before it gets here.
      const profile = await showingPlayer(request.params.id);
      const source = profile ? pictureSource(profile, layout) : null;
      // The GIF is made when the player puts the cape on, as their own image work; one of a cape worn since before that
      // was the rule is made here once, charged to the player whose cape it is, never to the site.
      const bytes = profile && source ? await readPicture(library, imageJobs, source, profile.uuid) : null;
      if (!profile || !source || !bytes) return notFound(reply);
      return sendAnswer(request, reply, pictureAnswer(profile, source, bytes));
    });
  }

  app.get(
    CSL_PROFILE_ROUTE,
    {
      schema: {
        summary:
          'A player as CustomSkinAPI reads them: {"username", "cape", "elytra"} with texture hashes, read from /csl/textures/{hash}',
        params: playerParams,
        response: {
          200: z
            .object({ username: z.string(), cape: z.string().optional(), elytra: z.string().optional() })
            .meta({ id: 'CustomSkinApiProfile' }),
          ...notModified,
          ...notFoundBody,
        },
      },
    },
    async (request, reply) => {
      const profile = await showingPlayer(request.params.id);
      return profile ? sendAnswer(request, reply, cslAnswer(profile)) : notFound(reply);
    },
  );
}
