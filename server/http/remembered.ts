// A bounded memo for answers that depend only on a string (a request path, a header value), so a hot path works each
// one out once.

/** Remembers a function's answers by its argument, up to `max` of them (then it starts again). */
export function remembered<T>(answer: (key: string) => T, max = 4096): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let found = known.get(key);
    if (found === undefined && !known.has(key)) {
      if (known.size >= max) known.clear();
      found = answer(key);
      known.set(key, found);
    }
    return found as T;
  };
}
