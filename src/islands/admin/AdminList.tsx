// The frame every admin list page shares: its title, what stands above the list, the error, a placeholder while the
// list loads, a line when it is empty, the rows and the pager; and the table some lists show their rows in, which
// stacks each row into label-and-value lines where the screen is too narrow for its columns.
import type { ReactNode } from 'react';
import type { ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import type { PageLink } from '../../lib/schemas/types';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { Pager } from './Pager';

/** An admin list page: `rows` is null while loading; the rows, when there are any, are drawn by `children`. */
export function AdminList<Row>({
  titleId,
  title,
  above,
  error,
  loadingLabel,
  empty,
  rows,
  pager,
  children,
}: {
  /** The heading's id, which names the section. */
  titleId: string;
  title: string;
  /** What stands between the heading and the list: an explanation, filters. */
  above?: ReactNode;
  error: ErrorDisplayValue | null;
  /** The name of the placeholder shown while the list loads. */
  loadingLabel: string;
  /** The line shown when the list is empty. */
  empty: string;
  rows: Row[] | null | undefined;
  /** The pager's links and what a click on one does, once the list is loaded. */
  pager?: { links: PageLink[]; onPage: (url: string) => void } | null;
  children: (rows: Row[]) => ReactNode;
}) {
  return (
    <section aria-labelledby={titleId}>
      <h1 id={titleId} className="text-3xl font-extrabold">
        {title}
      </h1>
      {above}
      <ErrorDisplay error={error} />
      {!rows && !error && <div className="card mt-6 h-48 animate-pulse" aria-busy="true" aria-label={loadingLabel} />}
      {rows && rows.length === 0 && <p className="card mt-6 text-ink-300">{empty}</p>}
      {rows && rows.length > 0 && children(rows)}
      {rows && pager && <Pager links={pager.links} onPage={pager.onPage} />}
    </section>
  );
}

/** One column of an admin table: its header, the classes of its cells and what a row shows in it. */
export interface AdminColumn<Row> {
  header: string;
  /** The header is read by screen readers only (a column of buttons). */
  hiddenHeader?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
}

/**
 * The two widths of admin table: `narrow` fits its columns from a 768 px wide screen, `wide` from 1024 px. Below that
 * each row stacks into lines, each cell after its column's header.
 */
const TABLE_WIDTHS = {
  narrow: {
    frame: 'md:overflow-x-auto',
    table: 'max-md:block md:min-w-[40rem]',
    head: 'max-md:sr-only',
    body: 'max-md:block',
    row: 'max-md:block max-md:py-2',
    cell: 'max-md:block max-md:py-1',
    labelled:
      'max-md:flex max-md:gap-3 max-md:py-1 max-md:before:w-28 max-md:before:shrink-0 max-md:before:font-normal max-md:before:text-ink-300 max-md:before:content-[attr(data-label)]',
  },
  wide: {
    frame: 'lg:overflow-x-auto',
    table: 'max-lg:block lg:min-w-[56rem]',
    head: 'max-lg:sr-only',
    body: 'max-lg:block',
    row: 'max-lg:block max-lg:py-2',
    cell: 'max-lg:block max-lg:py-1',
    labelled:
      'max-lg:flex max-lg:gap-3 max-lg:py-1 max-lg:before:w-28 max-lg:before:shrink-0 max-lg:before:font-normal max-lg:before:text-ink-300 max-lg:before:content-[attr(data-label)]',
  },
} as const;

/** An admin list's rows as a table in a card: one row a line, each marked with `rowTestId`. */
export function AdminTable<Row>({
  columns,
  rows,
  rowKey,
  rowTestId,
  width,
}: {
  columns: AdminColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  rowTestId: string;
  width: keyof typeof TABLE_WIDTHS;
}) {
  const layout = TABLE_WIDTHS[width];
  return (
    <div className={`card relative mt-6 max-w-full p-0 ${layout.frame}`}>
      <table className={`w-full text-left text-sm ${layout.table}`}>
        <thead className={`border-b border-ink-800 text-ink-300 ${layout.head}`}>
          <tr>
            {columns.map((column) => (
              <th key={column.header} className="px-4 py-3">
                {column.hiddenHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={layout.body}>
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className={`border-b border-ink-800 last:border-0 ${layout.row}`}
              data-testid={rowTestId}
            >
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`px-4 py-3 ${column.className ?? ''} ${column.hiddenHeader ? layout.cell : layout.labelled}`}
                  data-label={column.hiddenHeader ? undefined : column.header}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
