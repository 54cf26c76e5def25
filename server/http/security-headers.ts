// The security headers of every answer: a Content-Security-Policy (a strict one for API answers and files, one for the
// built site's pages that allows exactly their inline scripts), no framing, no MIME sniffing, and a short Referer.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Headers every answer carries whatever it is. */
const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/** The headers of every answer that is not a page (JSON, images, redirects): nothing in it may run, load or be framed. */
export const SECURITY_HEADERS = {
  ...COMMON_HEADERS,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
} as const;

/**
 * The Content-Security-Policy of the site's pages: scripts from this origin and the inline scripts of the build (by
 * hash: Astro's island loader and the session script); styles from this origin and inline (React renders style
 * attributes); images from anywhere over HTTPS (skin and avatar services), object URLs (a picked file's preview) and
 * data: URLs; the tutorial video from youtube-nocookie.com.
 */
export function pageContentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  const scripts = ["'self'", ...inlineScriptHashes.map((hash) => `'${hash}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'frame-src https://www.youtube-nocookie.com',
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of a page of the site, for a build whose inline scripts have these hashes. */
export function pageSecurityHeaders(inlineScriptHashes: readonly string[]): Record<string, string> {
  return { ...COMMON_HEADERS, 'content-security-policy': pageContentSecurityPolicy(inlineScriptHashes) };
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The CSP hashes (`sha256-…`) of the inline scripts of one HTML text (scripts with a `src` or a non-JavaScript type are skipped). */
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
    for (const hash of inlineScriptHashes(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))) hashes.add(hash);
  }
  return [...hashes].sort();
}
