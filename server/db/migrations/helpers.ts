// What more than one migration uses: the untyped database handle migrations take, the gallery's sort columns and a
// self-numbering primary key.
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * A database as migrations see it: untyped, since each migration runs against the schema of its own time (Kysely's
 * guidance).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export type MigrationDb = Kysely<any>;

/** The gallery's sort columns, each indexed with the hash as a tie-breaker. */
export const GALLERY_SORT_COLUMNS = ['likes', 'downloads', 'title_lower', 'created_at'] as const;

/** An integer primary key that numbers itself, on either database. */
export function serialId(db: MigrationDb) {
  const postgres = isPostgres(db);
  return [
    postgres ? 'serial' : 'integer',
    (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()),
  ] as const;
}
