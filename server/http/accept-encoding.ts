// Picks the content coding of a pre-compressed answer from the request's Accept-Encoding header (RFC 9110 §12.5.3).

/** The codings the build writes copies in, best first. */
export type PrecompressedEncoding = 'br' | 'gzip';

/** The quality the header gives each coding it names (`*` included); a missing or malformed q counts as 1. */
function qualities(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!coding) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    found.set(coding, Number.isFinite(value) ? value : 1);
  }
  return found;
}

/**
 * The coding to answer with among those available (listed best first), or null for the plain bytes: the one the header
 * rates highest above zero, a named coding before `*`, and the earlier one on a tie. No header means no coding.
 */
export function chooseEncoding(
  header: string | string[] | undefined,
  available: readonly PrecompressedEncoding[],
): PrecompressedEncoding | null {
  if (header === undefined) return null;
  const rated = qualities(Array.isArray(header) ? header.join(',') : header);
  let best: PrecompressedEncoding | null = null;
  let bestQuality = 0;
  for (const coding of available) {
    const quality = rated.get(coding) ?? rated.get('*') ?? 0;
    if (quality > bestQuality) {
      best = coding;
      bestQuality = quality;
    }
  }
  return best;
}

/** Adds `accept-encoding` to the answer's `Vary` header, keeping what is there (CORS varies on `Origin`). */
export function varyOnAcceptEncoding(reply: {
  getHeader(name: string): unknown;
  header(name: string, value: string): unknown;
}): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  const tokens = value.split(',').map((token) => token.trim().toLowerCase());
  if (tokens.includes('accept-encoding') || tokens.includes('*')) return;
  reply.header('vary', value ? `${value}, accept-encoding` : 'accept-encoding');
}
