// Texture assignment, in one place: store the blobs, point a player (or a gallery item) at them in one transaction,
// release what they pointed at before and tell the profile caches; and a moderator's removal, which takes a picture off
// every player wearing it. The only module that writes the users' texture columns (named in player-columns.ts).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import { isPostgres } from '../../db/dialect.ts';
import type { InvalidationBus } from '../../events/invalidation.ts';
import type { TextureKind, TextureLibrary } from './texture-library.ts';
import type { EncodedTexture } from '../pipeline/process.ts';
import {
  PLAYER_TEXTURE_COLUMNS,
  PLAYER_TEXTURE_SELECTION,
  playerTextureHashes,
  type PlayerTextureColumn,
} from './player-columns.ts';
import { keepInWardrobe, removeFromEveryWardrobe, type WardrobeOrigin } from './wardrobe-items.ts';

/** A player's texture slots and the user columns each fills: the still image and, for the cape, the animated strip. */
export const PLAYER_SLOTS = {
  cape: { still: 'cape_hash', strip: 'cape_strip_hash' },
  ears: { still: 'ears_hash', strip: null },
} as const;

/** A player's texture slot. */
export type PlayerSlot = keyof typeof PLAYER_SLOTS;

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
 * in between.
 */
export async function storeAndPoint<T>(
  library: TextureLibrary,
  textures: TextureToStore[],
  point: () => Promise<T>,
): Promise<T> {
  for (const { texture, kind } of textures) await library.put(texture, kind);
  const result = await point();
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
 * Sets user columns in one transaction and returns the hashes they held before (row-locked on PostgreSQL so concurrent
 * changes take turns), with the hashes `then` (run in the same transaction, after the change) gives to release; null
 * when the player is gone.
 */
async function swapColumns(
  db: Db,
  uuid: string,
  values: Partial<Record<PlayerTextureColumn, string | null>>,
  then?: (trx: Transaction<Database>) => Promise<string[]>,
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
    const held = Object.values(before as Record<string, string | null>).filter((hash): hash is string => Boolean(hash));
    return [...held, ...((await then?.(trx)) ?? [])];
  });
}

/** Whether a player's cape is shown as its strip (an animation): it has one and the player's animation is on. */
export function showsCapeStrip(animated: number | null, stripHash: string | null | undefined): boolean {
  return animated === 1 && Boolean(stripHash);
}

/**
 * The picture a cape's GIF is made of: what the player shows, the strip while their animation is on, else the still.
 */
async function gifPicture(db: Db, uuid: string, textures: SlotTextures): Promise<EncodedTexture> {
  if (!textures.strip) return textures.still;
  const player = await db.selectFrom('premium').select('animated').where('user_uuid', '=', uuid).executeTakeFirst();
  return showsCapeStrip(player?.animated ?? null, textures.strip.hash) ? textures.strip : textures.still;
}

/** The image work a new cape needs before it is worn: its GIF (the mod API's `.gif` layout), charged to the player. */
export interface CapeGifWork {
  run(name: 'stripGif', picture: Buffer, owner: string): Promise<Buffer>;
}

/** What putting textures on a player needs beyond assignment: the image work of a cape's GIF and the wardrobe's size. */
export interface PlayerAssignmentContext extends AssignmentContext {
  imageJobs: CapeGifWork;
  config: { wardrobeItems: number };
}

/**
 * Points a player's slot at new textures (stored first), keeps them in the player's wardrobe (with `origin`; null when
 * they are worn from the wardrobe, where they already are), releases the ones it replaced that nothing keeps and
 * publishes the change. A cape's GIF is made first, as the player's own image work (their queue share and budget;
 * refused with the queue's message when it does not fit, and then nothing changes), and stored beside it, so that no
 * reader ever causes that work.
 */
