// Paginated admin answers in the shape the admin pages read: {data, links: [{label, url, active}], currentPage}.

/** One link of a pager. */
export interface PageLink {
  label: string;
  url: string | null;
  active: boolean;
}

/** A page of rows with its pager. */
export interface Paginated<T> {
  data: T[];
  links: PageLink[];
  currentPage: number;
}

/** How many pages either side of the current one the pager names (the first and last are always named). */
const PAGE_WINDOW = 2;

/**
 * The page of `total` rows shown `perPage` at a time, with Previous, the pages near this one (gaps as "..."), and Next,
 * as links to `path?page=N`.
 */
export function paginate<T>(data: T[], page: number, perPage: number, total: number, path: string): Paginated<T> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const url = (target: number) => (target >= 1 && target <= lastPage ? `${path}?page=${target}` : null);
  const links: PageLink[] = [{ label: 'Previous', url: page > 1 ? url(page - 1) : null, active: false }];
  let previous = 0;
  for (let number = 1; number <= lastPage; number++) {
    if (number !== 1 && number !== lastPage && Math.abs(number - page) > PAGE_WINDOW) continue;
    if (number > previous + 1) links.push({ label: '...', url: null, active: false });
    links.push({ label: String(number), url: url(number), active: number === page });
    previous = number;
  }
  links.push({ label: 'Next', url: page < lastPage ? url(page + 1) : null, active: false });
  return { data, links, currentPage: page };
}
