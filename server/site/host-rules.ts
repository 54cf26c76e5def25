// The rules a host needs to serve the built site as files, written from the route table: the dynamic routes' rewrites
// to their shells and the off-site redirects (`_redirects`, the format Netlify and Cloudflare Pages read), the headers
// of each path (`_headers`), and the same two as an nginx include. The app serves the site by the same files
// (server/site/static-site.ts), so every deploy answers alike.
import { routeByName, routes as siteRoutes, type Route } from '../../src/lib/routes.ts';
import { BASE_SECURITY_HEADERS, SECURITY_HEADERS } from '../http/security-headers.ts';

/** A page: a shared cache may keep it and revalidate it; a new build is seen within five minutes without a purge. */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
/** The build's assets: content-hashed names, kept for a year and never revalidated. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Public files without a hash in their name (an operator may replace them): always revalidated. */
export const PUBLIC_FILE_CACHE_CONTROL = 'public, max-age=0';
/** What a page's policy needs that a `<meta>` policy cannot carry: the page is never framed. */
export const PAGE_HEADER_POLICY = "frame-ancestors 'none'";
/** The folder of the build's assets. */
export const ASSETS_PREFIX = '/_astro/';

/** One `_redirects` rule: a source (`:name` one segment, `*` the rest), a destination and a status. */
export interface RedirectRule {
  from: string;
  to: string;
  status: 200 | 301 | 302;
}

/** One `_headers` block: a path pattern and the headers of every answer it matches. */
export interface HeaderRule {
  path: string;
  headers: Record<string, string>;
}

/** Everything a host needs besides the files. */
export interface HostRules {
  redirects: RedirectRule[];
  headers: HeaderRule[];
  /** The site paths of the built pages (`/` is index.html, `/help` is help.html). */
  pages: string[];
  /** The files besides the pages: folders (ending in `/`) and single files, by site path. */
  files: string[];
}

/** Whether a rule source has placeholders or a splat (a "dynamic" rule to the hosts, placed after the static ones). */
function isDynamic(source: string): boolean {
  return source.includes('*') || /(^|\/):[A-Za-z]/.test(source);
}

