// The pages' Content-Security-Policy, as Astro's `security.csp` writes it into every page's `<meta http-equiv>` at
// build time (the hashes of its own scripts and of the session script added), so the policy travels with the page to
// any host. The one directive a meta policy cannot carry, `frame-ancestors`, goes in the host rules' headers.
import { createHash } from 'node:crypto';
import type { Config } from '../config/index.ts';
import { SESSION_SCRIPT } from '../../src/lib/session-script.ts';

/** What the policy allows besides the page's own origin. */
export type PagePolicySources = Pick<Config, 'apiOrigin' | 'adScriptOrigin' | 'publicBaseUrl'> & {
  premium: { paypal: { url: string } };
};

/** The `security.csp` setting of Astro's configuration. */
export interface AstroCspSetting {
  algorithm: 'SHA-256';
  directives: string[];
  scriptDirective: { resources: string[]; hashes: string[] };
  styleDirective: { resources: string[] };
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

/** The CSP hash (`sha256-…`) of an inline script's text. */
export function scriptHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/**
 * The pages' policy: scripts from this origin, Astro's own inline scripts and the session script by hash (no other
 * inline script runs) and the ad network when ads are on; styles from this origin and inline (React renders style
 * attributes); images from anywhere over HTTPS (skin and avatar services), the texture origin, object URLs (a picked
 * file's preview) and data: URLs; calls to this origin, the API and the texture origin; the tutorial video from
 * youtube-nocookie.com; forms to this origin and the payment checkout; no plugins; the base URL this origin.
 */
export function astroCspSetting(sources: PagePolicySources): AstroCspSetting {
  const ads = sources.adScriptOrigin !== undefined;
  const textureOrigin = new URL(sources.publicBaseUrl).origin;
  const list = (...items: Array<string | readonly string[] | undefined | false>) =>
    [...new Set(items.flat().filter((item): item is string => Boolean(item)))].join(' ');
  return {
    algorithm: 'SHA-256',
    directives: [
      "default-src 'self'",
      `img-src ${list("'self'", 'https:', 'data:', 'blob:', textureOrigin)}`,
      "font-src 'self' data:",
      `connect-src ${list("'self'", sources.apiOrigin, textureOrigin, ads && AD_CONNECT_SOURCES)}`,
      `frame-src ${list('https://www.youtube-nocookie.com', ads && AD_FRAME_SOURCES)}`,
      "object-src 'none'",
      "base-uri 'self'",
      `form-action ${list("'self'", new URL(sources.premium.paypal.url).origin)}`,
    ],
    scriptDirective: {
      resources: ["'self'", ...(ads ? [...new Set([...AD_SCRIPT_SOURCES, sources.adScriptOrigin!])] : [])],
      hashes: [scriptHash(SESSION_SCRIPT)],
    },
    styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
  };
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const META_POLICY = /<meta\s+http-equiv="content-security-policy"\s+content="([^"]*)"/i;

/**
 * The inline scripts of a built page that its own `<meta>` policy does not allow (their hashes), or every one when the
 * page has no policy: a build with any is refused.
 */
export function scriptsOutsidePolicy(html: string): string[] {
  const policy = META_POLICY.exec(html)?.[1]?.replaceAll('&#39;', "'") ?? '';
  const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1]?.split(/\s+/) ?? [];
  const outside: string[] = [];
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (
      /\bsrc\s*=/i.test(attributes!) ||
      /\btype\s*=\s*["']?(application\/(ld\+)?json|speculationrules)/i.test(attributes!)
    )
      continue;
    const hash = scriptHash(body!);
    if (!scriptSources.includes(`'${hash}'`)) outside.push(hash);
  }
  return outside;
}
