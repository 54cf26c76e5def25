// Serves the built site: assets, the pages of the route table (dynamic ones from their static shells), /download and
// the 404 page, each as the build's brotli or gzip copy when the browser takes one (server/site/precompress.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import { findRoute, normalizePath } from '../../src/lib/routes.ts';
import { chooseEncoding, varyOnAcceptEncoding, type PrecompressedEncoding } from '../http/accept-encoding.ts';
import { isApiRequest, requestPath } from '../http/request-path.ts';
import { emptyResponse, type ZodTypeProvider } from '../http/route-schemas.ts';
import { COPY_SUFFIXES } from '../site/precompress.ts';
import type { AppContext } from '../operations/app-context.ts';

/** A built page in memory: its bytes and the compressed copies the build wrote beside it, best coding first. */
interface BuiltPage {
  plain: Buffer;
  copies: Map<PrecompressedEncoding, Buffer>;
  encodings: PrecompressedEncoding[];
}

/** Reads a built page and its compressed copies, or null when the page was not built. */
function readBuiltPage(file: string): BuiltPage | null {
  if (!fs.existsSync(file)) return null;
  const copies = new Map<PrecompressedEncoding, Buffer>();
  for (const [encoding, suffix] of Object.entries(COPY_SUFFIXES) as Array<[PrecompressedEncoding, string]>) {
    if (fs.existsSync(file + suffix)) copies.set(encoding, fs.readFileSync(file + suffix));
  }
  return { plain: fs.readFileSync(file), copies, encodings: [...copies.keys()] };
}

/** The built HTML file for a site path (`/` → index.html, `/help` → help.html). */
export function pageFile(siteDir: string, page: string): string {
  return path.join(siteDir, page === '/' ? 'index.html' : `${page.slice(1)}.html`);
}

/** The external download URL for `/download/:platform?/:version?`. */
export function downloadTarget(base: string, platform?: string, version?: string): string {
  const url = new URL(base);
  if (platform) url.searchParams.set('platform', platform);
  if (version) url.searchParams.set('version', version);
  return url.toString();
}

/** Registers the site: static assets, route-table pages, /download and the 404 fallback. */
export async function pageRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = options;
  const siteDir = config.siteDir;
  const pageCache = new Map<string, BuiltPage | null>();

  const readPage = (file: string): BuiltPage | null => {
    if (!pageCache.has(file)) pageCache.set(file, readBuiltPage(file));
    return pageCache.get(file)!;
  };

  // A page with compressed copies goes as the copy the browser prefers (already encoded, so @fastify/compress leaves
  // it); one without (smaller than the build's threshold, or a site built without the step) is compressed per request
  // as before.
  const sendHtml = (request: FastifyRequest, reply: FastifyReply, status: number, page: BuiltPage) => {
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (page.encodings.length === 0) return reply.send(page.plain);
    varyOnAcceptEncoding(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding'], page.encodings);
    return encoding
      ? reply.header('content-encoding', encoding).send(page.copies.get(encoding))
      : reply.send(page.plain);
  };

  const sendNotFoundPage = (request: FastifyRequest, reply: FastifyReply) => {
    const page = readPage(path.join(siteDir, '404.html'));
    return page ? sendHtml(request, reply, 404, page) : reply.status(404).type('text/plain').send('404 Page Not Found');
  };

  if (fs.existsSync(siteDir)) {
    await app.register(fastifyStatic, {
      root: siteDir,
      index: false,
      redirect: false,
      wildcard: true,
      serve: true,
      // `<file>.br` or `<file>.gz` when the browser takes it, with Content-Encoding and `Vary: accept-encoding`.
      preCompressed: true,
      // Directories (and `/`) are pages, not file listings: they fall through to the route table.
      allowedPath: (pathName) => !pathName.endsWith('/'),
      setHeaders(reply, file) {
        if (file.includes(`${path.sep}_astro${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    app.log.warn({ siteDir }, 'the site has not been built; pages will answer 404');
  }

  const toDownloadPage = { 302: emptyResponse('On to the mod download page') };
  app.get(
    '/download',
    { schema: { summary: 'The mod download page', response: toDownloadPage } },
    async (_request, reply) => reply.redirect(downloadTarget(config.downloadUrl)),
  );
  app.get(
    '/download/:platform',
    {
      schema: {
        summary: 'The mod download page for a platform',
        params: z.object({ platform: z.string() }),
        response: toDownloadPage,
      },
    },
    async (request, reply) => reply.redirect(downloadTarget(config.downloadUrl, request.params.platform)),
  );
  app.get(
    '/download/:platform/:version',
    {
      schema: {
        summary: 'The mod download page for a platform and game version',
        params: z.object({ platform: z.string(), version: z.string() }),
        response: toDownloadPage,
      },
    },
    async (request, reply) =>
      reply.redirect(downloadTarget(config.downloadUrl, request.params.platform, request.params.version)),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = requestPath(request);
    if (isApiRequest(request) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: 'Not found' });
    }
    const route = findRoute(urlPath);
    const page = route ? readPage(pageFile(siteDir, route.page)) : null;
    if (page && normalizePath(urlPath) === urlPath) return sendHtml(request, reply, 200, page);
    if (page)
      return reply.redirect(
        normalizePath(urlPath) + (request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''),
        301,
      );
    return sendNotFoundPage(request, reply);
  });
}
