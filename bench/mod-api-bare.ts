// The mod API bench's reference servers: the mod API's paths, headers and bytes, and nothing else (no logger, no
// schemas, no database, no caches to check). Run by bench/mod-api.ts and bench/mod-answers.ts, each in a process of its
// own: PORT, PROFILE_FILE, TEXTURES_DIR, and BARE=fastify (a bare Fastify route, the framework's floor) or BARE=node
// (node:http alone). Optional: KNOWN_FILE (uuids, one a line: /profile/{id} of any other id gets the mod API's 404, as
// an unknown player does) and LAST_MODIFIED (the profile's Last-Modified, as the real server sends one).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Fastify from 'fastify';
import {
  headerList,
  MOD_HEADERS,
  NOT_FOUND_BODY,
  NOT_FOUND_HEADER_LIST,
  PROFILE_CACHE_CONTROL,
  PROFILE_CONTENT_TYPE,
  TEXTURE_CACHE_CONTROL,
} from '../server/mod/answer-http.ts';

const port = Number(process.env.PORT);
const profileJson = fs.readFileSync(process.env.PROFILE_FILE!, 'utf8');
const profileEtag = `"${createHash('sha1').update(profileJson).digest('base64url')}"`;
const texturesDir = process.env.TEXTURES_DIR!;
const textures = new Map(
  fs.readdirSync(texturesDir).map((hash) => [hash, fs.readFileSync(path.join(texturesDir, hash))]),
);
/** The players with a profile, when given: every other /profile/ id is an unknown player. */
const known = process.env.KNOWN_FILE
  ? new Set(fs.readFileSync(process.env.KNOWN_FILE, 'utf8').split('\n').filter(Boolean))
  : undefined;
const lastModified: Record<string, string> = process.env.LAST_MODIFIED
  ? { 'last-modified': process.env.LAST_MODIFIED }
  : {};

if (process.env.BARE === 'node') {
  // Every answer's headers as a flat list built once, the cheapest form writeHead takes (as the real server's fast path
  // sends them): the floor is node:http at its best, not its convenient object form.
  const profileBody = Buffer.from(profileJson);
  const profileHeaders = headerList({
    ...MOD_HEADERS,
    'cache-control': PROFILE_CACHE_CONTROL,
    etag: profileEtag,
    ...lastModified,
    'content-type': PROFILE_CONTENT_TYPE,
    'content-length': String(profileBody.length),
  });
  const textureAnswers = new Map(
    [...textures].map(([hash, bytes]) => [
      hash,
      {
        bytes,
        headers: headerList({
          ...MOD_HEADERS,
          'cache-control': TEXTURE_CACHE_CONTROL,
          'content-type': 'image/png',
          etag: `"${hash}"`,
          'content-length': String(bytes.length),
        }),
      },
    ]),
  );
  http
    .createServer((request, response) => {
      const url = request.url ?? '';
      if (url.startsWith('/profile/')) {
        if (known && !known.has(url.slice('/profile/'.length)))
          return response.writeHead(404, NOT_FOUND_HEADER_LIST as string[]).end(NOT_FOUND_BODY);
        return response.writeHead(200, profileHeaders).end(profileBody);
      }
      const texture = textureAnswers.get(url.slice('/textures/'.length));
      if (!texture) return response.writeHead(404).end();
      return response.writeHead(200, texture.headers).end(texture.bytes);
    })
    .listen(port, '127.0.0.1');
} else {
  const app = Fastify();
  const profileHeaders = { ...MOD_HEADERS, ...lastModified };
  app.get<{ Params: { id: string } }>('/profile/:id', async (request, reply) => {
    if (known && !known.has(request.params.id))
      return reply.status(404).headers(MOD_HEADERS).type(PROFILE_CONTENT_TYPE).send(NOT_FOUND_BODY);
    return reply
      .headers(profileHeaders)
      .header('cache-control', PROFILE_CACHE_CONTROL)
      .header('etag', profileEtag)
      .type(PROFILE_CONTENT_TYPE)
      .send(profileJson);
  });
  app.get<{ Params: { hash: string } }>('/textures/:hash', async (request, reply) => {
    const bytes = textures.get(request.params.hash);
    if (!bytes) return reply.status(404).send({ error: 'Not found' });
    return reply
      .headers(MOD_HEADERS)
      .header('cache-control', TEXTURE_CACHE_CONTROL)
      .header('etag', `"${request.params.hash}"`)
      .type('image/png')
      .send(bytes);
  });
  await app.listen({ port, host: '127.0.0.1' });
}
