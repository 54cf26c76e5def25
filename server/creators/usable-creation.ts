// What wearing or sharing a creator's cape checks before the texture intake takes it: the caller may use it, and it is
// still kept as a cape.
import { capeFrameHeight } from '../../src/lib/texture-layout.ts';
import { creatorMessages } from '../../src/lib/creator-rules.ts';
import type { UserRow } from '../db/users.ts';
import { HttpError } from '../http/errors.ts';
import type { Creations } from './creations.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { EncodedTexture } from '../textures/pipeline/process.ts';

/** What the check reads: the stored textures and the creations' owners. */
export interface UsableCreationContext {
  library: TextureLibrary;
  creations: Creations;
}

/**
 * A creation the caller may wear or share (their own within its lifetime, or a listed gallery item) as the pipeline's
 * shape; otherwise, or when it is no longer kept (or is not a cape), a 410, so that nothing else can be told apart.
 */
export async function usableCreation(
  context: UsableCreationContext,
  hash: string,
  user: UserRow,
): Promise<EncodedTexture> {
  const { library, creations } = context;
  if ((await creations.access(hash, user)) !== 'use') throw new HttpError(410, creatorMessages.expired);
  const texture = await library.readTexture(hash, { withheld: true });
  if (!texture || texture.width % 64 !== 0 || texture.height % capeFrameHeight(texture.width) !== 0)
    throw new HttpError(410, creatorMessages.expired);
  return texture;
}
