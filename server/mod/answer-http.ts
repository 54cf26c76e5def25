// What every mod API answer carries (the headers, the cache lifetimes of profiles and textures, when an answer is a
// 304) and how it is written: the fast path (a node:http response) and the routes (a Fastify reply) send an answer or
// the 404 with the same functions, so the two give the same status, headers and bytes.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import { isNotModified } from '../http/conditional.ts';
import { CUSTOM_SKIN_API_ROOT, MINECRAFT_CAPES_API_ROOT } from '../../src/lib/mod-setup.ts';

/** How long game clients and proxies may reuse a profile (and any answer found by a player's name or uuid). */
export const PROFILE_CACHE_CONTROL = 'public, max-age=60';
/** Textures are content-addressed: their bytes never change. */
export const TEXTURE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Headers of every mod API answer: readable from any origin, and the security headers of any non-page answer. */
export const MOD_HEADERS = { ...SECURITY_HEADERS, 'access-control-allow-origin': '*' } as const;
/** The content type of a profile (and of any JSON the mod API answers). */
export const PROFILE_CONTENT_TYPE = 'application/json; charset=utf-8';
/** The route patterns of a profile and of a texture file (the fast path records its answers under them too). */
export const PROFILE_ROUTE = '/profile/:id';
export const TEXTURE_ROUTE = '/textures/:hash';
/** CustomSkinAPI's texture files: `{root}textures/{hash}` under the `/csl/` root, the same files as TEXTURE_ROUTE. */
export const CSL_TEXTURE_ROUTE = `${CUSTOM_SKIN_API_ROOT}textures/:hash`;
/** CustomSkinAPI's profile: `{root}{username}.json` under the `/csl/` root. */
export const CSL_PROFILE_ROUTE = `${CUSTOM_SKIN_API_ROOT}:id.json`;

/** The path prefixes of the mod API (the game's hot path). */
export const MOD_API_PREFIXES = [
  '/profile/',
  '/textures/',
  '/capes/',
  '/elytras/',
  '/csl/',
  MINECRAFT_CAPES_API_ROOT,
] as const;

/** Headers as the flat list (name, value, …) writeHead takes at its cheapest, built once for every answer of a kind. */
export function headerList(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat();
}

/** An HTTP date (Last-Modified) from milliseconds since the epoch. */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

/** One answer of the mod API: its validators, its shared headers (as a flat list), its type and body. */
export interface ModAnswer {
  etag: string;
  /** Last-Modified (ms since the epoch), or null for content-addressed files. */
  modifiedAt: number | null;
  /** The headers every answer of its kind carries (PROFILE_HEADER_LIST or TEXTURE_HEADER_LIST). */
  headers: readonly string[];
  type: string;
  body: string | Buffer;
  /** The headers of its 200, when made once for every request of an answer that is kept (a texture's). */
  okHeaders?: string[];
}

/** The headers of every answer found by a player (profiles, CustomSkinAPI, pictures, current textures). */
export const PROFILE_HEADER_LIST: readonly string[] = headerList({
  ...MOD_HEADERS,
  'cache-control': PROFILE_CACHE_CONTROL,
});
/** The headers of every content-addressed texture. */
export const TEXTURE_HEADER_LIST: readonly string[] = headerList({
  ...MOD_HEADERS,
  'cache-control': TEXTURE_CACHE_CONTROL,
});

/** The body of every mod API 404 (nginx's configuration answers misses with the same bytes). */
export const NOT_FOUND_BODY = '{"error":"Not found"}';
/** The headers of every mod API 404. */
export const NOT_FOUND_HEADER_LIST: readonly string[] = headerList({
  ...MOD_HEADERS,
  'content-type': PROFILE_CONTENT_TYPE,
  'content-length': String(NOT_FOUND_BODY.length),
});

/** Each cached texture's answer, made once while its bytes are held. */
const textureAnswers = new WeakMap<Buffer, { hash: string; answer: ModAnswer }>();

/** A content-addressed texture's answer, with its 200 headers made once per cached copy of its bytes. */
export function textureAnswer(hash: string, bytes: Buffer): ModAnswer {
  const kept = textureAnswers.get(bytes);
  if (kept?.hash === hash) return kept.answer;
  const answer: ModAnswer = {
    etag: `"${hash}"`,
    modifiedAt: null,
    headers: TEXTURE_HEADER_LIST,
    type: 'image/png',
    body: bytes,
  };
  answer.okHeaders = okHeaders(answer, validatorHeaders(answer));
  textureAnswers.set(bytes, { hash, answer });
  return answer;
}

/** An answer found by a player, changed when they last changed (`modifiedAt`). */
export function playerAnswer(etag: string, modifiedAt: number, type: string, body: string | Buffer): ModAnswer {
  return { etag, modifiedAt, headers: PROFILE_HEADER_LIST, type, body };
}

/** An answer's shared headers with its validators (ETag, and Last-Modified when it has one). */
function validatorHeaders(answer: ModAnswer): string[] {
  return answer.modifiedAt === null
    ? [...answer.headers, 'etag', answer.etag]
    : [...answer.headers, 'etag', answer.etag, 'last-modified', httpDate(answer.modifiedAt)];
}

/** The headers of an answer's 200: its validators, type and length. */
function okHeaders(answer: ModAnswer, validators: string[]): string[] {
  const length = typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.length;
  return [...validators, 'content-type', answer.type, 'content-length', String(length)];
}

/**
 * What an answer is sent as: 304 with its headers and validators when the client holds it, else 200 with its type,
 * length and body.
 */
export function answerToSend(
  request: IncomingHttpHeaders,
  answer: ModAnswer,
): { status: 200 | 304; headers: string[]; body: string | Buffer | null } {
  if (isNotModified(request, answer.etag, answer.modifiedAt))
    return { status: 304, headers: validatorHeaders(answer), body: null };
  return { status: 200, headers: answer.okHeaders ?? okHeaders(answer, validatorHeaders(answer)), body: answer.body };
}

/**
 * How to write to one kind of response: its status and headers (a flat list: name, value, …), then its body. Kept as
 * two plain functions taking the response, so no object is made per request.
 */
export interface AnswerOutput<Response> {
  head(response: Response, status: number, headers: string[]): void;
  end(response: Response, body: string | Buffer | undefined): void;
}

/** Writing to a node:http response, as the fast path does: the header list goes to writeHead as it is. */
export const NODE_RESPONSE_OUTPUT: AnswerOutput<ServerResponse> = {
  head: (response, status, headers) => void response.writeHead(status, headers),
  end: (response, body) => void response.end(body),
};

/** Writes an answer (304 when the request holds it already, else 200 with its body); returns the status written. */
export function writeAnswer<Response>(
  output: AnswerOutput<Response>,
  response: Response,
  requestHeaders: IncomingHttpHeaders,
  answer: ModAnswer,
): 200 | 304 {
  const { status, headers, body } = answerToSend(requestHeaders, answer);
  output.head(response, status, headers);
  output.end(response, body ?? undefined);
  return status;
}

/** Writes the mod API's 404, the same bytes from the fast path, the routes and nginx. */
export function writeNotFound<Response>(output: AnswerOutput<Response>, response: Response): void {
  output.head(response, 404, NOT_FOUND_HEADER_LIST as string[]);
  output.end(response, NOT_FOUND_BODY);
}
