// Applying the migrations: every one a database has not run yet, in order.
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type { Db } from '../database.ts';
import { migrations } from './index.ts';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws if one fails. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
