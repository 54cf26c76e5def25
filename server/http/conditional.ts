// Conditional GETs as RFC 9110 reads them, for every answer the app sends from memory (the mod API, the site's pages
// and files): the same validators give the same 304 whichever path answers, as nginx gives it for the same files.
import type { IncomingHttpHeaders } from 'node:http';

/** An entity tag in a list: an optional weak prefix and the quoted opaque tag (which may hold commas). */
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/** The opaque tag of an entity tag (its quoted part, without the weak prefix). */
function opaqueTag(etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag;
}

/** Whether an If-None-Match value names `etag` by weak comparison: `*`, or one of its listed tags, weak or strong. */
export function noneMatchNames(header: string, etag: string): boolean {
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const wanted = opaqueTag(etag);
  for (const [, tag] of header.matchAll(ENTITY_TAG)) if (tag === wanted) return true;
  return false;
}

/**
 * Whether a GET or HEAD may be answered 304: its If-None-Match names `etag`, or, without If-None-Match, its
 * If-Modified-Since is no earlier than the answer's Last-Modified (`modifiedMs`, compared in whole seconds as the
 * header carries it; null when the answer has none).
 */
export function isNotModified(headers: IncomingHttpHeaders, etag: string, modifiedMs: number | null): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return noneMatchNames(ifNoneMatch, etag);
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || modifiedMs === null) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(modifiedMs / 1000) <= Math.floor(since / 1000);
}
