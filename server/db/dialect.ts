// Which database a handle or a URL is: PostgreSQL or SQLite, the two the queries and migrations are written for.
import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a database URL points at PostgreSQL (otherwise it names a SQLite file). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** Whether a database handle is PostgreSQL (otherwise SQLite). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the migrations' handles have none
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
