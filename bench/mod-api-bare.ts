// The mod API bench's reference server: bare Fastify routes with the mod API's paths, headers and bytes, and nothing else
// (no logger, no schemas, no database). Run by bench/mod-api.ts in a process of its own: PORT, PROFILE_FILE, TEXTURES_DIR.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';

const port = Number(process.env.PORT);
const profileJson = fs.readFileSync(process.env.PROFILE_FILE!, 'utf8');
const profileEtag = `"${createHash('sha1').update(profileJson).digest('base64url')}"`;
const texturesDir = process.env.TEXTURES_DIR!;
const textures = new Map(fs.readdirSync(texturesDir).map((hash) => [hash, fs.readFileSync(path.join(texturesDir, hash))]));

const app = Fastify();
app.get<{ Params: { id: string } }>('/profile/:id', async (_request, reply) =>
  reply
    .header('cache-control', 'public, max-age=60')
    .header('etag', profileEtag)
    .header('access-control-allow-origin', '*')
    .type('application/json; charset=utf-8')
    .send(profileJson),
);
app.get<{ Params: { hash: string } }>('/textures/:hash', async (request, reply) => {
  const bytes = textures.get(request.params.hash);
  if (!bytes) return reply.status(404).send({ error: 'Not found' });
  return reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('etag', `"${request.params.hash}"`)
    .header('access-control-allow-origin', '*')
    .type('image/png')
    .send(bytes);
});
await app.listen({ port, host: '127.0.0.1' });
