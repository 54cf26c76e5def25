// /gallery: the search sidebar (title, type, tags, sort) and the infinite-scroll listing; the filters live in the URL
// query.
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import {
  cleanTitle,
  GALLERY_SEARCH_DEBOUNCE_MS,
  GALLERY_SORTS,
  GALLERY_TYPES,
  type GallerySort,
  type GalleryTypeName,
} from '../../lib/gallery-rules';
import { $user } from '../../lib/client/session';
import { BackButton } from './BackButton';
import { filtersFromSearch, searchFromFilters, type GalleryFilters } from '../../lib/gallery-query';
import { clearedFilters, hasNarrowingFilters, SORT_LABELS, TYPE_LABELS } from './filters';
import { fetchGalleryPage, userGalleryHref } from './gallery-api';
import { GalleryGrid } from './GalleryGrid';
import { PlusIcon, SearchIcon } from './icons';
import { TagChips, useTags } from './TagChips';
import { useInfiniteGallery } from './useInfiniteGallery';
import { countOf } from '../../lib/plural';

/** The gallery browser island. */
export default function GalleryBrowser() {
  const user = useStore($user);
  const tags = useTags();
  const [filters, setFilters] = useState<GalleryFilters>(() => filtersFromSearch(location.search));
  const [titleInput, setTitleInput] = useState(filters.title);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const ids = { search: useId(), sort: useId(), panel: useId() };

  // The title search waits until typing pauses.
  useEffect(() => {
    if (titleInput === filters.title) return;
    const timer = window.setTimeout(
      () => setFilters((current) => ({ ...current, title: titleInput })),
      GALLERY_SEARCH_DEBOUNCE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [titleInput, filters.title]);

  // The filters go into the address, so a reload or coming Back shows the same listing.
  useEffect(() => {
    const search = searchFromFilters(filters);
    if (search !== location.search) history.replaceState(history.state, '', location.pathname + search + location.hash);
  }, [filters]);

  // Back or forward between entries of this page reads the address again.
  useEffect(() => {
    const onPop = () => {
      const next = filtersFromSearch(location.search);
      setFilters(next);
      setTitleInput(next.title);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const key = useMemo(() => JSON.stringify(filters), [filters]);
  const fetchPage = useCallback(
    (page: number, signal: AbortSignal) => fetchGalleryPage(filters, page, signal),
    [filters],
  );
  const list = useInfiniteGallery(key, fetchPage);

  const update = (patch: Partial<GalleryFilters>) => setFilters((current) => ({ ...current, ...patch }));
  const toggleType = (name: GalleryTypeName, on: boolean) =>
    update({
      types: (Object.keys(GALLERY_TYPES) as GalleryTypeName[]).filter((type) =>
        type === name ? on : filters.types.includes(type),
      ),
    });
  const clear = () => {
    setTitleInput('');
    setFilters(clearedFilters(filters));
  };
  const narrowed = hasNarrowingFilters(filters);
  const activeCount = (filters.title ? 1 : 0) + filters.types.length + filters.tags.length;

  const empty = narrowed ? (
    <div className="card flex flex-col items-center gap-3 py-12 text-center" data-testid="gallery-empty">
      <SearchIcon className="h-10 w-10 text-ink-600" />
      <p className="text-lg font-bold">No textures match your search</p>
      <p className="max-w-sm text-sm text-ink-300">Try fewer tags or types, or a shorter title.</p>
      <button type="button" className="btn-primary mt-2" onClick={clear}>
        Clear filters
      </button>
    </div>
  ) : (
    <div className="card flex flex-col items-center gap-3 py-12 text-center" data-testid="gallery-empty">
      <p className="text-lg font-bold">No textures yet</p>
      <p className="max-w-sm text-sm text-ink-300">The gallery is empty. Be the first to share a cape or ears.</p>
      <a href="/gallery/new" className="btn-primary mt-2">
        Upload a texture
      </a>
    </div>
  );

  return (
    <div>
      <div className="mb-4">
        <BackButton fallback="/" />
      </div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 flex-[1_1_18rem]">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Official Gallery</h1>
          <p className="mt-1 text-ink-300">
            Capes and ears made by the community. Like them, download them, wear them.
          </p>
        </div>
        <a href="/gallery/new" className="btn-primary">
          <PlusIcon /> Upload a texture
        </a>
      </header>

      <div className="grid items-start gap-6 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <div className="lg:sticky lg:top-6">
          <button
            type="button"
            className="btn-secondary w-full justify-between lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls={ids.panel}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <span>Search and filters{activeCount > 0 ? ` (${activeCount})` : ''}</span>
            <span aria-hidden="true">{filtersOpen ? '▴' : '▾'}</span>
          </button>
          <aside
            id={ids.panel}
            aria-label="Search and filters"
            className={`${filtersOpen ? 'mt-3 flex' : 'hidden'} card flex-col gap-5 p-4 lg:mt-0 lg:flex`}
            data-testid="gallery-filters"
          >
            <div>
              <label htmlFor={ids.search} className="mb-1.5 block text-sm font-semibold">
                Search titles
              </label>
              <div className="relative">
                <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-ink-300" />
                <input
                  id={ids.search}
                  type="search"
                  value={titleInput}
                  onChange={(event) => setTitleInput(cleanTitle(event.target.value))}
                  placeholder="e.g. galaxy"
                  autoComplete="off"
                  className="w-full rounded-lg border border-ink-600 bg-ink-950 py-2 pr-3 pl-9 text-sm placeholder:text-ink-600 focus:border-brand-400 focus:outline-none"
                />
              </div>
            </div>

            <fieldset>
              <legend className="mb-1.5 text-sm font-semibold">Type</legend>
              <div className="flex flex-col gap-1.5">
                {(Object.keys(GALLERY_TYPES) as GalleryTypeName[]).map((name) => (
                  <label
                    key={name}
                    className="flex cursor-pointer items-center gap-2 text-sm text-ink-300 hover:text-ink-100"
                  >
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-brand-500"
                      checked={filters.types.includes(name)}
                      onChange={(event) => toggleType(name, event.target.checked)}
                    />
                    {TYPE_LABELS[name]}
                  </label>
                ))}
              </div>
            </fieldset>

            <div>
              <p className="mb-1.5 text-sm font-semibold" aria-hidden="true">
                Tags
              </p>
              <TagChips tags={tags} selected={filters.tags} onChange={(keys) => update({ tags: keys })} label="Tags" />
            </div>

            <div>
              <label htmlFor={ids.sort} className="mb-1.5 block text-sm font-semibold">
                Sort by
              </label>
              <select
                id={ids.sort}
                value={filters.sort}
                onChange={(event) => update({ sort: event.target.value as GallerySort })}
                className="w-full rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 text-sm focus:border-brand-400 focus:outline-none"
              >
                {GALLERY_SORTS.map((sort) => (
                  <option key={sort} value={sort}>
                    {SORT_LABELS[sort]}
                  </option>
                ))}
              </select>
            </div>

            {narrowed && (
              <button type="button" className="btn-secondary text-sm" onClick={clear}>
                Clear filters
              </button>
            )}
            {user && (
              <a href={userGalleryHref(user.uuid)} className="text-sm font-semibold">
                My textures →
              </a>
            )}
          </aside>
        </div>

        <section aria-label="Textures" className="min-w-0">
          <p className="mb-3 min-h-5 text-sm text-ink-300" aria-live="polite" data-testid="gallery-count">
            {list.total !== null && countOf(list.total, 'texture', { atLeast: list.totalCapped })}
          </p>
          <GalleryGrid list={list} empty={empty} />
        </section>
      </div>
    </div>
  );
}
