// The creators' outputs: each made once per set of settings (a repeated request is answered from the cache) and taken
// in by the texture intake (checked against the blocklist, and stored as a texture that nothing refers to yet, so the
// leftover sweep removes it unless the player uses it as their cape or shares it to the gallery first; its preview is
// stored beside it). A creation
// belongs to the players who made it (asked for it, the cache answering or not), for its lifetime: only they may wear,
// share or preview it, besides anyone who may see it as a gallery item.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/users.ts';
import { galleryItemOwner } from '../gallery/items.ts';
import { seesHiddenItems } from '../gallery/visibility.ts';
import type { Refused } from '../../src/lib/refusals.ts';
import type { CreationRequest } from '../textures/generators/index.ts';
import type { ImageJobs } from '../textures/image-work/image-jobs.ts';
import type { TextureIntake } from '../textures/intake/intake.ts';
import type { TextureLibrary } from '../textures/library/texture-library.ts';

/** A stored creation: its texture (an animation's strip, else the still), the still, and the note for the player. */
export interface StoredCreation {
  /** The texture a creation is known by: the strip of an animation, otherwise the still cape. */
  hash: string;
  stillHash: string;
  frames: number;
  width: number;
  height: number;
  notice: string | null;
}

/**
 * How many settings the cache remembers, and for how long (well under the sweep's grace period, so a hit is rarely
 * swept).
 */
const CACHE_ENTRIES = 2000;
const CACHE_TTL_MS = 20 * 60_000;

/** A cache key for a generator's settings: the settings as JSON, with every byte array replaced by its SHA-256. */
export function creationKey(request: CreationRequest): string {
  // A Buffer reaches a replacer already turned into {type, data} by its toJSON: the holder (`this`) still has the
  // bytes.
  const json = JSON.stringify(request, function (this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    return original instanceof Uint8Array ? `sha256:${createHash('sha256').update(original).digest('hex')}` : value;
  });
  return createHash('sha256').update(json).digest('hex');
}

/** A creation and whether the cache had it. */
export interface Made {
  creation: StoredCreation;
  cached: boolean;
}

/** What the creations use: the rows, the stored textures, the image jobs of a lost preview, and the intake. */
export interface CreationsContext {
  db: Db;
  library: TextureLibrary;
  imageJobs: ImageJobs;
  intake: TextureIntake;
}

/** What a player may do with a texture named as a creation: nothing, wear or share it, or only see its preview. */
export type CreationAccess = 'none' | 'use' | 'preview';

/** Forgets who made creations made before `before` (their lifetime is over); run with the leftover sweep. */
export async function forgetOldMakers(db: Db, before: number): Promise<void> {
  await db.deleteFrom('creation_makers').where('made_at', '<', before).execute();
}

/** Makes, stores and remembers creations. */
export class Creations {
  private readonly cache = new Map<string, { creation: StoredCreation; expires: number }>();
  private readonly making = new Map<string, Promise<StoredCreation | Refused>>();
  /** How many requests the cache answered, and how many it did not. */
  readonly stats = { hits: 0, misses: 0 };

  /**
   * `lifetimeMs`: how long after making it a player may wear, share or preview a creation (the leftover sweep's grace).
   */
  constructor(
    private readonly context: CreationsContext,
    private readonly lifetimeMs: number,
  ) {}

  /**
   * The creation for a generator's settings, made by `maker` (its image work counted to them), and whether the cache
   * had it (see makeByKey); or the refusal of what it drew.
   */
  make(request: CreationRequest, maker: string, now = Date.now()): Promise<Made | Refused> {
    return this.makeByKey(creationKey(request), async () => request, maker, now);
  }

  /**
   * The creation cached under `key` while its texture is still stored, otherwise made now from the request `build`
   * resolves (which may call an outside service) as image work of `maker`; concurrent equal keys share one making.
   * Either way `maker` made it. A refusal of what was drawn is answered, and nobody made anything.
   */
  async makeByKey(
    key: string,
    build: () => Promise<CreationRequest>,
    maker: string,
    now = Date.now(),
  ): Promise<Made | Refused> {
    const made = await this.lookUpOrProduce(key, build, maker, now);
    if ('refusal' in made) return made;
    await this.context.db
      .insertInto('creation_makers')
      .values({ hash: made.creation.hash, user_uuid: maker, made_at: now })
      .onConflict((oc) => oc.columns(['hash', 'user_uuid']).doUpdateSet({ made_at: now }))
      .execute();
    return made;
  }

  /**
   * What `viewer` may do with `hash`: wear or share their own creation within its lifetime, or a listed gallery item;
   * see the preview of those, and of a hidden gallery item when they see hidden items. Anything else is 'none', so an
   * answer never tells a hidden item or another player's texture from an unknown hash.
   */
  async access(hash: string, viewer: UserRow, now = Date.now()): Promise<CreationAccess> {
    const own = await this.context.db
      .selectFrom('creation_makers')
      .select('made_at')
      .where('hash', '=', hash)
      .where('user_uuid', '=', viewer.uuid)
      .where('made_at', '>=', now - this.lifetimeMs)
      .executeTakeFirst();
    if (own || (await galleryItemOwner(this.context.db, hash))) return 'use';
    if (seesHiddenItems(viewer) && (await galleryItemOwner(this.context.db, hash, true))) return 'preview';
    return 'none';
  }

  private async lookUpOrProduce(
    key: string,
    build: () => Promise<CreationRequest>,
    maker: string,
    now: number,
  ): Promise<Made | Refused> {
    const cached = this.cache.get(key);
    // A kept creation is answered again only while it may be served: one a moderator removed is made again, and the
    // blocklist then refuses it.
    if (cached && cached.expires > now && (await this.context.library.servable(cached.creation.hash))) {
      this.stats.hits += 1;
      this.cache.delete(key);
      this.cache.set(key, cached);
      return { creation: cached.creation, cached: true };
    }
    this.stats.misses += 1;
    let pending = this.making.get(key);
    if (!pending) {
      pending = build()
        .then((request) => this.produce(request, maker))
        .finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    const creation = await pending;
    if ('refusal' in creation) return creation;
    this.remember(key, creation, now);
    return { creation, cached: false };
  }

  /**
   * The stored 320 x 180 preview of a creation (rendered again if it was lost, as the image work of `viewer`, the
   * player asking), or null when the creation is gone or may not be served (a moderator removed the picture); with
   * `evidence` (a moderator's view of a hidden gallery item), whether it may be served or not.
   */
  preview(hash: string, viewer: string, evidence: boolean): Promise<Buffer | null> {
    const build = (bytes: Buffer) => this.context.imageJobs.run('capePreview', bytes, viewer);
    const { library } = this.context;
    return evidence ? library.derived(hash, 'preview', build) : library.readDerived(hash, 'preview', build);
  }

  private remember(key: string, creation: StoredCreation, now: number): void {
    this.cache.delete(key);
    this.cache.set(key, { creation, expires: now + CACHE_TTL_MS });
    while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }

  /** A creation drawn and taken in by the intake, as the cache keeps it. */
  private async produce(request: CreationRequest, maker: string): Promise<StoredCreation | Refused> {
    const made = await this.context.intake.make(request, maker);
    if ('refusal' in made) return made;
    const { texture, stillHash, notice } = made;
    return {
      hash: texture.hash,
      stillHash,
      frames: texture.frames,
      width: texture.width,
      height: texture.height,
      notice,
    };
  }
}
