// What every mod API answer carries: the headers, and the cache lifetimes of profiles and textures.
import { SECURITY_HEADERS } from '../http/security-headers.ts';

/** How long game clients and proxies may reuse a profile (and a player's current cape or ears). */
export const PROFILE_CACHE_CONTROL = 'public, max-age=60';
/** Textures are content-addressed: their bytes never change. */
export const TEXTURE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Headers of every mod API answer: readable from any origin, and the security headers of any non-page answer. */
export const MOD_HEADERS = { ...SECURITY_HEADERS, 'access-control-allow-origin': '*' } as const;
/** The content type of a profile. */
export const PROFILE_CONTENT_TYPE = 'application/json; charset=utf-8';
/** The route patterns of a profile and of a texture file (the fast path records its answers under them too). */
export const PROFILE_ROUTE = '/profile/:id';
export const TEXTURE_ROUTE = '/textures/:hash';
