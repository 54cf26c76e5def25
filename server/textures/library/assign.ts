// Texture assignment, in one place: store the blobs, set a player's (or a gallery item's) textures to them in one
// transaction, release what they used before and tell the profile caches; and the step of a moderator's removal that
// takes a picture off every player wearing it. The only module that writes the users' texture columns (named in
// player-columns.ts).
import type { Transaction } from 'kysely';
import { RefusedError, type Refused } from '../../../src/lib/refusals.ts';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { InvalidationBus } from '../../events/invalidation.ts';
import type { TextureKind, TextureLibrary } from './texture-library.ts';
import type { EncodedTexture } from '../pipeline/process.ts';
import {
  PLAYER_SLOTS,
  PLAYER_TEXTURE_COLUMNS,
  PLAYER_TEXTURE_SELECTION,
  playerTextureHashes,
  showsCapeStrip,
  slotColumns,
  type PlayerSlot,
  type PlayerTextureColumn,
} from './player-columns.ts';
import { refuseRemovedPictures } from './picture-locks.ts';
import {
  deleteWardrobeItem,
  keepInWardrobe,
  removeFromEveryWardrobe,
  requireInWardrobe,
  type WardrobeOrigin,
} from './wardrobe-items.ts';

/**
 * The hashes a player's slot holds now: its still and, for an animated cape, its strip; null when it is empty or the
 * player unknown.
 */
