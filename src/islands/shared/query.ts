// Reading and cleaning the page's query string.
import { isSafeRef } from '../../lib/routes';

/** The `ref` query parameter when it is a path on this site, else undefined. */
export function currentRef(): string | undefined {
  const ref = new URLSearchParams(location.search).get('ref');
  return isSafeRef(ref) ? ref : undefined;
}

/** Removes query parameters from the address bar without reloading. */
export function dropQueryParams(...names: string[]): void {
  const url = new URL(location.href);
  names.forEach((name) => url.searchParams.delete(name));
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

/** Sets one query parameter in the address bar without reloading. */
export function setQueryParam(name: string, value: string): void {
  const url = new URL(location.href);
  url.searchParams.set(name, value);
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}
