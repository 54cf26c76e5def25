// The blocklist of pictures moderators removed for breaking the rules, by content hash and by perceptual hash: the same
// picture re-saved, touched up or nudged is refused at upload. Removals hash their textures in the image jobs before
// their transaction and add the rows inside it; the texture intake checks what comes in after processing, before
// anything is stored.
import type { Transaction } from 'kysely';
import type { Refusal } from '../../../src/lib/refusals.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ImageJobs } from '../image-work/image-jobs.ts';
import type { TextureLibrary } from './texture-library.ts';
import { NO_PERCEPTUAL_HASH, PerceptualHashSet } from '../pipeline/perceptual-hash.ts';

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
 * The blocklist as what comes in is checked against it: by content, one look-up by primary key a check; by look,
 * against an in-memory set of the blocked perceptual hashes. The set is kept in step with the table by its row count
 * and newest row, read with every check: rows are only ever added (a moderator's removal adds them; nothing takes them
 * off), so the hashes are read again only after a removal, here or in another process.
 */
export class Blocklist {
  private looks = new PerceptualHashSet([]);
  private version: string | null = null;

  constructor(private readonly db: Db) {}

  /**
   * BLOCKLISTED_REFUSAL when an upload's still or strip is blocklisted by content, or its still is near a blocklisted
   * picture; null otherwise.
   */
  async refusal(upload: UploadToCheck): Promise<Refusal | null> {
    const hashes = upload.strip ? [upload.still.hash, upload.strip.hash] : [upload.still.hash];
    const listed = await this.db
      .selectFrom('texture_blocklist')
      .select('hash')
      .where('hash', 'in', hashes)
      .executeTakeFirst();
    if (listed || (await this.perceptualHashes()).matches(upload.probes)) return BLOCKLISTED_REFUSAL;
    return null;
  }

  /** The blocked perceptual hashes, read again when rows were added since they were last read. */
  private async perceptualHashes(): Promise<PerceptualHashSet> {
    const state = await this.db
      .selectFrom('texture_blocklist')
      .select((eb) => [eb.fn.countAll().as('rows'), eb.fn.max('created_at').as('newest')])
      .executeTakeFirstOrThrow();
    const version = `${state.rows}:${state.newest}`;
    if (version === this.version) return this.looks;
    // Read after the version: a row added in between is in the set, and the next check reads the set once more.
    const rows = await this.db.selectFrom('texture_blocklist').select('phash').distinct().execute();
    this.looks = new PerceptualHashSet(rows.map((row) => row.phash));
    this.version = version;
    return this.looks;
  }
}
