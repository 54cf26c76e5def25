// The mod API's hot path: a cached profile, texture or picture is answered by the HTTP server itself, before Fastify
// sees the request. Everything else (a miss, another method, a query string, an encoded path) goes on to the routes of
// server/routes/mod.ts, which give the same answers; a test holds the two to the same status, headers and bytes.
// Each answer is recorded in the request metrics under its route's series, resolved once: two clock reads and a few
// additions per request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RequestDurations, RequestSeries } from '../http/request-durations.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import {
  CSL_PROFILE_ROUTE,
  CSL_TEXTURE_ROUTE,
  headerList,
  httpDate,
  isNotModified,
  MOD_HEADERS,
  PROFILE_CACHE_CONTROL,
  PROFILE_CONTENT_TYPE,
  PROFILE_ROUTE,
  TEXTURE_CACHE_CONTROL,
  TEXTURE_ROUTE,
} from './answers.ts';
import { cachedPicture, customSkinApiJson, parsePicturePath, PICTURE_ROUTES, pictureEtag, pictureSource, pictureType, type PictureLayout } from './layouts.ts';
import type { ProfileCache } from './profiles.ts';
import type { AnswerFiles } from './answer-files.ts';
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

/** Header lists (name, value, …) with the parts every answer of a kind shares, built once. */
const PROFILE_HEADERS = headerList({ ...MOD_HEADERS, 'cache-control': PROFILE_CACHE_CONTROL });
const TEXTURE_HEADERS = headerList({ ...MOD_HEADERS, 'cache-control': TEXTURE_CACHE_CONTROL });

/** The request metrics' series of one route's two answers. */
interface AnswerSeries {
  ok: RequestSeries;
  notModified: RequestSeries;
}

/** Sends an answer: 304 when the client holds it already, otherwise the body with its type and length; records how long it took since `startedAt`. */
function answer(
  request: IncomingMessage,
  response: ServerResponse,
  shared: string[],
  etag: string,
  modifiedAt: number | null,
  type: string,
  body: string | Buffer,
  series: AnswerSeries,
  startedAt: number,
): true {
  const validators = modifiedAt === null ? [...shared, 'etag', etag] : [...shared, 'etag', etag, 'last-modified', httpDate(modifiedAt)];
  if (isNotModified(request.headers, etag, modifiedAt)) {
    response.writeHead(304, validators);
    response.end();
    series.notModified.observe((performance.now() - startedAt) / 1000);
  } else {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    response.writeHead(200, [...validators, 'content-type', type, 'content-length', String(length)]);
    response.end(body);
    series.ok.observe((performance.now() - startedAt) / 1000);
  }
  return true;
}

/** The fast path over a profile cache and a texture library's byte cache, recording its answers in the request metrics; with answer files, it writes the profile and texture files nginx serves. */
export function modFastPath(profiles: ProfileCache, library: TextureLibrary, requests: RequestDurations, files?: AnswerFiles): FastPath {
  let stopped = false;
  let answered = 0;
  const seriesOf = (route: string): AnswerSeries => ({ ok: requests.series('GET', route, 200), notModified: requests.series('GET', route, 304) });
  const profileSeries = seriesOf(PROFILE_ROUTE);
  const textureSeries = seriesOf(TEXTURE_ROUTE);
  const cslTextureSeries = seriesOf(CSL_TEXTURE_ROUTE);
  const cslProfileSeries = seriesOf(CSL_PROFILE_ROUTE);
  const pictureSeries = Object.fromEntries(Object.entries(PICTURE_ROUTES).map(([layout, route]) => [layout, seriesOf(route)])) as Record<
    PictureLayout,
    AnswerSeries
  >;

  /** A texture file by its name (a hash, optionally with .png), when its bytes are cached. */
  const textureFile = (request: IncomingMessage, response: ServerResponse, name: string, series: AnswerSeries, startedAt: number): boolean => {
    const hash = name.endsWith('.png') ? name.slice(0, -4) : name;
    const bytes = library.cachedRegistered(hash);
    if (!bytes) return false;
    // The file is in place before the answer leaves, so nginx serves the next request for it.
    files?.writeTexture(hash, bytes);
    return answer(request, response, TEXTURE_HEADERS, `"${hash}"`, null, 'image/png', bytes, series, startedAt);
  };

  const tryAnswer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url;
    if (stopped || request.method !== 'GET' || url === undefined) return false;
    const startedAt = performance.now();
    if (url.startsWith(PROFILE_PREFIX)) {
      // Only a 32-hex lowercase uuid can be a cache key, so paths with more segments or a query string miss.
      const profile = profiles.cached(url.slice(PROFILE_PREFIX.length));
      if (!profile) return false;
      const modifiedAt = profiles.modifiedAt(profile);
      files?.writeProfile(profile.uuid, profile.json, modifiedAt);
      return answer(request, response, PROFILE_HEADERS, profile.etag, modifiedAt, PROFILE_CONTENT_TYPE, profile.json, profileSeries, startedAt);
    }
    if (url.startsWith(TEXTURE_PREFIX)) return textureFile(request, response, url.slice(TEXTURE_PREFIX.length), textureSeries, startedAt);
    if (url.startsWith(CSL_TEXTURE_PREFIX)) return textureFile(request, response, url.slice(CSL_TEXTURE_PREFIX.length), cslTextureSeries, startedAt);
    if (url.startsWith(CSL_PREFIX)) {
      if (!url.endsWith('.json')) return false;
      const profile = profiles.cachedById(url.slice(CSL_PREFIX.length, -5));
      if (!profile) return false;
      const { json, etag } = customSkinApiJson(profile);
      return answer(request, response, PROFILE_HEADERS, etag, profiles.modifiedAt(profile), PROFILE_CONTENT_TYPE, json, cslProfileSeries, startedAt);
    }
    const picture = parsePicturePath(url);
    if (!picture) return false;
    // A player without a cape is left to the routes (404), as is any picture whose bytes are not cached.
    const profile = profiles.cachedById(picture.id);
    const source = profile ? pictureSource(profile, picture.layout) : null;
    const bytes = source ? cachedPicture(library, source) : undefined;
    if (!profile || !source || !bytes) return false;
    const series = pictureSeries[picture.layout];
    return answer(request, response, PROFILE_HEADERS, pictureEtag(source), profiles.modifiedAt(profile), pictureType(source), bytes, series, startedAt);
  };
  const fastPath = (request: IncomingMessage, response: ServerResponse): boolean => {
    const done = tryAnswer(request, response);
    if (done) answered += 1;
    return done;
  };
  return Object.defineProperties(Object.assign(fastPath, { stop: () => void (stopped = true) }), { answered: { get: () => answered } }) as FastPath;
}