/** A rule source as a regular expression: `:name` is one segment, `*` the rest; groups in order. */
export function sourcePattern(source: string): RegExp {
  const escaped = source
    .split('/')
    .map((segment) => {
      if (segment === '*') return '(.*)';
      if (/^:[A-Za-z]\w*$/.test(segment)) return '([^/]+)';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/** The placeholders of a rule source in order (`*` is `splat`). */
function placeholderNames(source: string): string[] {
  return source
    .split('/')
    .filter((segment) => segment === '*' || segment.startsWith(':'))
    .map((segment) => (segment === '*' ? 'splat' : segment.slice(1)));
}

/**
 * A rule's destination with each placeholder of its source replaced by the value in the same place (longer names first,
 * so `:platform` is never read as `:p` followed by text).
 */
export function fillDestination(rule: RedirectRule, values: readonly string[]): string {
  const names = placeholderNames(rule.from).map((name, index) => [name, values[index] ?? ''] as const);
  let to = rule.to;
  for (const [name, value] of names.sort((a, b) => b[0].length - a[0].length)) to = to.replaceAll(`:${name}`, value);
  return to;
}

/** Every built page's site path: the static routes and the dynamic routes' shells, each once. */
function builtPages(routes: readonly Route[], offSite: Route): string[] {
  return [...new Set(routes.filter((route) => route !== offSite).map((route) => route.page))];
}

/**
 * The paths that give every page its caching, each page once: the pages and the shells' sources, without a page that a
 * source already matches (the hosts join the values of two matching blocks).
 */
function pagePaths(pages: readonly string[], sources: readonly string[]): string[] {
  const dynamic = sources.filter(isDynamic);
  return [...new Set([...pages, ...sources])].filter(
    (page) => dynamic.includes(page) || !dynamic.some((source) => sourcePattern(source).test(page)),
  );
}

/** The download route's redirects to the mod's download page, with the platform and version it names. */
function downloadRedirects(route: Route, downloadUrl: string): RedirectRule[] {
  const join = downloadUrl.includes('?') ? '&' : '?';
  return [
    { from: route.page, to: downloadUrl, status: 302 },
    { from: `${route.page}/:platform`, to: `${downloadUrl}${join}platform=:platform`, status: 302 },
    {
      from: `${route.page}/:platform/:version`,
      to: `${downloadUrl}${join}platform=:platform&version=:version`,
      status: 302,
    },
  ];
}

/**
 * The host rules of the site: the shells' rewrites (a built page that a placeholder would also match gets a rule of its
 * own first, since some hosts follow a rule before looking for a file), the download redirects, and the headers:
 * security headers everywhere, page caching on every page and shell path, year-long caching on the assets, and the
 * file policy on files. `publicEntries` are the names at the top of `public/` (folders end in `/`).
 */
export function siteHostRules(options: {
  downloadUrl: string;
  publicEntries: readonly string[];
  routes?: readonly Route[];
}): HostRules {
  const routes = options.routes ?? siteRoutes;
  const download = routeByName('download');
  const pages = builtPages(routes, download);
  const rewrites = new Map<string, RedirectRule>();
  for (const route of routes)
    for (const from of route.shellPaths) rewrites.set(from, { from, to: route.page, status: 200 });
  const shadowed = pages.filter((page) => [...rewrites.keys()].some((from) => sourcePattern(from).test(page)));
  const redirects = [
    ...shadowed.map((page): RedirectRule => ({ from: page, to: page, status: 200 })),
    ...[...rewrites.values()].sort((a, b) => Number(isDynamic(a.from)) - Number(isDynamic(b.from))),
    ...downloadRedirects(download, options.downloadUrl),
  ];
  const filePolicy = { 'Content-Security-Policy': SECURITY_HEADERS['content-security-policy'] };
  const pageHeaders = { 'Cache-Control': PAGE_CACHE_CONTROL };
  const headers: HeaderRule[] = [
    {
      path: '/*',
      headers: {
        'X-Content-Type-Options': BASE_SECURITY_HEADERS['x-content-type-options'],
        'X-Frame-Options': BASE_SECURITY_HEADERS['x-frame-options'],
        'Referrer-Policy': BASE_SECURITY_HEADERS['referrer-policy'],
        'Content-Security-Policy': PAGE_HEADER_POLICY,
      },
    },
    { path: `${ASSETS_PREFIX}*`, headers: { 'Cache-Control': ASSET_CACHE_CONTROL, ...filePolicy } },
    ...options.publicEntries.map((entry): HeaderRule => ({
      path: entry.endsWith('/') ? `/${entry}*` : `/${entry}`,
      headers: { 'Cache-Control': PUBLIC_FILE_CACHE_CONTROL, ...filePolicy },
    })),
    ...pagePaths(pages, [...rewrites.keys()]).map((page): HeaderRule => ({ path: page, headers: pageHeaders })),
  ];
  const files = [ASSETS_PREFIX, ...options.publicEntries.map((entry) => `/${entry}`)];
  return { redirects, headers, pages, files };
}

const GENERATED = 'Written by `npm run build` from the route table (src/lib/routes.ts); edit that, not this file.';

/** The `_redirects` file: one `from to status` line per rule, static sources before dynamic ones. */
export function renderRedirects(rules: HostRules): string {
  return [`# ${GENERATED}`, ...rules.redirects.map((rule) => `${rule.from} ${rule.to} ${rule.status}`), ''].join('\n');
}

/** The `_headers` file: each path, then its headers indented below it. */
export function renderHeaders(rules: HostRules): string {
  const lines = [`# ${GENERATED}`];
  for (const rule of rules.headers) {
    lines.push(rule.path);
    for (const [name, value] of Object.entries(rule.headers)) lines.push(`  ${name}: ${value}`);
  }
  return [...lines, ''].join('\n');
}

/** The headers an nginx location adds for a path: every `_headers` block that matches it, in order. */
function nginxHeaders(rules: HostRules, path: string): string[] {
  const combined = new Map<string, string[]>();
  for (const rule of rules.headers) {
    if (!sourcePattern(rule.path).test(path)) continue;
    for (const [name, value] of Object.entries(rule.headers))
      combined.set(name, [...(combined.get(name) ?? []), value]);
  }
  const lines: string[] = [];
  for (const [name, values] of combined)
    for (const value of values) lines.push(`    add_header ${name} ${JSON.stringify(value)} always;`);
  return lines;
}

/** An nginx location for a rule source: exact for a static one, a regular expression for a dynamic one. */
function nginxLocation(source: string): string {
  if (!isDynamic(source)) return `location = ${source}`;
  return `location ~ "${sourcePattern(source).source.replace(/\\\//g, '/')}"`;
}

/**
 * The static start of a dynamic source up to the slash before its first placeholder (`/gallery/` of `/gallery/:id`), or
 * null for a static source or one that starts with a placeholder.
 */
function staticHead(source: string): string | null {
  if (!isDynamic(source)) return null;
  const segments = source.split('/');
  const first = segments.findIndex((segment) => segment === '*' || segment.startsWith(':'));
  return first > 1 ? `${segments.slice(0, first).join('/')}/` : null;
}

/** A destination with its placeholders as the regular expression's captures (`$1`, `$2`) in the source's order. */
function nginxDestination(rule: RedirectRule): string {
  return fillDestination(
    rule,
    placeholderNames(rule.from).map((_, index) => `$${index + 1}`),
  );
}

/** The built file of a page (`/` is index.html). */
export function pageFileName(page: string): string {
  return page === '/' ? '/index.html' : `${page}.html`;
}

/**
 * The nginx include of the site, for inside the `server { }` that has the built site as its root: a location per file
 * folder, page and rule, each with the headers `_headers` gives its path; a trailing slash after any of them redirected
 * away; any other path answered by the 404 page. The dynamic rules that share a static start (`/gallery/`) sit in a
 * prefix location of it, so a shell's path is tried against its own rules' expressions only, not every rule's.
 */
export function renderNginxPages(rules: HostRules): string {
  const pageSet = new Set(rules.pages);
  const blocks = [`# ${GENERATED}`, '# Include it inside the server block whose root is the built site.', ''];
  const blockLines = (location: string, body: string[]) => [`${location} {`, ...body, '}'];
  const block = (location: string, body: string[]) => blocks.push(...blockLines(location, body));
  const pageBody = (path: string, file: string) => [
    '    charset utf-8;',
    '    gzip_static on;',
    '    gzip_vary on;',
    ...nginxHeaders(rules, path),
    `    try_files ${file} =404;`,
  ];
  for (const file of rules.files) {
    const folder = file.endsWith('/');
    block(folder ? `location ^~ ${file}` : `location = ${file}`, [
      '    gzip_static on;',
      '    gzip_vary on;',
      ...nginxHeaders(rules, folder ? `${file}x` : file),
      '    error_page 404 /404.html;',
      '    try_files $uri =404;',
    ]);
  }
  for (const page of rules.pages) block(`location = ${page}`, pageBody(page, pageFileName(page)));

  const notFound = nginxHeaders(rules, '/404.html').filter((line) => !line.includes('Cache-Control'));
  const answerNotFound = [...notFound, '    error_page 404 /404.html;', '    return 404;'];
  const served = [...rules.pages, ...rules.redirects.map((rule) => rule.from)].map((source) =>
    sourcePattern(source).source.slice(1, -1).replace(/\\\//g, '/'),
  );
  const trailingSlash = blockLines(`location ~ "^(${[...new Set(served)].join('|')})/+$"`, [
    ...notFound,
    '    return 301 $1$is_args$args;',
  ]);
  const ruleLines = (rule: RedirectRule) => {
    const sample = rule.from.replace(/:[A-Za-z]\w*/g, 'x');
    return blockLines(
      nginxLocation(rule.from),
      rule.status === 200
        ? pageBody(sample, pageFileName(rule.to))
        : [...nginxHeaders(rules, sample), `    return ${rule.status} "${nginxDestination(rule)}";`],
    );
  };
  // The dynamic rules by static start, where no other start is a prefix of it (nginx takes the longest prefix, which
  // would hide the shorter start's rules) and no file folder has it.
  const ruled = rules.redirects.filter((rule) => !pageSet.has(rule.from));
  const heads = [...new Set(ruled.map((rule) => staticHead(rule.from)).filter((head) => head !== null))];
  const groupable = new Set(
    heads.filter(
      (head) =>
        !rules.files.includes(head) &&
        !heads.some((other) => other !== head && (other.startsWith(head) || head.startsWith(other))),
    ),
  );
  const indent = (lines: string[]) => lines.map((line) => `    ${line}`);
  for (const rule of ruled) if (!groupable.has(staticHead(rule.from) ?? '')) blocks.push(...ruleLines(rule));
  for (const head of groupable)
    block(`location ^~ ${head}`, [
      ...indent(ruled.filter((rule) => staticHead(rule.from) === head).flatMap(ruleLines)),
      ...indent(trailingSlash),
      ...answerNotFound,
    ]);
  blocks.push(...trailingSlash);
  block('location /', answerNotFound);
  block('location = /404.html', [
    '    internal;',
    '    charset utf-8;',
    '    gzip_static on;',
    '    gzip_vary on;',
    ...notFound,
  ]);
  return [...blocks, ''].join('\n');
}
