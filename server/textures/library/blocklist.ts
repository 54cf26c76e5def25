// The blocklist of pictures moderators removed for breaking the rules, by content hash and by perceptual hash: the same
// picture re-saved, touched up or nudged is refused at upload. Removals hash their textures in the image jobs before
// their transaction and add the rows inside it; uploads are checked after processing, before anything is stored.
import type { Transaction } from 'kysely';
import type { Refusal } from '../../../src/lib/refusals.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ImageJobs } from '../image-work/image-jobs.ts';
import type { TextureLibrary } from './texture-library.ts';
import { isPerceptualMatch, NO_PERCEPTUAL_HASH } from '../pipeline/perceptual-hash.ts';
import { TextureRejected } from '../pipeline/process.ts';

/** The answer to an upload of a blocklisted picture. */
export const BLOCKLISTED_MESSAGE =
  "This picture was removed by our moderators for breaking the rules and can't be uploaded again.";
/** The refusal of a blocklisted picture: its reason code with BLOCKLISTED_MESSAGE. */
export const BLOCKLISTED_REFUSAL: Refusal = { reason: 'blocklisted', message: BLOCKLISTED_MESSAGE };

/** What blocklisting a removal needs: the stored textures and the image jobs that hash them. */
export interface BlocklistContext {
  library: TextureLibrary;
  imageJobs: ImageJobs;
}

/**
 * A removed texture: its still (or a gallery animation's strip) and, for an animated cape, its strip, blocked with the
 * still's perceptual hash.
 */
export interface RemovedTexture {
  hash: string;
  stripHash?: string | null;
}

/** Who removed the textures and why, as the blocklist keeps it. */
export interface BlocklistReason {
  reason: string;
  adminUuid: string;
}

/** An upload as the blocklist checks it: its content hashes and the perceptual probes of its still. */
export interface UploadToCheck {
  still: { hash: string };
  strip: { hash: string } | null;
  probes: string[];
}

/**
 * Hashes removed textures' first frames in the image jobs (before the removal's transaction, which must not wait on
 * image work) and returns the step that puts them on the blocklist inside that transaction; a hash already there keeps
 * its first row. A texture whose bytes are gone is blocked by content only.
 */
export async function prepareBlocklisting(
  context: BlocklistContext,
  removed: RemovedTexture[],
  why: BlocklistReason,
  now = Date.now(),
): Promise<(trx: Transaction<Database>) => Promise<void>> {
  const rows = new Map<string, string>();
  for (const texture of removed) {
    const bytes = await context.library.read(texture.hash);
    const phash = bytes ? await context.imageJobs.run('perceptualHash', bytes, null) : NO_PERCEPTUAL_HASH;
    for (const hash of [texture.hash, texture.stripHash]) if (hash && !rows.has(hash)) rows.set(hash, phash);
  }
  return async (trx) => {
    if (rows.size === 0) return;
    await trx
      .insertInto('texture_blocklist')
      .values(
        [...rows].map(([hash, phash]) => ({
          hash,
          phash,
          reason: why.reason,
          admin_uuid: why.adminUuid,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  };
}

/**
 * Throws TextureRejected with BLOCKLISTED_MESSAGE when an upload's still or strip is blocklisted by content, or its
 * still is near a blocklisted picture.
 */
export async function refuseBlocklisted(db: Db, upload: UploadToCheck): Promise<void> {
  const hashes = [upload.still.hash, upload.strip?.hash];
  const blocked = await db.selectFrom('texture_blocklist').select(['hash', 'phash']).execute();
  if (blocked.some((row) => hashes.includes(row.hash) || isPerceptualMatch(upload.probes, row.phash)))
    throw new TextureRejected(BLOCKLISTED_REFUSAL);
}

/**
 * Throws TextureRejected with BLOCKLISTED_MESSAGE when a stored texture (a made cape) is blocklisted, checked as an
 * upload is: by content and by the look of its first frame.
 */
export async function refuseBlocklistedTexture(
  db: Db,
  imageJobs: ImageJobs,
  texture: { hash: string; bytes: Buffer },
  owner: string,
): Promise<void> {
  const probes = await imageJobs.run('perceptualProbes', texture.bytes, owner);
  await refuseBlocklisted(db, { still: texture, strip: null, probes });
}
