// The security headers of every answer that is not a page: a Content-Security-Policy under which nothing may run, load
// or be framed, no MIME sniffing, and a short Referer. The pages carry their own policy (server/site/page-policy.ts).

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
