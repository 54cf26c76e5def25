// The mod API's hot path: a cached profile or texture is answered by the HTTP server itself, before Fastify sees the
// request. Everything else (a miss, another method, a query string, an encoded path) goes on to the routes of
// server/routes/mod.ts, which give the same answers; a test holds the two to the same status, headers and bytes.
// Each answer is recorded in the request metrics under its route's series, resolved once: two clock reads and a few
// additions per request, nothing allocated.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RequestDurations, RequestSeries } from '../metrics.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { MOD_HEADERS, PROFILE_CACHE_CONTROL, PROFILE_CONTENT_TYPE, PROFILE_ROUTE, TEXTURE_CACHE_CONTROL, TEXTURE_ROUTE } from './answers.ts';
import type { ProfileCache } from './profiles.ts';

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

/** Header lists (name, value, …) with the parts every answer of a kind shares, built once. */
function headerList(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat();
}
const PROFILE_HEADERS = headerList({ ...MOD_HEADERS, 'cache-control': PROFILE_CACHE_CONTROL });
const TEXTURE_HEADERS = headerList({ ...MOD_HEADERS, 'cache-control': TEXTURE_CACHE_CONTROL });

/** The request metrics' series of one route's two answers. */
interface AnswerSeries {
  ok: RequestSeries;
  notModified: RequestSeries;
}

/** Sends an answer: 304 when the client holds the ETag already, otherwise the body with its type and length; records how long it took since `startedAt`. */
function answer(
  request: IncomingMessage,
  response: ServerResponse,
  shared: string[],
  etag: string,
  type: string,
  body: string | Buffer,
  series: AnswerSeries,
  startedAt: number,
): true {
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, [...shared, 'etag', etag]);
    response.end();
    series.notModified.observe((performance.now() - startedAt) / 1000);
  } else {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    response.writeHead(200, [...shared, 'etag', etag, 'content-type', type, 'content-length', String(length)]);
    response.end(body);
    series.ok.observe((performance.now() - startedAt) / 1000);
  }
  return true;
}

/** The fast path over a profile cache and a texture library's byte cache, recording its answers in the request metrics. */
export function modFastPath(profiles: ProfileCache, library: TextureLibrary, requests: RequestDurations): FastPath {
  let stopped = false;
  let answered = 0;
  const profileSeries = { ok: requests.series('GET', PROFILE_ROUTE, 200), notModified: requests.series('GET', PROFILE_ROUTE, 304) };
  const textureSeries = { ok: requests.series('GET', TEXTURE_ROUTE, 200), notModified: requests.series('GET', TEXTURE_ROUTE, 304) };
  const tryAnswer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url;
    if (stopped || request.method !== 'GET' || url === undefined) return false;
    if (url.startsWith(PROFILE_PREFIX)) {
      const startedAt = performance.now();
      // Only a 32-hex lowercase uuid can be a cache key, so paths with more segments or a query string miss.
      const profile = profiles.cached(url.slice(PROFILE_PREFIX.length));
      return profile ? answer(request, response, PROFILE_HEADERS, profile.etag, PROFILE_CONTENT_TYPE, profile.json, profileSeries, startedAt) : false;
    }
    if (url.startsWith(TEXTURE_PREFIX)) {
      const startedAt = performance.now();
      const name = url.slice(TEXTURE_PREFIX.length);
      const hash = name.endsWith('.png') ? name.slice(0, -4) : name;
      const bytes = library.cachedRegistered(hash);
      return bytes ? answer(request, response, TEXTURE_HEADERS, `"${hash}"`, 'image/png', bytes, textureSeries, startedAt) : false;
    }
    return false;
  };
  const fastPath = (request: IncomingMessage, response: ServerResponse): boolean => {
    const done = tryAnswer(request, response);
    if (done) answered += 1;
    return done;
  };
  return Object.defineProperties(Object.assign(fastPath, { stop: () => void (stopped = true) }), { answered: { get: () => answered } }) as FastPath;
}
