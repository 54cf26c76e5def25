// The card grid of a listing: 4 cards a row (fewer on small screens), loading skeletons, the infinite-scroll sentinel
// with a Load more fallback, and the empty and error states.
import type { ReactNode } from 'react';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { GalleryCard } from './GalleryCard';
import type { InfiniteGallery } from './useInfiniteGallery';
import { countOf } from '../../lib/plural';

/** The responsive grid; columns follow the width of the listing, not the window (the sidebar takes room). */
const GRID = 'grid grid-cols-1 gap-4 @sm:grid-cols-2 @2xl:grid-cols-3 @3xl:grid-cols-4';

/** A placeholder card while a page loads. */
export function SkeletonCard() {
  return (
    <div
      className="overflow-hidden rounded-xl border border-ink-700 bg-ink-900"
      aria-hidden="true"
      data-testid="skeleton-card"
    >
      <div className="aspect-[16/9] animate-pulse bg-ink-800" />
      <div className="space-y-2 px-3 py-3">
        <div className="h-4 w-3/4 animate-pulse rounded bg-ink-700" />
        <div className="h-3 w-1/2 animate-pulse rounded bg-ink-800" />
        <div className="flex gap-3 pt-1">
          <div className="h-5 w-10 animate-pulse rounded bg-ink-800" />
          <div className="h-5 w-10 animate-pulse rounded bg-ink-800" />
        </div>
      </div>
    </div>
  );
}

/** Skeleton cards in the grid. */
export function SkeletonGrid({ count }: { count: number }) {
  return (
    <div className="@container">
      <div className={GRID}>
        {Array.from({ length: count }, (_, index) => (
          <SkeletonCard key={index} />
        ))}
      </div>
    </div>
  );
}

/** The listing with its states; `empty` is shown when nothing matches. */
export function GalleryGrid({ list, empty }: { list: InfiniteGallery; empty: ReactNode }) {
  const { items, status, error, hasMore, firstPage, total, loadMore, removeItem, itemErrors, sentinelRef } = list;
  const firstLoad = firstPage && items.length === 0;

  if (firstLoad && status === 'error') {
    return (
      <div className="card text-center" data-testid="gallery-error">
        <p className="text-lg font-bold">The gallery didn't load</p>
        <ErrorDisplay error={error} />
        <button type="button" className="btn-primary mt-4" onClick={loadMore}>
          Try again
        </button>
      </div>
    );
  }
  if (firstLoad && status === 'loading') {
    return (
      <div aria-busy="true" data-testid="gallery-loading">
        <p className="sr-only" role="status">
          Loading textures…
        </p>
        <SkeletonGrid count={8} />
      </div>
    );
  }
  if (items.length === 0 && status === 'ready' && !hasMore) return <>{empty}</>;

  return (
    <div className="@container" aria-busy={status === 'loading'}>
      <div className={GRID} data-testid="gallery-grid">
        {items.map((item, index) => (
          <GalleryCard
            key={item.hash}
            item={item}
            onRemove={removeItem}
            removeError={itemErrors[item.hash]}
            eager={index < 8}
          />
        ))}
        {status === 'loading' && Array.from({ length: 4 }, (_, index) => <SkeletonCard key={`skeleton-${index}`} />)}
      </div>
      <div
        ref={sentinelRef}
        className="mt-8 flex flex-col items-center gap-3 text-sm text-ink-300"
        data-testid="gallery-sentinel"
      >
        {status === 'error' && (
          <>
            <ErrorDisplay error={error} />
            <button type="button" className="btn-secondary" onClick={loadMore}>
              Try again
            </button>
          </>
        )}
        {status === 'ready' && hasMore && (
          <button type="button" className="btn-secondary" onClick={loadMore}>
            Load more
          </button>
        )}
        {status === 'loading' && <span role="status">Loading more textures…</span>}
        {status === 'ready' && !hasMore && (
          <p role="status" data-testid="gallery-end">
            {(total ?? items.length) === 1
              ? "That's the only texture."
              : `That's all ${countOf(total ?? items.length, 'texture')}.`}
          </p>
        )}
      </div>
    </div>
  );
}
