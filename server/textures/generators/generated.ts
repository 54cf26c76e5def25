// What a cape generator hands to the texture pipeline: a still cape and, for an animation, its strip of frames.
import type { RawImage } from '../pipeline/raw-image.ts';

/**
 * A generated cape: the still (an animation's first frame) and, for an animation, the strip (frames stacked, 100 ms
 * each).
 */
export interface GeneratedCape {
  still: RawImage;
  strip?: { image: RawImage; frames: number; notice: string | null };
}
