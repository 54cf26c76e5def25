// The mod API bench's reference servers: the mod API's paths, headers and bytes, and nothing else (no logger, no
// schemas, no database, no caches to check). Run by bench/mod-api.ts, each in a process of its own: PORT, PROFILE_FILE,
// TEXTURES_DIR, and BARE=fastify (a bare Fastify route, the framework's floor) or BARE=node (node:http alone).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Fastify from 'fastify';
import { MOD_HEADERS, PROFILE_CACHE_CONTROL, PROFILE_CONTENT_TYPE, TEXTURE_CACHE_CONTROL } from '../server/mod/answers.ts';

const port = Number(process.env.PORT);
const profileJson = fs.readFileSync(process.env.PROFILE_FILE!, 'utf8');
const profileEtag = `"${createHash('sha1').update(profileJson).digest('base64url')}"`;
const texturesDir = process.env.TEXTURES_DIR!;
const textures = new Map(fs.readdirSync(texturesDir).map((hash) => [hash, fs.readFileSync(path.join(texturesDir, hash))]));

if (process.env.BARE === 'node') {
  const profileHeaders = { ...MOD_HEADERS, 'cache-control': PROFILE_CACHE_CONTROL, etag: profileEtag, 'content-type': PROFILE_CONTENT_TYPE };
  const textureHeaders = { ...MOD_HEADERS, 'cache-control': TEXTURE_CACHE_CONTROL, 'content-type': 'image/png' };
  http
    .createServer((request, response) => {
      const url = request.url ?? '';
      if (url.startsWith('/profile/')) {
        response.writeHead(200, { ...profileHeaders, 'content-length': Buffer.byteLength(profileJson) });
        return response.end(profileJson);
      }
      const hash = url.slice('/textures/'.length);
      const bytes = textures.get(hash);
      if (!bytes) return response.writeHead(404).end();
      response.writeHead(200, { ...textureHeaders, etag: `"${hash}"`, 'content-length': bytes.length });
      return response.end(bytes);
    })
    .listen(port, '127.0.0.1');
} else {
  const app = Fastify();
  app.get<{ Params: { id: string } }>('/profile/:id', async (_request, reply) =>
    reply.headers(MOD_HEADERS).header('cache-control', PROFILE_CACHE_CONTROL).header('etag', profileEtag).type(PROFILE_CONTENT_TYPE).send(profileJson),
  );
  app.get<{ Params: { hash: string } }>('/textures/:hash', async (request, reply) => {
    const bytes = textures.get(request.params.hash);
    if (!bytes) return reply.status(404).send({ error: 'Not found' });
    return reply.headers(MOD_HEADERS).header('cache-control', TEXTURE_CACHE_CONTROL).header('etag', `"${request.params.hash}"`).type('image/png').send(bytes);
  });
  await app.listen({ port, host: '127.0.0.1' });
}
