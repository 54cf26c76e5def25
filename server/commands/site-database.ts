// Opens the running site's database for an operator command: it says which database it uses, and never creates one.
import path from 'node:path';
import type { Config } from '../config/index.ts';
import { databaseExists, describeDatabase, openDatabase, sqliteFileOf, type Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations/migrate.ts';

/** What an operator who ran a command without the server's settings is told to do. */
export const SERVER_SETTINGS_HINT =
  "Run it with the server's settings (DATA_DIR or DATABASE_URL as the app processes have them), e.g. " +
  "sh -c 'set -a; . /etc/cloakroom/env; set +a; npx cloakroom …'.";

/**
 * Opens and migrates the site's database, after printing which one it is; throws when a SQLite file does not exist (a
 * command run without the server's settings would otherwise start an empty site of its own).
 */
export async function openSiteDatabase(config: Config): Promise<Db> {
  if (!databaseExists(config.databaseUrl)) {
    throw new Error(
      `There is no database file ${path.resolve(sqliteFileOf(config.databaseUrl))}. ${SERVER_SETTINGS_HINT}`,
    );
  }
  console.log(`Using ${describeDatabase(config.databaseUrl)}.`);
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
