// The mod API's hot path: a cached profile, texture or picture, and a player known to have nothing to show (404), are
// answered by the HTTP server itself, before Fastify; everything else goes on to server/routes/mod.ts, which gives the
// same answers from the same builders (a test holds the two to the same status, headers and bytes).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RequestDurations, RequestSeries } from '../http/request-durations.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import {
  NODE_RESPONSE_OUTPUT,
  writeAnswer,
  writeNotFound,
  CSL_PROFILE_ROUTE,
  CSL_TEXTURE_ROUTE,
  PROFILE_ROUTE,
  TEXTURE_ROUTE,
  textureAnswer,
  type ModAnswer,
} from './answer-http.ts';
import {
  cachedPicture,
  parsePicturePath,
  PICTURE_ROUTES,
  pictureAnswer,
  pictureSource,
  type PictureLayout,
} from './layouts.ts';
import { cslAnswer, profileAnswer, showsSomething, type PlayerAnswers } from './player-answers.ts';
import type { ProfileCache } from './profiles.ts';
import type { ShowingPlayers } from './showing-players.ts';
import { CUSTOM_SKIN_API_ROOT } from '../../src/lib/mod-setup.ts';

/** Answers a request if it can; returns false to hand it on. */
export type FastPath = ((request: IncomingMessage, response: ServerResponse) => boolean) & {
  /** Hands every request on from now on (the app is closing: Fastify answers with its shutdown behaviour). */
  stop(): void;
  /** How many requests it has answered. */
  readonly answered: number;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The mod API's fast path in front of the app's routes. */
    modFastPath: FastPath;
  }
}

const PROFILE_PREFIX = '/profile/';
const TEXTURE_PREFIX = '/textures/';
const CSL_TEXTURE_PREFIX = `${CUSTOM_SKIN_API_ROOT}textures/`;
const CSL_PREFIX = CUSTOM_SKIN_API_ROOT;

/** The request metrics' series of one route's answers. */
interface AnswerSeries {
  ok: RequestSeries;
  notModified: RequestSeries;
  notFound: RequestSeries;
}

/** Sends an answer (304 when the client holds it already); records how long it took since `startedAt`. */
function send(
  request: IncomingMessage,
  response: ServerResponse,
  answer: ModAnswer,
  series: AnswerSeries,
  startedAt: number,
): true {
  const status = writeAnswer(NODE_RESPONSE_OUTPUT, response, request.headers, answer);
  (status === 200 ? series.ok : series.notModified).observe((performance.now() - startedAt) / 1000);
  return true;
}

/** Answers 404 to a player known to have nothing to show, as the routes do; records it. */
function sendNotFound(response: ServerResponse, series: AnswerSeries, startedAt: number): true {
  writeNotFound(NODE_RESPONSE_OUTPUT, response);
  series.notFound.observe((performance.now() - startedAt) / 1000);
  return true;
}

/**
 * The fast path over a profile cache, the players who have something to show and a texture library's byte cache. A
 * player not cached yet, another method, a query string or an encoded path goes on to the routes. Each answer is
 * recorded in the request metrics under its route's series, resolved once: two clock reads and a few additions.
 */
export function modFastPath(
  profiles: ProfileCache,
  showing: ShowingPlayers,
  library: TextureLibrary,
  requests: RequestDurations,
): FastPath {
  let stopped = false;
  let answered = 0;
  const seriesOf = (route: string): AnswerSeries => ({
    ok: requests.series('GET', route, 200),
    notModified: requests.series('GET', route, 304),
    notFound: requests.series('GET', route, 404),
  });
  const profileSeries = seriesOf(PROFILE_ROUTE);
  const textureSeries = seriesOf(TEXTURE_ROUTE);
  const cslTextureSeries = seriesOf(CSL_TEXTURE_ROUTE);
  const cslProfileSeries = seriesOf(CSL_PROFILE_ROUTE);
  const pictureSeries = Object.fromEntries(
    Object.entries(PICTURE_ROUTES).map(([layout, route]) => [layout, seriesOf(route)]),
  ) as Record<PictureLayout, AnswerSeries>;

  /** A texture file by its name (a hash, optionally with .png), when its bytes are cached. */
  const textureFile = (
    request: IncomingMessage,
    response: ServerResponse,
    name: string,
    series: AnswerSeries,
    startedAt: number,
  ): boolean => {
    const hash = name.endsWith('.png') ? name.slice(0, -4) : name;
    const bytes = library.cachedRegistered(hash);
    return bytes ? send(request, response, textureAnswer(hash, bytes), series, startedAt) : false;
  };

  const cachedByUuid = (id: string) => profiles.cached(id);
  const cachedById = (id: string) => profiles.cachedById(id);
  /**
   * A player's JSON answer (a profile or a CustomSkinAPI profile): the 404 of a player known to show nothing, the
   * answer of a cached player, or false (not cached) for the routes.
   */
  const playerFile = (
    request: IncomingMessage,
    response: ServerResponse,
    id: string,
    cached: (id: string) => PlayerAnswers | undefined,
    answer: (profile: PlayerAnswers) => ModAnswer,
    series: AnswerSeries,
    startedAt: number,
  ): boolean => {
    if (showing.showsNothing(id)) return sendNotFound(response, series, startedAt);
    const profile = cached(id);
    if (!profile) return false;
    return showsSomething(profile)
      ? send(request, response, answer(profile), series, startedAt)
      : sendNotFound(response, series, startedAt);
  };

  const tryAnswer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url;
    if (stopped || request.method !== 'GET' || url === undefined) return false;
    const startedAt = performance.now();
    if (url.startsWith(PROFILE_PREFIX))
      // Only a 32-hex lowercase uuid can be a cache key, so paths with more segments or a query string miss.
      return playerFile(
        request,
        response,
        url.slice(PROFILE_PREFIX.length),
        cachedByUuid,
        profileAnswer,
        profileSeries,
        startedAt,
      );
    if (url.startsWith(TEXTURE_PREFIX))
      return textureFile(request, response, url.slice(TEXTURE_PREFIX.length), textureSeries, startedAt);
    if (url.startsWith(CSL_TEXTURE_PREFIX))
      return textureFile(request, response, url.slice(CSL_TEXTURE_PREFIX.length), cslTextureSeries, startedAt);
    if (url.startsWith(CSL_PREFIX)) {
      if (!url.endsWith('.json')) return false;
      const id = url.slice(CSL_PREFIX.length, -5);
      return playerFile(request, response, id, cachedById, cslAnswer, cslProfileSeries, startedAt);
    }
    const picture = parsePicturePath(url);
    if (!picture) return false;
    const series = pictureSeries[picture.layout];
    if (showing.showsNothing(picture.id)) return sendNotFound(response, series, startedAt);
    // A player without a cape is left to the routes (404), as is any picture whose bytes are not cached.
    const profile = profiles.cachedById(picture.id);
    const source = profile ? pictureSource(profile, picture.layout) : null;
    const bytes = source ? cachedPicture(library, source) : undefined;
    if (!profile || !source || !bytes) return false;
    return send(request, response, pictureAnswer(profile, source, bytes), series, startedAt);
  };
  const fastPath = (request: IncomingMessage, response: ServerResponse): boolean => {
    const done = tryAnswer(request, response);
    if (done) answered += 1;
    return done;
  };
  return Object.defineProperties(Object.assign(fastPath, { stop: () => void (stopped = true) }), {
    answered: { get: () => answered },
  }) as FastPath;
}
