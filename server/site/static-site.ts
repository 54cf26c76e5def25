// Serves a built site as a static host does, by its own `_redirects` and `_headers` files: pages by their clean path
// (`/help` is help.html), the rules' rewrites to the shells and redirects, files as they are (the build's brotli or
// gzip copy when the browser takes one), validators and 304s, and the 404 page. The app serves its pages with it, and
// so does any test that plays a static host: one implementation of the rules the build writes for every host.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { chooseEncoding, type PrecompressedEncoding } from '../http/accept-encoding.ts';
import { isNotModified } from '../http/conditional.ts';
import { remembered } from '../http/remembered.ts';
import { hostRuleSet, parseHeaders, parseRedirects, type HostRuleSet } from './host-rule-files.ts';
import { COPY_SUFFIXES, filesUnder } from './precompress.ts';

/** The rule files the build writes beside the pages, and the nginx include's folder; none of them is served. */
export const REDIRECTS_FILE = '_redirects';
export const HEADERS_FILE = '_headers';
export const NGINX_FOLDER = '_nginx';
export const NGINX_PAGES_FILE = `${NGINX_FOLDER}/pages.conf`;

/** Content types by extension; anything else goes as bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** One representation of a file: its bytes (pages are kept in memory) or its path, and its validators. */
interface Representation {
  file: string;
  bytes: Buffer | null;
  size: number;
  etag: string;
  lastModified: string;
  modifiedSeconds: number;
}

/** A file of the site with its compressed copies, best coding first. */
interface SiteFile {
  type: string;
  plain: Representation;
  copies: Map<PrecompressedEncoding, Representation>;
}

/** The built site as one process serves it. */
export interface StaticSite {
  /** Whether the folder holds a built site (its 404 page at least). */
  readonly built: boolean;
  /**
   * Answers a GET or HEAD the site has a page, rule or file for (or a trailing slash of one) and returns what answered
   * it as a label of few values (the page's path, the rule's source, the file's folder); null to hand it on.
   */
  answer(request: IncomingMessage, response: ServerResponse): string | null;
  /** Answers the 404 page (a plain 404 when the site is not built). */
  notFound(request: IncomingMessage, response: ServerResponse): void;
}

/**
 * A representation read from disk; pages keep their bytes, with a content ETag (the same from every process that serves
 * the build; nginx's is the file's time and size).
 */
function represent(file: string, keepBytes: boolean): Representation {
  const stat = fs.statSync(file);
  const bytes = keepBytes ? fs.readFileSync(file) : null;
  const etag = bytes
    ? `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`
    : `"${Math.floor(stat.mtimeMs / 1000).toString(16)}-${stat.size.toString(16)}"`;
  return {
    file,
    bytes,
    size: stat.size,
    etag,
    lastModified: stat.mtime.toUTCString(),
    modifiedSeconds: Math.floor(stat.mtimeMs / 1000),
  };
}

/** Whether a site path is never served as a file: the rule files, dot files, the copies' own names and pages. */
function hidden(sitePath: string): boolean {
  return (
    sitePath === `/${REDIRECTS_FILE}` ||
    sitePath === `/${HEADERS_FILE}` ||
    sitePath.startsWith(`/${NGINX_FOLDER}/`) ||
    sitePath.split('/').some((segment) => segment.startsWith('.'))
  );
}

/** Every file of the site by site path, and the pages by their clean path. */
function indexSite(siteDir: string): { files: Map<string, SiteFile>; pages: Map<string, SiteFile> } {
  const files = new Map<string, SiteFile>();
  const pages = new Map<string, SiteFile>();
  for (const full of filesUnder(siteDir)) {
    const sitePath = `/${path.relative(siteDir, full).split(path.sep).join('/')}`;
    if (hidden(sitePath) || Object.values(COPY_SUFFIXES).some((suffix) => sitePath.endsWith(suffix))) continue;
    const isPage = sitePath.endsWith('.html');
    const copies = new Map<PrecompressedEncoding, Representation>();
    for (const [encoding, suffix] of Object.entries(COPY_SUFFIXES) as Array<[PrecompressedEncoding, string]>)
      if (fs.existsSync(full + suffix)) copies.set(encoding, represent(full + suffix, isPage));
    const file: SiteFile = {
      type: CONTENT_TYPES[path.extname(full).toLowerCase()] ?? 'application/octet-stream',
      plain: represent(full, isPage),
      copies,
    };
    if (!isPage) files.set(sitePath, file);
    else pages.set(sitePath === '/index.html' ? '/' : sitePath.slice(0, -'.html'.length), file);
  }
  return { files, pages };
}