export async function assignPlayerTextures(
  context: PlayerAssignmentContext,
  uuid: string,
  slot: PlayerSlot,
  textures: SlotTextures,
  origin: WardrobeOrigin | null,
): Promise<void> {
  const kind: TextureKind = slot;
  const toStore: TextureToStore[] = [{ texture: textures.still, kind }];
  if (textures.strip) toStore.push({ texture: textures.strip, kind: 'cape-strip' });
  const values = slotValues(slot, textures);
  const gifSource = slot === 'cape' ? await gifPicture(context.db, uuid, textures) : null;
  const gif = gifSource ? await context.imageJobs.run('stripGif', gifSource.bytes, uuid) : null;
  const previous = await storeAndPoint(context.library, toStore, async () => {
    if (gifSource && gif) await context.library.putDerived(gifSource.hash, 'gif', gif);
    const picture = {
      kind: slot,
      hash: (textures.strip ?? textures.still).hash,
      stillHash: textures.strip ? textures.still.hash : null,
    };
    return swapColumns(context.db, uuid, values, async (trx) =>
      origin ? keepInWardrobe(trx, uuid, picture, origin, context.config.wardrobeItems) : [],
    );
  });
  const assigned = toStore.map(({ texture }) => texture.hash);
  // A player deleted meanwhile keeps nothing: the new textures go again unless someone else uses them.
  await context.library.release(previous === null ? assigned : previous.filter((hash) => !assigned.includes(hash)));
  await context.bus.publish(uuid);
}

/**
 * Empties a player's slots (all of them when none is named), releases the textures they held and publishes the change
 * (a moderator's removal uses removeFromEveryWearer instead). Returns the hashes removed, or null for an unknown
 * player.
 */
export async function clearPlayerTextures(
  context: AssignmentContext,
  uuid: string,
  slots: PlayerSlot[] = ['cape', 'ears'],
): Promise<string[] | null> {
  const values = Object.assign({}, ...slots.map((slot) => slotValues(slot, null))) as Partial<
    Record<PlayerTextureColumn, null>
  >;
  const removed = await swapColumns(context.db, uuid, values);
  await context.library.release(removed ?? []);
  await context.bus.publish(uuid);
  return removed;
}

/** The user columns of a slot: its still and, for the cape, its strip. */
function slotColumns(slot: PlayerSlot): PlayerTextureColumn[] {
  const { still, strip } = PLAYER_SLOTS[slot];
  return strip ? [still, strip] : [still];
}

/** The players a removal took a picture off, and the hashes their emptied slots held. */
interface TakenOff {
  players: string[];
  hashes: string[];
}

/**
 * Empties every player slot that holds one of `hashes` exactly (a cape's still or strip, or the ears: the whole slot
 * goes) and takes them out of every wardrobe, inside the removal's transaction, the rows locked on PostgreSQL.
 */
async function takeOffEveryWearer(trx: Transaction<Database>, hashes: string[]): Promise<TakenOff> {
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

/** Runs a step in a transaction and answers what the transaction answers: by default a transaction of its own. */
type TransactionRunner<T> = (step: (trx: Transaction<Database>) => Promise<void>) => Promise<T>;

/**
 * A moderator's removal of pictures (a still, an animation's strip, ears): in one transaction, withholds them (no
 * public URL serves them again; reports and the audit log keep them for the moderators), takes them off every player
 * wearing one exactly and runs `removal` with how many players lost one (the removal's audit row and blocklist rows);
 * once that commits, tells every process and the answer files, releases what the players wore and tells the mod API
 * about each. `transaction` runs the step inside a transaction of the caller's (deleting the gallery item too) and its
 * answer is returned.
 */
export async function removeFromEveryWearer<T = void>(
  context: AssignmentContext,
  hashes: Array<string | null | undefined>,
  removal: (trx: Transaction<Database>, playersWhoLostIt: number) => Promise<void>,
  transaction: TransactionRunner<T> = (step) => context.db.transaction().execute(step) as Promise<T>,
): Promise<T> {
  const removed = [...new Set(hashes.filter((hash): hash is string => Boolean(hash)))];
  let takenOff: TakenOff = { players: [], hashes: [] };
  let withheld: string[] = [];
  const result = await transaction(async (trx) => {
    withheld = await context.library.withhold(trx, removed);
    takenOff = await takeOffEveryWearer(trx, removed);
    await removal(trx, takenOff.players.length);
  });
  await context.library.announceWithheld(withheld);
  await context.library.release(takenOff.hashes);
  for (const uuid of takenOff.players) await context.bus.publish(uuid);
  return result;
}
