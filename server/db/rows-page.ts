// One page of a list's rows and how many rows the list has: what every paged list (the admin pages) reads.
import type { SelectQueryBuilder } from 'kysely';

/** A query whose rows can be read a page at a time. */
interface PagedQuery<Row> {
  limit(limit: number): { offset(offset: number): { execute(): Promise<Row[]> } };
}

/** A page of rows and the number of rows in the whole list. */
export interface RowsPage<Row> {
  rows: Row[];
  total: number;
}

/**
 * Page `page` (from 1) of `perPage` rows of the list: `select` turns the list's query (`from`, which is counted as it
 * is) into the query of its rows, with their joins, columns and order.
 */
export async function rowsPage<DB, TB extends keyof DB, O, Row>(
  from: SelectQueryBuilder<DB, TB, O>,
  select: (query: SelectQueryBuilder<DB, TB, O>) => PagedQuery<Row>,
  page: number,
  perPage: number,
): Promise<RowsPage<Row>> {
  const [rows, total] = await Promise.all([
    select(from)
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    from
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .$castTo<{ count: number | string | bigint }>()
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}
