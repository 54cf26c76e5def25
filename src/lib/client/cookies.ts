// The browser cookie helper: durations with units, safe defaults and forbidden names.

const SECOND = 1;
const UNIT_SECONDS: Record<string, number> = {
  y: 360 * 86400,
  m: 30 * 86400,
  d: 86400,
  h: 3600,
  min: 60,
  s: SECOND,
};

const FORBIDDEN_NAMES = ['expires', 'max-age', 'path', 'domain', 'secure', 'samesite'];

/** Options for setting a cookie. */
export interface CookieOptions {
  /** A duration such as `1d`, `12h`, `30min`, `2y`, or a number of seconds. Default `1d`. */
  expires?: string | number;
  path?: string;
  domain?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
  secure?: boolean;
}

/** Converts a duration such as `1d`, `3h`, `10min`, `2m` (months) or `1y` into seconds. */
export function durationToSeconds(duration: string | number): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0) throw new Error(`Invalid cookie duration: ${duration}`);
    return Math.floor(duration);
  }
  const match = /^(\d+)\s*(y|m|d|h|min|s)$/.exec(duration.trim());
  if (!match) throw new Error(`Invalid cookie duration: ${duration}`);
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}

/** Whether a name may be used as a cookie name (attribute names are forbidden). */
export function isAllowedCookieName(name: string): boolean {
  return (
    name.length > 0 && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) && !FORBIDDEN_NAMES.includes(name.toLowerCase())
  );
}

/** Builds a `document.cookie` assignment string; `now` is injectable for tests. */
export function serializeCookie(
  name: string,
  value: string,
  options: CookieOptions = {},
  now: Date = new Date(),
): string {
  if (!isAllowedCookieName(name)) throw new Error(`Forbidden cookie name: ${name}`);
  const seconds = durationToSeconds(options.expires ?? '1d');
  const expires = new Date(now.getTime() + seconds * 1000);
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `expires=${expires.toUTCString()}`,
    `max-age=${seconds}`,
    `path=${options.path ?? '/'}`,
  ];
  if (options.domain) parts.push(`domain=${options.domain}`);
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`);
  if (options.secure) parts.push('secure');
  return parts.join('; ');
}

/** Reads one cookie's decoded value from a `document.cookie` style string. */
export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const pair of cookieHeader.split(';')) {
    const index = pair.indexOf('=');
    if (index < 0) continue;
    if (pair.slice(0, index).trim() !== name) continue;
    const raw = pair.slice(index + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** Reads a cookie in the browser. */
export function getCookie(name: string): string | undefined {
  return typeof document === 'undefined' ? undefined : readCookie(document.cookie, name);
}

/** Sets a cookie in the browser. */
export function setCookie(name: string, value: string, options?: CookieOptions): void {
  document.cookie = serializeCookie(name, value, options);
}
