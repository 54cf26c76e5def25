// The state of a paginated admin list: the page in the address (`?page=`), the answer, its error, a reload, and the
// row whose action waits for its confirm step.
import { useEffect, useRef, useState } from 'react';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';

/** The page number of a pager link or a query string (`/api/admin/bans/user?page=3`, `?page=3`); 1 when none. */
export function pageOf(url: string): number {
  return Number(new URL(url, location.origin).searchParams.get('page') ?? 1) || 1;
}

/**
 * Loads the page in the address with `load(page)`, again after `reload()`; `goTo(url)` follows a pager link and keeps
 * the page in the address. `confirming` is the key of the row whose action waits for its confirm step, and
 * `act(send)` sends that action, then clears the step and reloads the list (`busy` meanwhile).
 */
export function usePagedList<T>(load: (page: number) => Promise<T>) {
  const [page, setPage] = useState(() => pageOf(location.search));
  const [list, setList] = useState<T | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  // Moves after every change, so the list is read again.
  const [version, setVersion] = useState(0);
  // The page's one list: the loader given on the first render.
  const loader = useRef(load);

  useEffect(() => {
    loader.current(page).then(setList, (failure: unknown) => setError(describeApiError(errorBody(failure))));
  }, [page, version]);

  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const goTo = (url: string) => {
    const target = pageOf(url);
    history.pushState(null, '', `?page=${target}`);
    setConfirming(null);
    setPage(target);
  };
  const reload = () => setVersion((count) => count + 1);
  const act = async (send: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await send();
      setConfirming(null);
      reload();
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    } finally {
      setBusy(false);
    }
  };
  return { list, error, setError, reload, goTo, confirming, setConfirming, busy, act };
}
