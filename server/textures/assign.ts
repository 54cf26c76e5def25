// Texture assignment, in one place: store the blobs, point a player (or a gallery item) at them in one transaction,
// release what they pointed at before and tell the profile caches. The only module that knows the users' texture columns.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/migrations.ts';
import type { InvalidationBus } from '../mod/invalidation.ts';
import type { TextureKind, TextureLibrary } from './library.ts';
import type { EncodedTexture } from './process.ts';

/** A player's texture slots and the user columns each fills: the still image and, for the cape, the animated strip. */
export const PLAYER_SLOTS = {
  cape: { still: 'cape_hash', strip: 'cape_strip_hash' },
  ears: { still: 'ears_hash', strip: null },
} as const;

/** A player's texture slot. */
export type PlayerSlot = keyof typeof PLAYER_SLOTS;

/** Every user column that refers to a texture. */
export const PLAYER_TEXTURE_COLUMNS = ['cape_hash', 'cape_strip_hash', 'ears_hash'] as const;

/** A user column that refers to a texture. */
export type PlayerTextureColumn = (typeof PLAYER_TEXTURE_COLUMNS)[number];

/** The texture columns as a query on `users` selects them. */
export const PLAYER_TEXTURE_SELECTION = PLAYER_TEXTURE_COLUMNS.map((column) => `users.${column}` as const);

/** A player's current texture hashes. */
export interface PlayerTextureHashes {
  cape: string | null;
  capeStrip: string | null;
  ears: string | null;
}

/** A player's texture hashes from a users row read with PLAYER_TEXTURE_SELECTION. */
export function playerTextureHashes(row: Record<PlayerTextureColumn, string | null>): PlayerTextureHashes {
  return { cape: row.cape_hash, capeStrip: row.cape_strip_hash, ears: row.ears_hash };
}

/** The hashes a player's slot holds now: its still and, for an animated cape, its strip; null when it is empty or the player unknown. */
export async function slotTextures(db: Db, uuid: string, slot: PlayerSlot): Promise<{ hash: string; stripHash: string | null } | null> {
  const row = await db.selectFrom('users').select(PLAYER_TEXTURE_SELECTION).where('users.uuid', '=', uuid).executeTakeFirst();
  if (!row) return null;
  const hashes = playerTextureHashes(row);
  const hash = slot === 'cape' ? hashes.cape : hashes.ears;
  return hash ? { hash, stripHash: slot === 'cape' ? hashes.capeStrip : null } : null;
}

/** What a slot is set to: a still image and, for an animated cape, its strip. */
export interface SlotTextures {
  still: EncodedTexture;
  strip: EncodedTexture | null;
}

/** What assignment needs: the database, the texture library and the profile-change bus. */
export interface AssignmentContext {
  db: Db;
  library: TextureLibrary;
  bus: InvalidationBus;
}

/** A texture to store, with what it is used as. */
export interface TextureToStore {
  texture: EncodedTexture;
  kind: TextureKind;
}

/** Stores textures, runs `point` (which makes something refer to them), then re-stores any a concurrent release removed in between. */
export async function storeAndPoint<T>(library: TextureLibrary, textures: TextureToStore[], point: () => Promise<T>): Promise<T> {
  for (const { texture, kind } of textures) await library.put(texture, kind);
  const result = await point();
  for (const { texture, kind } of textures) await library.ensure(texture, kind);
  return result;
}

/** The column values that put `textures` (or nothing) into a slot. */
function slotValues(slot: PlayerSlot, textures: SlotTextures | null): Partial<Record<PlayerTextureColumn, string | null>> {
  const columns = PLAYER_SLOTS[slot];
  const values: Partial<Record<PlayerTextureColumn, string | null>> = { [columns.still]: textures?.still.hash ?? null };
  if (columns.strip) values[columns.strip] = textures?.strip?.hash ?? null;
  return values;
}

/** Sets user columns in one transaction and returns the hashes they held before (row-locked on PostgreSQL so concurrent changes take turns); null when the player is gone. */
async function swapColumns(
  db: Db,
  uuid: string,
  values: Partial<Record<PlayerTextureColumn, string | null>>,
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>,
): Promise<string[] | null> {
  const columns = Object.keys(values) as PlayerTextureColumn[];
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(columns)
      .where('uuid', '=', uuid)
      .$if(isPostgres(db), (query) => query.forUpdate())
      .executeTakeFirst();
    if (!before) return null;
    await trx.updateTable('users').set(values).where('uuid', '=', uuid).execute();
    await alsoInTransaction?.(trx);
    return Object.values(before as Record<string, string | null>).filter((hash): hash is string => Boolean(hash));
  });
}

/** Points a player's slot at new textures (stored first), releases the ones it replaced and publishes the change. */
export async function assignPlayerTextures(context: AssignmentContext, uuid: string, slot: PlayerSlot, textures: SlotTextures): Promise<void> {
  const kind: TextureKind = slot;
  const toStore: TextureToStore[] = [{ texture: textures.still, kind }];
  if (textures.strip) toStore.push({ texture: textures.strip, kind: 'cape-strip' });
  const values = slotValues(slot, textures);
  const previous = await storeAndPoint(context.library, toStore, () => swapColumns(context.db, uuid, values));
  const assigned = toStore.map(({ texture }) => texture.hash);
  // A player deleted meanwhile keeps nothing: the new textures go again unless someone else uses them.
  await context.library.release(previous === null ? assigned : previous.filter((hash) => !assigned.includes(hash)));
  await context.bus.publish(uuid);
}

/**
 * Empties a player's slots (all of them when none is named), releases the textures they held and publishes the change;
 * `alsoInTransaction` runs in the same transaction as the change (an admin action's audit row). Returns the hashes removed, or null for an unknown player.
 */
export async function clearPlayerTextures(
  context: AssignmentContext,
  uuid: string,
  slots: PlayerSlot[] = ['cape', 'ears'],
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>,
): Promise<string[] | null> {
  const values = Object.assign({}, ...slots.map((slot) => slotValues(slot, null))) as Partial<Record<PlayerTextureColumn, null>>;
  const removed = await swapColumns(context.db, uuid, values, alsoInTransaction);
  await context.library.release(removed ?? []);
  await context.bus.publish(uuid);
  return removed;
}