/**
 * A redirect, built once: its status, its path's rule headers as a list, and where it sends (the request's query kept
 * when `keepsQuery`).
 */
interface ReadyRedirect {
  status: number;
  ruleHeaders: string[];
  location: string;
  keepsQuery: boolean;
}

/** One representation's answer, built once: its status, its header lists (whole, and for a 304) and what it sends. */
interface ReadyAnswer {
  status: number;
  representation: Representation;
  headers: string[];
  /** The 304's headers: the same without the length (none for a 404, which has no validators). */
  notModified: string[] | null;
}

/**
 * The answers of one file by the coding they are sent in ('' for the plain bytes), and the codings it has (joined by
 * commas, as the key of the coding a request chooses).
 */
interface ReadyAnswers {
  codings: string;
  byCoding: Map<PrecompressedEncoding | '', ReadyAnswer>;
}

/** What one request path comes to, with its label: a redirect, or a file's ready answers. */
type PathAnswer = { label: string } & ({ redirect: ReadyRedirect } | { ready: ReadyAnswers });

/** Headers as the flat name, value list `writeHead` takes at least cost. */
function headerList(headers: OutgoingHttpHeaders): string[] {
  const list: string[] = [];
  for (const [name, value] of Object.entries(headers))
    for (const one of [value ?? []].flat()) list.push(name, String(one));
  return list;
}

/** A path's rule headers without its Cache-Control (the 404 page is not cached as a page is). */
function withoutCaching(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'cache-control'));
}

/**
 * A file's answers under `status` with the rule headers of its path: every representation's header lists, built now;
 * a 200 carries validators and may be answered 304.
 */
function readyAnswers(file: SiteFile, ruleHeaders: OutgoingHttpHeaders, status: number): ReadyAnswers {
  const byCoding = new Map<PrecompressedEncoding | '', ReadyAnswer>();
  const representations: Array<[PrecompressedEncoding | '', Representation]> = [['', file.plain], ...file.copies];
  for (const [coding, representation] of representations) {
    const headers: OutgoingHttpHeaders = { ...ruleHeaders, 'content-type': file.type };
    if (file.copies.size > 0) headers.vary = 'Accept-Encoding';
    if (coding) headers['content-encoding'] = coding;
    if (status === 200) {
      headers.etag = representation.etag;
      headers['last-modified'] = representation.lastModified;
    }
    const notModified = status === 200 ? headerList(headers) : null;
    headers['content-length'] = representation.size;
    byCoding.set(coding, { status, representation, headers: headerList(headers), notModified });
  }
  return { codings: [...file.copies.keys()].join(','), byCoding };
}

/** Remembers the coding chosen for each Accept-Encoding header seen, by the codings on offer. */
const chosenCodings = remembered((key: string): PrecompressedEncoding | null => {
  const [available, header] = key.split('\n', 2) as [string, string];
  return chooseEncoding(header, available ? (available.split(',') as PrecompressedEncoding[]) : []);
}, 256);

/** Sends a file's answer in the coding the request takes best (or its 304), as the request's method asks. */
function send(request: IncomingMessage, response: ServerResponse, ready: ReadyAnswers): void {
  const accepted = request.headers['accept-encoding'];
  const coding = accepted === undefined || ready.codings === '' ? null : chosenCodings(`${ready.codings}\n${accepted}`);
  const answer = ready.byCoding.get(coding ?? '')!;
  if (
    answer.notModified &&
    isNotModified(request.headers, answer.representation.etag, answer.representation.modifiedSeconds * 1000)
  ) {
    response.writeHead(304, answer.notModified);
    response.end();
    return;
  }
  response.writeHead(answer.status, answer.headers);
  const { representation } = answer;
  if (request.method === 'HEAD') response.end();
  else if (representation.bytes) response.end(representation.bytes);
  else
    fs.createReadStream(representation.file)
      .on('error', () => response.destroy())
      .pipe(response);
}

