// The state of a paginated admin list: the page in the address (`?page=`), the answer, its error, and a reload.
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';

/** The page number of a pager link or a query string (`/api/admin/bans/user?page=3`, `?page=3`); 1 when none. */
export function pageOf(url: string): number {
  return Number(new URL(url, location.origin).searchParams.get('page') ?? 1) || 1;
}

/**
 * Loads `path?page=N` for the page in the address, again after `reload()`; `goTo(url)` follows a pager link and keeps
 * the page in the address. Returns the answer (null while loading), the error shown, and those two actions.
 */
export function usePagedList<T>(path: string) {
  const [page, setPage] = useState(() => pageOf(location.search));
  const [list, setList] = useState<T | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  // Moves after every change, so the list is read again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    api<T>(path, { query: { page } }).then(setList, (failure: unknown) => setError(describeApiError(errorBody(failure))));
  }, [path, page, version]);

  const goTo = (url: string) => {
    const target = pageOf(url);
    history.pushState(null, '', `?page=${target}`);
    setPage(target);
  };
  return { list, error, setError, reload: () => setVersion((count) => count + 1), goTo };
}
