// The banner URL rules for the banner cape creator: which banner editor a URL comes from, its banner id, and the
// message for any other URL.

/**
 * The banner editors a banner cape can be made from: `lmc` the LivzMC editor (OptiFine's banner format), `pmc` Planet
 * Minecraft's.
 */
export type BannerService = 'lmc' | 'pmc';

/** Every banner editor, in the order the API path names them. */
export const BANNER_SERVICES: readonly BannerService[] = ['lmc', 'pmc'];

/**
 * The bare host names of each banner editor (the `www.` form of each is accepted too).
 * LivzMC hosts OptiFine's banner editor and reads OptiFine's banner codes (README of github.com/LivzMC/website,
 * and its src/routes/BannerRoute.ts reads `optifine.net/banners` results), so optifine.net is its related host:
 * an OptiFine `showBanner?format=…` link carries the same code.
 */
export const BANNER_SERVICE_HOSTS: Readonly<Record<BannerService, readonly string[]>> = {
  lmc: ['livzmc.net', 'optifine.net'],
  pmc: ['planetminecraft.com'],
};

/** A banner id: letters and digits only. */
const BANNER_ID_PATTERN = /^[A-Za-z0-9]+$/;

/**
 * The host name of a pasted URL (lower case, no trailing dot), or null when it is not an http(s) URL; a URL without a
 * scheme is read as https.
 */
function hostNameOf(url: string): string | null {
  const text = url.trim();
  if (text === '') return null;
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) ? text : `https://${text}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return parsed.hostname.toLowerCase().replace(/\.$/, '');
}

/**
 * Which banner editor a URL belongs to, by its parsed host name (a listed host or its `www.` form); null for any other
 * host.
 */
export function bannerServiceFromUrl(url: string): BannerService | null {
  const host = hostNameOf(url);
  if (host === null) return null;
  const bareHost = host.startsWith('www.') ? host.slice('www.'.length) : host;
  for (const service of BANNER_SERVICES) {
    if (BANNER_SERVICE_HOSTS[service].includes(bareHost)) return service;
  }
  return null;
}

/**
 * The banner id of a URL: the text after the first `=` up to any `&`; null when there is no `=` or the id is not only
 * letters and digits.
 */
export function bannerIdFromUrl(url: string): string | null {
  const equals = url.indexOf('=');
  if (equals < 0) return null;
  const rest = url.slice(equals + 1);
  const ampersand = rest.indexOf('&');
  const id = ampersand < 0 ? rest : rest.slice(0, ampersand);
  return BANNER_ID_PATTERN.test(id) ? id : null;
}

/** The message shown for a URL of no supported banner editor (word for word). */
export function unsupportedBannerMessage(url: string): string {
  return `${url} has not yet been implemented. Join our discord to request this service!`;
}
