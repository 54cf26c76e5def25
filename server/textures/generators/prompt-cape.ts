// The AI cape generator's last step: the image made from a prompt, fitted onto the cape's front,
// inside and elytra, the other faces in the image's average colour.
import type { RawImage } from '../pipeline/raw-image.ts';
import { averageColour, drawCape } from './cape-canvas.ts';
import type { GeneratedCape } from './generated.ts';

/** The AI cape's scale: 256 x 128, enough for the image's detail. */
const PROMPT_CAPE_SCALE = 3;

/** The image made from a prompt, decoded. */
export interface PromptCapeInput {
  data: Uint8Array;
  width: number;
  height: number;
}

/** What drawing it costs, in pixels: the image. */
export function promptCapePixels(input: PromptCapeInput): number {
  return input.width * input.height;
}

/** Draws a cape from an image made from a prompt. */
export async function drawPromptCape(input: PromptCapeInput): Promise<GeneratedCape> {
  const image: RawImage = { data: Buffer.from(input.data), width: input.width, height: input.height };
  return {
    still: await drawCape({
      scale: PROMPT_CAPE_SCALE,
      colour: averageColour(image),
      front: image,
      inner: image,
      elytra: image,
    }),
  };
}
