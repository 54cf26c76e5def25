// The If-None-Match forms a client or a cache may send for an answer, with the status RFC 9110 gives each (nginx gives
// the same): the tests hold every path that answers from memory, and nginx over the same files, to this one table.

/** One If-None-Match value and the status it must get on a GET of the answer whose ETag it was made from. */
export interface NoneMatchCase {
  value: string;
  status: 200 | 304;
}

/** The If-None-Match cases for an answer with the (strong) ETag `etag`. */
export function noneMatchCases(etag: string): NoneMatchCase[] {
  return [
    { value: etag, status: 304 },
    { value: `W/${etag}`, status: 304 },
    { value: `"other", ${etag}`, status: 304 },
    { value: `"other",W/${etag} , "more"`, status: 304 },
    { value: '*', status: 304 },
    { value: '"other"', status: 200 },
    { value: `"other", W/"else"`, status: 200 },
    { value: etag.slice(1, -1), status: 200 },
  ];
}