/** Opens the built site in `siteDir` (its pages are read into memory now: restart to serve a new build). */
export function openStaticSite(siteDir: string): StaticSite {
  const exists = fs.existsSync(siteDir);
  const readRules = (name: string) =>
    exists && fs.existsSync(path.join(siteDir, name)) ? fs.readFileSync(path.join(siteDir, name), 'utf8') : '';
  const rules: HostRuleSet = hostRuleSet(
    parseRedirects(readRules(REDIRECTS_FILE)),
    parseHeaders(readRules(HEADERS_FILE)),
  );
  const { files, pages } = exists ? indexSite(siteDir) : { files: new Map(), pages: new Map() };
  // The 404 page answers what the site does not have; it is not a page of its own (nginx keeps it internal).
  const notFoundPage = pages.get('/404');
  pages.delete('/404');

  /**
   * What a clean path resolves to, with its label: a page or file to send, or a redirect; null when the site has
   * nothing for it.
   */
  const resolve = (
    sitePath: string,
  ): (({ file: SiteFile } | { redirect: number; location: string }) & { label: string }) | null => {
    const rule = rules.redirect(sitePath);
    if (rule && rule.status !== 200) return { redirect: rule.status, location: rule.to, label: rule.from };
    if (rule) {
      const page = pages.get(rule.to);
      return page ? { file: page, label: rule.from } : null;
    }
    const page = pages.get(sitePath);
    if (page) return { file: page, label: sitePath };
    const file = files.get(sitePath);
    const folder = sitePath.indexOf('/', 1);
    return file ? { file, label: folder === -1 ? sitePath : `${sitePath.slice(0, folder + 1)}*` } : null;
  };

  /**
   * A file's ready answers under a path's rule headers, shared by every path with the same file and headers (every
   * `/gallery/{hash}` answers one shell).
   */
  const answersByFile = new Map<SiteFile, Map<string, ReadyAnswers>>();
  const answersFor = (file: SiteFile, ruleHeaders: OutgoingHttpHeaders): ReadyAnswers => {
    const byHeaders = answersByFile.get(file) ?? answersByFile.set(file, new Map()).get(file)!;
    const key = headerList(ruleHeaders).join('\n');
    return byHeaders.get(key) ?? byHeaders.set(key, readyAnswers(file, ruleHeaders, 200)).get(key)!;
  };

  /** What a request path (before its query) comes to, worked out once per path: null to hand it on. */
  const routePath = remembered((rawPath: string): PathAnswer | null => {
    let sitePath: string;
    try {
      sitePath = decodeURIComponent(rawPath);
    } catch {
      return null;
    }
    if (!sitePath.startsWith('/') || sitePath.includes('\0')) return null;
    const canonical = sitePath.length > 1 ? sitePath.replace(/\/+$/, '') || '/' : sitePath;
    const found = resolve(canonical);
    if (!found) return null;
    if (canonical !== sitePath) {
      const ruleHeaders = headerList(rules.headers(canonical));
      const location = rawPath.replace(/\/+$/, '');
      return { label: found.label, redirect: { status: 301, ruleHeaders, location, keepsQuery: true } };
    }
    if ('redirect' in found) {
      const ruleHeaders = headerList(rules.headers(sitePath));
      const redirect = { status: found.redirect, ruleHeaders, location: found.location, keepsQuery: false };
      return { label: found.label, redirect };
    }
    return { label: found.label, ready: answersFor(found.file, rules.headers(sitePath)) };
  });

  const notFoundAnswers = notFoundPage
    ? readyAnswers(notFoundPage, withoutCaching(rules.headers('/404.html')), 404)
    : null;

  return {
    built: notFoundPage !== undefined,
    answer(request, response) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      const url = request.url ?? '/';
      const queryAt = url.indexOf('?');
      const found = routePath(queryAt === -1 ? url : url.slice(0, queryAt));
      if (!found) return null;
      if ('redirect' in found) {
        const { status, ruleHeaders, location, keepsQuery } = found.redirect;
        const query = keepsQuery && queryAt !== -1 ? url.slice(queryAt) : '';
        response.writeHead(status, [...ruleHeaders, 'location', location + query]);
        response.end();
      } else send(request, response, found.ready);
      return found.label;
    },
    notFound(request, response) {
      if (!notFoundAnswers) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('404 Page Not Found');
        return;
      }
      send(request, response, notFoundAnswers);
    },
  };
}
