// The wardrobe's rows: every picture a player has had, kept once per picture so it can be worn again. Items come in
// with the assignment that puts them on (assign.ts), a full wardrobe lets its oldest unworn item go, a moderator's
// removal takes a picture out of every wardrobe, and the texture library counts the rows as references.
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database, WardrobeSource } from '../../db/schema.ts';
import { isPostgres } from '../../db/dialect.ts';
import { RefusedError, type Refusal } from '../../../src/lib/refusals.ts';
import { wardrobeMessages } from '../../../src/lib/wardrobe-rules.ts';
import { PLAYER_TEXTURE_SELECTION, playerTextureHashes } from './player-columns.ts';

/**
 * Where a picture that goes into the wardrobe came from, its title (a gallery item's; else none) and its name (an
 * uploaded file's; else none).
 */
export interface WardrobeOrigin {
  source: WardrobeSource;
  /** The gallery item's hash, or the creator's name. */
  ref?: string | null;
  title?: string | null;
  name?: string | null;
}

/** A picture as the wardrobe keeps it: `hash` is an animation's strip, else the still; `stillHash` its first frame. */
export interface WardrobePicture {
  kind: 'cape' | 'ears';
  hash: string;
  stillHash: string | null;
}

/** A new opaque wardrobe item id. */
function newItemId(): string {
  return randomBytes(12).toString('base64url');
}

/** The hashes a wardrobe row holds: its picture and, for an animation, the first frame. */
function rowHashes(row: { hash: string; still_hash: string | null }): string[] {
  return row.still_hash ? [row.hash, row.still_hash] : [row.hash];
}

/**
 * Keeps a picture in the player's wardrobe (once: a picture already there keeps its row), then, past `limit` items,
 * lets the oldest items the player is not wearing go and remembers the last of them for the page. Runs inside the
 * assignment's transaction, after the player's slot changed; returns the hashes the dropped items held, to release.
 */
export async function keepInWardrobe(
  trx: Transaction<Database>,
  uuid: string,
  picture: WardrobePicture,
  origin: WardrobeOrigin,
  limit: number,
  now = Date.now(),
): Promise<string[]> {
  await trx
    .insertInto('wardrobe_items')
    .values({
      id: newItemId(),
      user_uuid: uuid,
      kind: picture.kind,
      hash: picture.hash,
      still_hash: picture.stillHash,
      source: origin.source,
      source_ref: origin.ref ?? null,
      title: origin.title ?? null,
      name: origin.name ?? null,
      added_at: now,
    })
    .onConflict((conflict) => conflict.columns(['user_uuid', 'kind', 'hash']).doNothing())
    .execute();
  return dropPastLimit(trx, uuid, limit, now);
}

/** Lets the oldest unworn items go until the wardrobe holds `limit`; returns the hashes they held. */
async function dropPastLimit(trx: Transaction<Database>, uuid: string, limit: number, now: number): Promise<string[]> {
  const counted = await trx
    .selectFrom('wardrobe_items')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  const over = Number(counted.count) - limit;
  if (over <= 0) return [];
  const worn = await wornPictures(trx, uuid);
  const oldest = await trx
    .selectFrom('wardrobe_items')
    .select(['id', 'kind', 'hash', 'still_hash', 'title', 'name', 'added_at'])
    .where('user_uuid', '=', uuid)
    .$if(worn.length > 0, (query) => query.where('hash', 'not in', worn))
    .orderBy('added_at')
    .orderBy('id')
    .limit(over)
    .execute();
  if (oldest.length === 0) return [];
  await trx
    .deleteFrom('wardrobe_items')
    .where(
      'id',
      'in',
      oldest.map((row) => row.id),
    )
    .execute();
  const last = oldest[oldest.length - 1]!;
  const drop = { kind: last.kind, title: last.name ?? last.title, added_at: last.added_at, dropped_at: now };
  await trx
    .insertInto('wardrobe_drops')
    .values({ user_uuid: uuid, ...drop })
    .onConflict((conflict) => conflict.column('user_uuid').doUpdateSet(drop))
    .execute();
  return oldest.flatMap(rowHashes);
}

/** The refusal of wearing a wardrobe item that left the wardrobe meanwhile. */
const NOT_IN_WARDROBE: Refusal = { reason: 'gone', message: wardrobeMessages.notFound };

/**
 * Inside the transaction that puts a wardrobe picture on: its row, locked on PostgreSQL so a removal of it waits, or
 * the refusal that it is not in the wardrobe any more (removed meanwhile), thrown.
 */
export async function requireInWardrobe(
  trx: Transaction<Database>,
  uuid: string,
  picture: WardrobePicture,
): Promise<void> {
  const row = await trx
    .selectFrom('wardrobe_items')
    .select('id')
    .where('user_uuid', '=', uuid)
    .where('kind', '=', picture.kind)
    .where('hash', '=', picture.hash)
    .$if(isPostgres(trx), (query) => query.forUpdate())
    .executeTakeFirst();
  if (!row) throw new RefusedError(NOT_IN_WARDROBE);
}

/**
 * Takes one of a player's items out of their wardrobe inside the caller's transaction (which holds the player's row);
 * the row's kind and hashes, or undefined when it is not theirs.
 */
export async function deleteWardrobeItem(trx: Transaction<Database>, uuid: string, id: string) {
  return trx
    .deleteFrom('wardrobe_items')
    .where('id', '=', id)
    .where('user_uuid', '=', uuid)
    .returning(['kind', 'hash', 'still_hash'])
    .executeTakeFirst();
}

/** The wardrobe pictures a player wears now: the cape's strip or still, and the ears. */
export async function wornPictures(db: Db | Transaction<Database>, uuid: string): Promise<string[]> {
  const row = await db
    .selectFrom('users')
    .select(PLAYER_TEXTURE_SELECTION)
    .where('users.uuid', '=', uuid)
    .executeTakeFirst();
  if (!row) return [];
  const worn = playerTextureHashes(row);
  return [worn.capeStrip ?? worn.cape, worn.ears].filter((hash): hash is string => hash !== null);
}

/**
 * Takes pictures out of every wardrobe (a moderator's removal, inside its transaction): every row whose picture or
 * first frame is one of `hashes`. Returns the hashes the removed rows held, to release after the commit.
 */
export async function removeFromEveryWardrobe(trx: Transaction<Database>, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const removed = await trx
    .deleteFrom('wardrobe_items')
    .where((eb) => eb.or([eb('hash', 'in', hashes), eb('still_hash', 'in', hashes)]))
    .returning(['hash', 'still_hash'])
    .execute();
  return removed.flatMap(rowHashes);
}

/** Every hash a player's wardrobe holds (an account deletion releases them once the rows are gone). */
export async function wardrobeHashes(db: Db, uuid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('wardrobe_items')
    .select(['hash', 'still_hash'])
    .where('user_uuid', '=', uuid)
    .execute();
  return rows.flatMap(rowHashes);
}

/** Counts the wardrobe rows that keep a hash, as a picture or an animation's first frame. */
export async function countWardrobeReferences(db: Db, hash: string): Promise<number> {
  const row = await db
    .selectFrom('wardrobe_items')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => eb.or([eb('hash', '=', hash), eb('still_hash', '=', hash)]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