export async function slotTextures(
  db: Db,
  uuid: string,
  slot: PlayerSlot,
): Promise<{ hash: string; stripHash: string | null } | null> {
  const row = await db
    .selectFrom('users')
    .select(PLAYER_TEXTURE_SELECTION)
    .where('users.uuid', '=', uuid)
    .executeTakeFirst();
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

/**
 * Stores textures, runs `point` (which makes something refer to them), then re-stores any a concurrent release removed
 * in between. A refusal `point` throws (a RefusedError, out of its transaction) is answered as a value; when it refuses
 * or fails, what was stored is released again unless something else refers to it.
 */
export async function storeAndAssign<T>(
  library: TextureLibrary,
  textures: TextureToStore[],
  point: () => Promise<T>,
): Promise<T | Refused> {
  for (const { texture, kind } of textures) await library.put(texture, kind);
  let result: T;
  try {
    result = await point();
  } catch (error) {
    await library.release(textures.map(({ texture }) => texture.hash));
    if (error instanceof RefusedError) return { refusal: error.refusal };
    throw error;
  }
  for (const { texture, kind } of textures) await library.ensure(texture, kind);
  return result;
}

/** The column values that put `textures` (or nothing) into a slot. */
function slotValues(
  slot: PlayerSlot,
  textures: SlotTextures | null,
): Partial<Record<PlayerTextureColumn, string | null>> {
  const columns = PLAYER_SLOTS[slot];
  const values: Partial<Record<PlayerTextureColumn, string | null>> = { [columns.still]: textures?.still.hash ?? null };
  if (columns.strip) values[columns.strip] = textures?.strip?.hash ?? null;
  return values;
}

/**
 * A player's texture columns, read inside a transaction that changes them, the row locked on PostgreSQL so that the
 * player's changes take turns (SQLite runs one write at a time); undefined for an unknown player.
 */
async function lockedPlayerColumns(trx: Transaction<Database>, uuid: string) {
  return trx
    .selectFrom('users')
    .select(PLAYER_TEXTURE_COLUMNS)
    .where('uuid', '=', uuid)
    .$if(isPostgres(trx), (query) => query.forUpdate())
    .executeTakeFirst();
}

/** What a swap of a player's columns did: the hashes to release, and whether the columns changed at all. */
interface Swapped {
  held: string[];
  changed: boolean;
}

/**
 * Sets user columns in one transaction (row-locked on PostgreSQL so concurrent changes take turns; columns that already
 * hold the values are not written) and returns the hashes they held before, with the hashes `then` (run in the same
 * transaction, after the change) gives to release; null when the player is gone. The pictures the columns are set to
 * are checked first, in the same transaction: one a moderator removed is refused (refuseRemovedPictures).
 */
async function swapColumns(
  db: Db,
  uuid: string,
  values: Partial<Record<PlayerTextureColumn, string | null>>,
  then?: (trx: Transaction<Database>) => Promise<string[]>,
): Promise<Swapped | null> {
  const columns = Object.keys(values) as PlayerTextureColumn[];
  const pictures = Object.values(values).filter((hash): hash is string => Boolean(hash));
  return db.transaction().execute(async (trx) => {
    // Before the player's row: a removal holds its pictures first and then its wearers' rows, in that order too.
    await refuseRemovedPictures(trx, pictures);
    const held = await lockedPlayerColumns(trx, uuid);
    if (!held) return null;
    const changed = columns.some((column) => held[column] !== values[column]);
    if (changed) await trx.updateTable('users').set(values).where('uuid', '=', uuid).execute();
    const released = columns.map((column) => held[column]).filter((hash): hash is string => Boolean(hash));
    return { held: [...released, ...((await then?.(trx)) ?? [])], changed };
  });
}

/**
 * The picture a cape's GIF is made of: what the player shows, the strip while their animation is on, else the still.
 */
export async function capeGifPicture(db: Db, uuid: string, textures: SlotTextures): Promise<EncodedTexture> {
  if (!textures.strip) return textures.still;
  const player = await db.selectFrom('premium').select('animated').where('user_uuid', '=', uuid).executeTakeFirst();
  return showsCapeStrip(player?.animated ?? null, textures.strip.hash) ? textures.strip : textures.still;
}

/** A cape's GIF (the mod API's `.gif` layout), made before it is worn, and the hash of the picture it is made of. */
export interface CapeGif {
  pictureHash: string;
  bytes: Buffer;
}

/** What putting textures on a player needs beyond assignment: the wardrobe's size. */
export interface PlayerAssignmentContext extends AssignmentContext {
  config: { wardrobeItems: number };
}

/**
 * Sets a player's slot to new textures (stored first, a cape's GIF beside them, so that no reader ever causes that
 * work), keeps them in the player's wardrobe (with `origin`; null when they are worn from the wardrobe, where they
 * already are), releases the ones it replaced that nothing keeps and publishes the change. Answers the refusal of a
 * picture removed meanwhile or an item gone from the wardrobe, and then nothing changed; null once the player shows
 * the new textures.
 */
export async function assignPlayerTextures(
  context: PlayerAssignmentContext,
  uuid: string,
  slot: PlayerSlot,
  textures: SlotTextures,
  origin: WardrobeOrigin | null,
  gif: CapeGif | null,
): Promise<Refused | null> {
  const kind: TextureKind = slot;
  const toStore: TextureToStore[] = [{ texture: textures.still, kind }];
  if (textures.strip) toStore.push({ texture: textures.strip, kind: 'cape-strip' });
  const values = slotValues(slot, textures);
  const assigned = toStore.map(({ texture }) => texture.hash);
  const previous = await storeAndAssign(context.library, toStore, async () => {
    if (gif) await context.library.putDerived(gif.pictureHash, 'gif', gif.bytes);
    const picture = {
      kind: slot,
      hash: (textures.strip ?? textures.still).hash,
      stillHash: textures.strip ? textures.still.hash : null,
    };
    return swapColumns(context.db, uuid, values, async (trx) => {
      if (origin) return keepInWardrobe(trx, uuid, picture, origin, context.config.wardrobeItems);
      await requireInWardrobe(trx, uuid, picture);
      return [];
    });
  });
  if (previous !== null && 'refusal' in previous) return previous;
  // A player deleted meanwhile keeps nothing: the new textures go again unless someone else uses them.
  await context.library.release(
    previous === null ? assigned : previous.held.filter((hash) => !assigned.includes(hash)),
  );
  // Published even when the slot held these textures already: putting a cape on again refreshes what the mod API shows
  // (the animation follows the player's premium feature).
  await context.bus.publish(uuid);
  return null;
}

/**
 * Empties a player's slots (all of them when none is named), releases the textures they held and publishes the change;
 * slots that are empty already write nothing and publish nothing (a moderator's removal uses removeFromEveryWearer
 * instead). Returns the hashes removed, or null for an unknown player.
 */
export async function clearPlayerTextures(
  context: AssignmentContext,
  uuid: string,
  slots: PlayerSlot[] = ['cape', 'ears'],
): Promise<string[] | null> {
  const values = Object.assign({}, ...slots.map((slot) => slotValues(slot, null))) as Partial<
    Record<PlayerTextureColumn, null>
  >;
  const swapped = await swapColumns(context.db, uuid, values);
  if (!swapped) return null;
  await context.library.release(swapped.held);
  if (swapped.changed) await context.bus.publish(uuid);
  return swapped.held;
}

/**
 * Removes one of a player's wardrobe items, taking it off first when they wear it, in one transaction with the player's
 * row locked (a wear of the same item takes turns with it: the end state is one order of the two); releases its
 * pictures unless something else keeps them and publishes a change of what they wear. False when the item is not
 * theirs.
 */
export async function removeWardrobeItem(context: AssignmentContext, uuid: string, id: string): Promise<boolean> {
  const swapped = await context.db.transaction().execute(async (trx) => {
    const player = await lockedPlayerColumns(trx, uuid);
    const item = player ? await deleteWardrobeItem(trx, uuid, id) : undefined;
    if (!player || !item) return null;
    const wears = playerTextureHashes(player);
    const worn = (item.kind === 'cape' ? (wears.capeStrip ?? wears.cape) : wears.ears) === item.hash;
    const held = [item.hash, item.still_hash].filter((hash): hash is string => Boolean(hash));
    if (!worn) return { held, changed: false };
    await trx.updateTable('users').set(slotValues(item.kind, null)).where('uuid', '=', uuid).execute();
    held.push(...slotColumns(item.kind).flatMap((column) => player[column] ?? []));
    return { held, changed: true };
  });
  if (!swapped) return false;
  await context.library.release(swapped.held);
  if (swapped.changed) await context.bus.publish(uuid);
  return true;
}

/** The players a removal took a picture off, and the hashes their emptied slots and wardrobe rows held. */
export interface TakenOff {
  players: string[];
  hashes: string[];
}

/**
 * Empties every player slot that holds one of `hashes` exactly (a cape's still or strip, or the ears: the whole slot
 * goes) and takes them out of every wardrobe, inside a moderator's removal's transaction (which holds the pictures
 * alone: lockPictures), the rows locked on PostgreSQL. Release the hashes and publish each player after the commit.
 */
export async function takeOffEveryWearer(trx: Transaction<Database>, hashes: string[]): Promise<TakenOff> {
  if (hashes.length === 0) return { players: [], hashes: [] };
  const wearers = await trx
    .selectFrom('users')
    .select(['uuid', ...PLAYER_TEXTURE_COLUMNS])
    .where((eb) => eb.or(PLAYER_TEXTURE_COLUMNS.map((column) => eb(column, 'in', hashes))))
    .$if(isPostgres(trx), (query) => query.forUpdate())
    .execute();
  const held: string[] = [];
  for (const wearer of wearers) {
    const slots = (Object.keys(PLAYER_SLOTS) as PlayerSlot[]).filter((slot) =>
      slotColumns(slot).some((column) => wearer[column] !== null && hashes.includes(wearer[column])),
    );
    for (const column of slots.flatMap(slotColumns)) if (wearer[column]) held.push(wearer[column]);
    const values = Object.assign({}, ...slots.map((slot) => slotValues(slot, null))) as Partial<
      Record<PlayerTextureColumn, null>
    >;
    await trx.updateTable('users').set(values).where('uuid', '=', wearer.uuid).execute();
  }
  held.push(...(await removeFromEveryWardrobe(trx, hashes)));
  return { players: wearers.map((wearer) => wearer.uuid), hashes: held };
}
