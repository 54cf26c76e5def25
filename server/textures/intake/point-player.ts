// Pointing a player at textures: the one place where what a player shows as their cape or ears changes at their own
// hand (an upload, wearing a made cape, a gallery item or an item of their wardrobe, taking a slot off); what they put
// on comes into their wardrobe. A moderator's removal and a deleted account empty slots through
// server/textures/library/assign.ts directly.
import type { Refused } from '../../../src/lib/refusals.ts';
import { refusalCarriedBy } from '../../http/refusal-answer.ts';
import {
  assignPlayerTextures,
  clearPlayerTextures,
  type PlayerAssignmentContext,
  type PlayerSlot,
  type SlotTextures,
} from '../library/assign.ts';
import type { WardrobeOrigin } from '../library/wardrobe-items.ts';

/** Accepted textures to put on a player, and where they come from (null when they are in the wardrobe already). */
export interface PutOn {
  textures: SlotTextures;
  origin: WardrobeOrigin | null;
}

/**
 * Points a player's slot at accepted textures (stored first and kept in the wardrobe, a cape's GIF made as the
 * player's image work), or at nothing to take the slot off; what it held before is released unless something keeps it,
 * and the change published. Answers the image queue's refusal of the GIF, and then nothing changed; null once the
 * player shows the new textures.
 */
export async function pointPlayer(
  context: PlayerAssignmentContext,
  uuid: string,
  slot: PlayerSlot,
  putOn: PutOn | null,
): Promise<Refused | null> {
  if (!putOn) {
    await clearPlayerTextures(context, uuid, [slot]);
    return null;
  }
  try {
    await assignPlayerTextures(context, uuid, slot, putOn.textures, putOn.origin);
    return null;
  } catch (error) {
    const refusal = refusalCarriedBy(error);
    if (refusal) return { refusal };
    throw error;
  }
}
