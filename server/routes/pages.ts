// Serves the built site: assets, the pages of the route table (dynamic ones from their static shells), /download and the 404 page.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import { findRoute, normalizePath } from '../../src/lib/routes.ts';
import type { Config } from '../config.ts';
import { isApiRequest, requestPath } from '../http/request-path.ts';
import { emptyResponse, type ZodTypeProvider } from '../http/route-schemas.ts';

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
export async function pageRoutes(instance: FastifyInstance, options: { config: Config }) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = options;
  const siteDir = config.siteDir;
  const pageCache = new Map<string, Buffer | null>();

  const readPage = (file: string): Buffer | null => {
    if (!pageCache.has(file)) pageCache.set(file, fs.existsSync(file) ? fs.readFileSync(file) : null);
    return pageCache.get(file)!;
  };

  const sendHtml = (reply: FastifyReply, status: number, html: Buffer) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);

  const sendNotFoundPage = (reply: FastifyReply) => {
    const html = readPage(path.join(siteDir, '404.html'));
    return html ? sendHtml(reply, 404, html) : reply.status(404).type('text/plain').send('404 Page Not Found');
  };

  if (fs.existsSync(siteDir)) {
    await app.register(fastifyStatic, {
      root: siteDir,
      index: false,
      redirect: false,
      wildcard: true,
      serve: true,
      // Directories (and `/`) are pages, not file listings: they fall through to the route table.
      allowedPath: (pathName) => !pathName.endsWith('/'),
      setHeaders(reply, file) {
        if (file.includes(`${path.sep}_astro${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    app.log.warn({ siteDir }, 'the site has not been built; pages will answer 404');
  }

  const toDownloadPage = { 302: emptyResponse('On to the mod download page') };
  app.get('/download', { schema: { summary: 'The mod download page', response: toDownloadPage } }, async (_request, reply) =>
    reply.redirect(downloadTarget(config.downloadUrl)),
  );
  app.get(
    '/download/:platform',
    { schema: { summary: 'The mod download page for a platform', params: z.object({ platform: z.string() }), response: toDownloadPage } },
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
    async (request, reply) => reply.redirect(downloadTarget(config.downloadUrl, request.params.platform, request.params.version)),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = requestPath(request);
    if (isApiRequest(request) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: 'Not found' });
    }
    const route = findRoute(urlPath);
    const html = route ? readPage(pageFile(siteDir, route.page)) : null;
    if (html && normalizePath(urlPath) === urlPath) return sendHtml(reply, 200, html);
    if (html) return reply.redirect(normalizePath(urlPath) + (request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''), 301);
    return sendNotFoundPage(reply);
  });
}
