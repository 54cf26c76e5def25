// Pictures locked for the length of a transaction, so that a moderator's removal of a picture and anything that gives a
// player that picture take turns.
import { sql, type Transaction } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { BLOCKLISTED_REFUSAL } from './blocklist.ts';
import { RefusedError } from '../../../src/lib/refusals.ts';

/** How a transaction holds its pictures: alone (a removal) or shared with others (giving players those pictures). */
export type PictureLockMode = 'alone' | 'shared';

/**
 * Locks pictures until the transaction ends, in hash order (so two transactions never wait on each other). The removal
 * holds its pictures alone; giving a player a picture shares it and then re-checks the blocklist inside its own
 * transaction: either it committed first (and the removal, which waited, finds the player wearing the picture and takes
 * it off), or the removal did (and the other, which waited, finds the picture on the blocklist and refuses). A lock,
 * not a row, because the picture's texture row may be gone (released) or not yet there. On PostgreSQL these are
 * transaction-level advisory locks keyed by the hash's first 64 bits (a collision only makes two pictures take turns);
 * SQLite runs one write transaction at a time already.
 */
export async function lockPictures(trx: Transaction<Database>, hashes: string[], mode: PictureLockMode): Promise<void> {
  if (!isPostgres(trx)) return;
  const lock = mode === 'alone' ? sql.raw('pg_advisory_xact_lock') : sql.raw('pg_advisory_xact_lock_shared');
  for (const hash of [...new Set(hashes)].sort()) {
    await sql`SELECT ${lock}(('x' || substr(${hash}, 1, 16))::bit(64)::bigint)`.execute(trx);
  }
}

/**
 * Inside a transaction that gives a player pictures: locks them (shared) and throws the blocklist's refusal when a
 * moderator removed one of them, whenever that removal committed.
 */
export async function refuseRemovedPictures(trx: Transaction<Database>, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await lockPictures(trx, hashes, 'shared');
  const listed = await trx
    .selectFrom('texture_blocklist')
    .select('hash')
    .where('hash', 'in', hashes)
    .executeTakeFirst();
  if (listed) throw new RefusedError(BLOCKLISTED_REFUSAL);
}
