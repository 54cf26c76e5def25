// The users' columns that refer to textures, which of them each slot fills, how a query reads them, which picture a
// cape shows, and how many players wear a texture: assign.ts writes the columns, the mod API reads them through this
// module, and the texture library counts them as references so it never removes a texture a player wears.
import type { Db } from '../../db/database.ts';

/** Every user column that refers to a texture. */
export const PLAYER_TEXTURE_COLUMNS = ['cape_hash', 'cape_strip_hash', 'ears_hash'] as const;

/** A user column that refers to a texture. */
export type PlayerTextureColumn = (typeof PLAYER_TEXTURE_COLUMNS)[number];

/** A player's texture slots and the user columns each fills: the still image and, for the cape, the animated strip. */
export const PLAYER_SLOTS = {
  cape: { still: 'cape_hash', strip: 'cape_strip_hash' },
  ears: { still: 'ears_hash', strip: null },
} as const;

/** A player's texture slot. */
export type PlayerSlot = keyof typeof PLAYER_SLOTS;

/** The user columns of a slot: its still and, for the cape, its strip. */
export function slotColumns(slot: PlayerSlot): PlayerTextureColumn[] {
  const { still, strip } = PLAYER_SLOTS[slot];
  return strip ? [still, strip] : [still];
}

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

/** Whether a player's cape is shown as its strip (an animation): it has one and the player's animation is on. */
export function showsCapeStrip(animated: number | null, stripHash: string | null | undefined): boolean {
  return animated === 1 && Boolean(stripHash);
}

/** Counts references to a hash from players' current capes and ears. */
export async function countPlayerReferences(db: Db, hash: string): Promise<number> {
  return countWearers(db, [hash], false);
}

/** Counts the players who show a hash publicly: those wearing it who are not banned. */
export async function countPublicPlayerReferences(db: Db, hash: string): Promise<number> {
  return countWearers(db, [hash], true);
}

/** Counts the players wearing one of `hashes` (a picture's still or strip): those a moderator's removal takes it off. */
export async function countPlayersWearing(db: Db, hashes: string[]): Promise<number> {
  return hashes.length === 0 ? 0 : countWearers(db, hashes, false);
}

async function countWearers(db: Db, hashes: string[], unbannedOnly: boolean): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => eb.or(PLAYER_TEXTURE_COLUMNS.map((column) => eb(column, 'in', hashes))))
    .$if(unbannedOnly, (query) => query.where('banned', '=', 0))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
