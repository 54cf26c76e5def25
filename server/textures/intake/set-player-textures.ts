// Setting a player's cape or ears to stored pictures (setPlayerTextures): the one place where what a player shows
// changes at their own hand (an upload, wearing a creator's cape, a gallery item or an item of their wardrobe, taking a
// slot off); what they put on comes into their wardrobe. A moderator's removal and a deleted account empty slots
// through server/textures/library/assign.ts directly.
import type { Refused } from '../../../src/lib/refusals.ts';
import type { JobOutcome } from '../../image-jobs/worker-pool.ts';
import {
  assignPlayerTextures,
  capeGifPicture,
  clearPlayerTextures,
  type CapeGif,
  type PlayerAssignmentContext,
  type SlotTextures,
} from '../library/assign.ts';
import type { PlayerSlot } from '../library/player-columns.ts';
import type { WardrobeOrigin } from '../library/wardrobe-items.ts';

/** Accepted textures to put on a player, and where they come from (null when they are in the wardrobe already). */
export interface PutOn {
  textures: SlotTextures;
  origin: WardrobeOrigin | null;
}

/** The image work a cape needs before it is worn: its GIF, charged to the player. */
export interface CapeGifWork {
  attempt(name: 'stripGif', picture: Buffer, owner: string): Promise<JobOutcome<Buffer>>;
}

/** What setting a player's textures needs: assignment, and the image work of a cape's GIF. */
export interface PlayerTexturesContext extends PlayerAssignmentContext {
  imageJobs: CapeGifWork;
}

/**
 * Sets a player's slot to accepted textures (a cape's GIF made first as the player's image work, then all stored and
 * kept in the wardrobe), or at nothing to take the slot off; what it held before is released unless something keeps
 * it, and the change published. Answers a refusal (the image queue's of the GIF, a picture removed meanwhile, an item
 * gone from the wardrobe), and then nothing changed; null once the player shows the new textures.
 */
export async function setPlayerTextures(
  context: PlayerTexturesContext,
  uuid: string,
  slot: PlayerSlot,
  putOn: PutOn | null,
): Promise<Refused | null> {
  if (!putOn) {
    await clearPlayerTextures(context, uuid, [slot]);
    return null;
  }
  const gif = slot === 'cape' ? await capeGif(context, uuid, putOn.textures) : null;
  if (gif && 'refusal' in gif) return gif;
  return assignPlayerTextures(context, uuid, slot, putOn.textures, putOn.origin, gif);
}

/** A cape's GIF, made from what the player will show, as the player's image work; or the queue's refusal. */
async function capeGif(
  context: PlayerTexturesContext,
  uuid: string,
  textures: SlotTextures,
): Promise<CapeGif | Refused> {
  const picture = await capeGifPicture(context.db, uuid, textures);
  const made = await context.imageJobs.attempt('stripGif', picture.bytes, uuid);
  return 'refusal' in made ? made : { pictureHash: picture.hash, bytes: made.value };
}
