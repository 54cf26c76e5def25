// The security headers of every answer: a Content-Security-Policy (a strict one for API answers and files, one for the
// built site's pages that allows exactly their inline scripts), no framing, no MIME sniffing, and a short Referer.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Headers every answer carries whatever it is (its Content-Security-Policy depends on what it is). */
export const BASE_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/**
 * The headers of every answer that is not a page (JSON, images, redirects): nothing in it may run, load or be framed.
 */
export const SECURITY_HEADERS = {
  ...BASE_SECURITY_HEADERS,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
} as const;

/** What a page's policy must allow besides this origin. */
export interface PageSources {
  /**
   * CSP hashes (`sha256-…`) of the build's inline scripts: Astro's island loader, the session script, small page
   * scripts.
   */
  inlineScriptHashes: readonly string[];
  /** The API's origin when the site calls an API elsewhere (PUBLIC_API_URL). */
  apiOrigin?: string | undefined;
  /** The origin texture URLs start with (PUBLIC_BASE_URL), which may differ from the one the page was loaded from. */
  textureOrigin?: string | undefined;
  /** The origin of the ad network's script when the pages show ads (PUBLIC_AD_CLIENT is set); undefined without ads. */
  adScriptOrigin?: string | undefined;
  /** Where the premium page's checkout form may post (the payment provider's origin, PAYPAL_URL). */
  checkoutOrigin?: string | undefined;
}

/** The ad network's script, frame and beacon hosts (loaded only when an ad client is configured). */
const AD_SCRIPT_SOURCES = [
  'https://pagead2.googlesyndication.com',
  'https://tpc.googlesyndication.com',
  'https://www.googletagservices.com',
  'https://adservice.google.com',
];
const AD_FRAME_SOURCES = [
  'https://googleads.g.doubleclick.net',
  'https://tpc.googlesyndication.com',
  'https://www.google.com',
];
const AD_CONNECT_SOURCES = [
  'https://pagead2.googlesyndication.com',
  'https://googleads.g.doubleclick.net',
  'https://ep1.adtrafficquality.google',
];

/**
 * The Content-Security-Policy of the site's pages: scripts from this origin and the build's inline scripts by hash (no
 * other inline script runs); styles from this origin and inline (React renders style attributes); images from anywhere
 * over HTTPS (skin and avatar services), the texture origin, object URLs (a picked file's preview) and data: URLs; the
 * tutorial video from youtube-nocookie.com; the ad network's hosts when ads are on; forms to this origin and the
 * payment checkout; never framed.
 */
export function pageContentSecurityPolicy(sources: PageSources): string {
  const ads = sources.adScriptOrigin !== undefined;
  const list = (...items: Array<string | readonly string[] | undefined | false>) =>
    items.flat().filter(Boolean).join(' ');
  return [
    "default-src 'self'",
    `script-src ${list(
      "'self'",
      sources.inlineScriptHashes.map((hash) => `'${hash}'`),
      ads && [...new Set([...AD_SCRIPT_SOURCES, sources.adScriptOrigin!])],
    )}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list("'self'", 'https:', 'data:', 'blob:', sources.textureOrigin)}`,
    "font-src 'self' data:",
    `connect-src ${list("'self'", sources.apiOrigin, sources.textureOrigin, ads && AD_CONNECT_SOURCES)}`,
    `frame-src ${list('https://www.youtube-nocookie.com', ads && AD_FRAME_SOURCES)}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${list("'self'", sources.checkoutOrigin)}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of a page of the site. */
export function pageSecurityHeaders(sources: PageSources): Record<string, string> {
  return { ...BASE_SECURITY_HEADERS, 'content-security-policy': pageContentSecurityPolicy(sources) };
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * The CSP hashes (`sha256-…`) of the inline scripts of one HTML text (scripts with a `src` or a non-JavaScript type are
 * skipped).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!) || /\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes!)) continue;
    hashes.push(`sha256-${createHash('sha256').update(body!, 'utf8').digest('base64')}`);
  }
  return hashes;
}

/** The hashes of every inline script in the built site's HTML files (none when the site has not been built). */
export function siteInlineScriptHashes(siteDir: string): string[] {
  if (!fs.existsSync(siteDir)) return [];
  const hashes = new Set<string>();
  for (const entry of fs.readdirSync(siteDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    for (const hash of inlineScriptHashes(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')))
      hashes.add(hash);
  }
  return [...hashes].sort();
}
