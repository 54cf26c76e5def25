// What wearing or sharing a made cape checks: the caller may use it, it is still kept as a cape, and it is not on the
// blocklist (by its content or its look, as an upload is checked).
import { capeFrameHeight } from '../../src/lib/texture-layout.ts';
import { creatorMessages } from '../../src/lib/creator-rules.ts';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/users.ts';
import { HttpError } from '../http/errors.ts';
import { refusedAs422 } from './refused-as-422.ts';
import { refuseBlocklistedTexture } from '../textures/library/blocklist.ts';
import type { Creations } from './creations.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';
import type { EncodedTexture } from '../textures/pipeline/process.ts';

/** What the check reads: the rows, the stored textures, the image jobs that hash them and the creations' owners. */
export interface UsableCreationContext {
  db: Db;
  library: TextureLibrary;
  imageJobs: ImageJobs;
  creations: Creations;
}

/**
 * A creation the caller may wear or share (their own within its lifetime, or a listed gallery item) as the pipeline's
 * shape; otherwise, or when it is no longer kept (or is not a cape), a 410, so that nothing else can be told apart. A
 * blocklisted picture (or one near it) is a 422 with the blocklist's message.
 */
export async function usableCreation(
  context: UsableCreationContext,
  hash: string,
  user: UserRow,
): Promise<EncodedTexture> {
  const { db, library, imageJobs, creations } = context;
  if ((await creations.access(hash, user)) !== 'use') throw new HttpError(410, creatorMessages.expired);
  const row = await db
    .selectFrom('textures')
    .select(['hash', 'width', 'height', 'frames'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  const bytes = row ? await library.read(hash) : null;
  if (!row || !bytes || row.width % 64 !== 0 || row.height % capeFrameHeight(row.width) !== 0)
    throw new HttpError(410, creatorMessages.expired);
  const texture = { bytes, hash, width: row.width, height: row.height, frames: row.frames };
  await refusedAs422(() => refuseBlocklistedTexture(db, imageJobs, texture, user.uuid));
  return texture;
}
