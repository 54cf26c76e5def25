// Infinite scroll over a paged gallery call: pages load as a sentinel near the bottom comes into view, until the total
// is reached.
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeApiError, errorBody, type ErrorDisplay } from '../../lib/client/api-errors';
import type { GalleryItem, GalleryPage } from './gallery-api';

/**
 * How near the viewport the sentinel starts the next page: below it while scrolling, and above it too after a jump to
 * the end (End key).
 */
const SENTINEL_MARGIN = '800px 0px 800px 0px';

/** Where the listing stands. */
export type ListStatus = 'loading' | 'ready' | 'error';

/** What the listing shows. */
export interface InfiniteGallery {
  items: GalleryItem[];
  /** How many items match (after removals), or null before the first page. */
  total: number | null;
  /** Whether at least `total` match rather than exactly (a search counts up to a cap). */
  totalCapped: boolean;
  /** loading: a page is on its way; error: the last page failed (with `error`); ready: idle. */
  status: ListStatus;
  error: ErrorDisplay | null;
  /** Whether more pages exist. */
  hasMore: boolean;
  /** Whether the page being loaded (or that failed) is the first. */
  firstPage: boolean;
  /** Messages of removals that failed, by hash (the card came back). */
  itemErrors: Record<string, ErrorDisplay>;
  /** Loads the next page (the Load more button; the sentinel calls it too). */
  loadMore: () => void;
  /** Hides an item at once and runs its delete or report; a failure brings it back with the message. */
  removeItem: (hash: string, call: () => Promise<unknown>) => void;
  /** Attach to the element near the bottom whose coming into view loads the next page. */
  sentinelRef: (element: HTMLElement | null) => void;
}

/** Pages through `fetchPage`, starting over whenever `key` changes (new filters). */
export function useInfiniteGallery(
  key: string,
  fetchPage: (page: number, signal: AbortSignal) => Promise<GalleryPage>,
): InfiniteGallery {
  // Every item received (removed ones too), the server's total at the last page and how many were hidden then.
  const [items, setItems] = useState<GalleryItem[]>([]);
  const [serverTotal, setServerTotal] = useState<{ total: number; capped: boolean; hiddenThen: number } | null>(null);
  const [perPage, setPerPage] = useState(0);
  const [exhausted, setExhausted] = useState(false);
  const [status, setStatus] = useState<ListStatus>('loading');
  const [error, setError] = useState<ErrorDisplay | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [itemErrors, setItemErrors] = useState<Record<string, ErrorDisplay>>({});
  const [sentinel, setSentinel] = useState<HTMLElement | null>(null);
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const loading = useRef(false);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const load = useCallback(async (page: number, run: number) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    loading.current = true;
    setStatus('loading');
    setError(null);
    try {
      const result = await fetchRef.current(page, abort.signal);
      if (run !== generation.current) return;
      const seen = new Set(itemsRef.current.map((item) => item.hash));
      const fresh = result.data.filter((item) => !seen.has(item.hash));
      itemsRef.current = [...itemsRef.current, ...fresh];
      setItems(itemsRef.current);
      const pageSize = result.per_page || result.data.length || 1;
      // A short page is the last; a page with nothing new (the listing shifted under us) ends the scrolling rather than
      // asking forever.
      setExhausted(fresh.length === 0 || result.data.length < pageSize);
      setServerTotal({ total: result.total, capped: result.total_capped, hiddenThen: hiddenRef.current.size });
      setPerPage(pageSize);
      setStatus('ready');
    } catch (failure) {
      if (run !== generation.current || abort.signal.aborted) return;
      setError(
        describeApiError(errorBody(failure), "We couldn't load the gallery. Check your connection and try again."),
      );
      setStatus('error');
    } finally {
      if (run === generation.current) loading.current = false;
    }
  }, []);

  // New filters: start over at page 1.
  useEffect(() => {
    const run = ++generation.current;
    itemsRef.current = [];
    setItems([]);
    setServerTotal(null);
    setExhausted(false);
    setHidden(new Set());
    setItemErrors({});
    void load(1, run);
    return () => controller.current?.abort();
  }, [key, load]);

  // Where the next unseen item sits on the server: removed items no longer count, so pages are asked for from there.
  const position = items.length - hidden.size;
  // A capped total is a lower bound until the last page arrives; then what was received is the count.
  const totalCapped = serverTotal !== null && serverTotal.capped && !exhausted;
  const total =
    serverTotal === null
      ? null
      : serverTotal.capped && exhausted
        ? position
        : Math.max(position, serverTotal.total - (hidden.size - serverTotal.hiddenThen));
  const hasMore = total === null ? true : !exhausted && (totalCapped || position < total);

  const loadMore = useCallback(() => {
    if (loading.current || !hasMore) return;
    void load(serverTotal === null ? 1 : Math.floor(position / Math.max(1, perPage)) + 1, generation.current);
  }, [hasMore, serverTotal, position, perPage, load]);

  // The sentinel: observed afresh after every page, so a sentinel still in view after a page loads asks for the next.
  useEffect(() => {
    if (!sentinel || status !== 'ready' || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: SENTINEL_MARGIN },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinel, status, hasMore, loadMore, items.length]);

  const removeItem = useCallback((hash: string, call: () => Promise<unknown>) => {
    const run = generation.current;
    setHidden((previous) => new Set(previous).add(hash));
    setItemErrors(({ [hash]: _dropped, ...rest }) => rest);
    call().catch((failure: unknown) => {
      if (run !== generation.current) return;
      setHidden((previous) => {
        const next = new Set(previous);
        next.delete(hash);
        return next;
      });
      setItemErrors((previous) => ({ ...previous, [hash]: describeApiError(errorBody(failure)) }));
    });
  }, []);

  return {
    items: hidden.size === 0 ? items : items.filter((item) => !hidden.has(item.hash)),
    total,
    totalCapped,
    status,
    error,
    hasMore,
    firstPage: serverTotal === null,
    itemErrors,
    loadMore,
    removeItem,
    sentinelRef: setSentinel,
  };
}
