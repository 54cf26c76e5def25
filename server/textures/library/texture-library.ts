// Stored textures: put once by hash (blob first, then its row), removed when nothing refers to them any more, and
// withheld (kept for the moderators, served to nobody) when a moderator removed them or no one shows them publicly.
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { EncodedTexture } from '../pipeline/process.ts';
import type { TextureCache } from './cache.ts';
import { countPlayerReferences, countPublicPlayerReferences } from './player-columns.ts';
import { countWardrobeReferences } from './wardrobe-items.ts';

/**
 * Images rendered from a texture and kept beside it in the blob store: gallery previews, maps and the GIF of a strip.
 */
export type DerivedVariant = 'preview' | 'map' | 'gif';
const DERIVED_VARIANTS: DerivedVariant[] = ['preview', 'map', 'gif'];

/** The blob key of an image rendered from a texture; removed with the texture. */
export function derivedKey(hash: string, variant: DerivedVariant): string {
  return createHash('sha256').update(`${variant}:v1:${hash}`).digest('hex');
}

/**
 * The byte cache's key of an image rendered from a texture: never a texture's hash, so an image kept for one route is
 * never answered as a texture by another (`/textures/{key}`).
 */
function derivedCacheKey(hash: string, variant: DerivedVariant): string {
  return `${variant}:${hash}`;
}

/** Every blob key a texture owns: its own bytes and each image rendered from it. */
export function textureBlobKeys(hash: string): string[] {
  return [hash, ...DERIVED_VARIANTS.map((variant) => derivedKey(hash, variant))];
}

/** What a stored texture is used as. */
export type TextureKind = 'cape' | 'cape-strip' | 'ears' | 'gallery' | 'creation';

/** A place that can refer to a texture: returns how many references a hash has there. */
export type ReferenceCounter = (db: Db, hash: string) => Promise<number>;

/** The texture library: the blob store plus the `textures` rows. */
export class TextureLibrary {
  private readonly counters: ReferenceCounter[] = [countPlayerReferences, countWardrobeReferences];
  /**
   * The references that make a texture public (players who are not banned, visible gallery items); evidence is not one.
   */
  private readonly publicCounters: ReferenceCounter[] = [countPublicPlayerReferences];
  private readonly storeListeners: Array<(hash: string) => Promise<void>> = [];
  private readonly removalListeners: Array<(hash: string) => Promise<void>> = [];
  /** Derived images being built, by blob key, so concurrent requests share one build. */
  private readonly building = new Map<string, Promise<Buffer | null>>();
  /** Moves on every release, so a read that raced with a release does not cache the released bytes. */
  private releases = 0;

  constructor(
    private readonly db: Db,
    readonly store: BlobStore,
    private readonly cache?: TextureCache,
  ) {}

  /**
   * Adds another place that refers to textures (the gallery), so release never removes a texture in use; `publicUse`
   * counts the references there that show a texture publicly (none for the moderators' evidence: reports, the AI log).
   */
  addReferenceCounter(counter: ReferenceCounter, publicUse?: ReferenceCounter): void {
    this.counters.push(counter);
    if (publicUse) this.publicCounters.push(publicUse);
  }

  /**
   * Adds a listener told of every texture this library registers (the mod API's change notices), awaited before put
   * resolves.
   */
  onStored(listener: (hash: string) => Promise<void>): void {
    this.storeListeners.push(listener);
  }

  /**
   * Adds a listener told of every texture this library removes (the mod API's change notices), awaited before release
   * resolves.
   */
  onRemoved(listener: (hash: string) => Promise<void>): void {
    this.removalListeners.push(listener);
  }

  /** Drops a texture's bytes and its derived images from this process's memory (it was released, here or elsewhere). */
  forget(hash: string): void {
    this.cache?.delete(hash);
    for (const variant of DERIVED_VARIANTS) this.cache?.delete(derivedCacheKey(hash, variant));
  }

  /**
   * Stores a texture once: the blob first, then its row. Storing the same bytes again does nothing new. A new row of a
   * picture a moderator removed (on the blocklist) is withheld from the start: storing never makes it public.
   */
  async put(texture: EncodedTexture, kind: TextureKind, now = Date.now()): Promise<string> {
    const known = await this.db
      .selectFrom('textures')
      .select(['hash', 'withheld_at'])
      .where('hash', '=', texture.hash)
      .executeTakeFirst();
    if (!known || !(await this.store.has(texture.hash))) await this.store.put(texture.hash, texture.bytes);
    const inserted = await this.db
      .insertInto('textures')
      .values({
        hash: texture.hash,
        kind,
        width: texture.width,
        height: texture.height,
        frames: texture.frames,
        bytes: texture.bytes.length,
        created_at: now,
        withheld_at: sql<
          number | null
        >`(SELECT CAST(${now} AS bigint) FROM texture_blocklist WHERE texture_blocklist.hash = ${texture.hash})`,
      })
      .onConflict((oc) => oc.column('hash').doNothing())
      .executeTakeFirst();
    // A withheld texture stored again by a checked upload is public again, unless a moderator removed that picture.
    const servedAgain = known?.withheld_at != null && (await this.serveAgain(texture.hash));
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 || servedAgain)
      for (const listener of this.storeListeners) await listener(texture.hash);
    return texture.hash;
  }

  /** Re-stores a texture whose row or blob a concurrent release removed between put and the referencing update. */
  async ensure(texture: EncodedTexture, kind: TextureKind): Promise<void> {
    const row = await this.db.selectFrom('textures').select('hash').where('hash', '=', texture.hash).executeTakeFirst();
    if (!row || !(await this.store.has(texture.hash))) await this.put(texture, kind);
  }

  /** How many references a hash has from every place that refers to textures. */
  async references(hash: string): Promise<number> {
    let references = 0;
    for (const count of this.counters) references += await count(this.db, hash);
    return references;
  }

  /** How many references show a hash publicly. */
  private async publicReferences(hash: string): Promise<number> {
    let references = 0;
    for (const count of this.publicCounters) references += await count(this.db, hash);
    return references;
  }

  /**
   * Withholds textures inside the caller's transaction (a moderator's removal): from then on no public URL serves them,
   * while their rows and bytes stay for the moderators. Returns the ones that were public; pass them to
   * `announceWithheld` once the transaction commits.
   */
  async withhold(trx: Transaction<Database>, hashes: string[], now = Date.now()): Promise<string[]> {
    if (hashes.length === 0) return [];
    const rows = await trx
      .selectFrom('textures')
      .select('hash')
      .where('hash', 'in', hashes)
      .where('withheld_at', 'is', null)
      .execute();
    const withheld = rows.map((row) => row.hash);
    if (withheld.length > 0)
      await trx.updateTable('textures').set({ withheld_at: now }).where('hash', 'in', withheld).execute();
    return withheld;
  }

  /**
   * Drops withheld textures from this process's memory and tells the listeners (every other process, the answer files).
   */
  async announceWithheld(hashes: string[]): Promise<void> {
    for (const hash of hashes) {
      this.releases += 1;
      this.forget(hash);
      for (const listener of this.removalListeners) await listener(hash);
    }
  }

  /**
   * After players stopped showing textures (a ban, a deleted account): removes what nothing refers to any more, and
   * withholds what is left that no one shows publicly (kept only as a report's or the AI log's evidence).
   */
  async retire(hashes: Array<string | null | undefined>, now = Date.now()): Promise<void> {
    const removed = await this.release(hashes);
    const left = [...new Set(hashes.filter((hash): hash is string => Boolean(hash) && !removed.includes(hash!)))];
    const unshown: string[] = [];
    for (const hash of left) if ((await this.publicReferences(hash)) === 0) unshown.push(hash);
    await this.announceWithheld(await this.db.transaction().execute((trx) => this.withhold(trx, unshown, now)));
  }

  /**
   * Serves again the withheld textures among `hashes` that someone shows publicly, unless a moderator removed them (an
   * unban).
   */
  async restore(hashes: Array<string | null | undefined>): Promise<void> {
    for (const hash of new Set(hashes.filter((value): value is string => Boolean(value)))) {
      if ((await this.publicReferences(hash)) > 0 && (await this.serveAgain(hash)))
        for (const listener of this.storeListeners) await listener(hash);
    }
  }

  /**
   * Serves a withheld texture again, unless a moderator removed that picture (it is on the blocklist); whether it
   * changed.
   */
  private async serveAgain(hash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('textures')
      .set({ withheld_at: null })
      .where('hash', '=', hash)
      .where('withheld_at', 'is not', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('texture_blocklist').select('hash').where('hash', '=', hash))))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Removes each given texture that nothing refers to any more (row, then blobs); resolves to the hashes it removed.
   */
  async release(hashes: Array<string | null | undefined>): Promise<string[]> {
    const removed: string[] = [];
    for (const hash of new Set(hashes.filter((value): value is string => Boolean(value)))) {
      if ((await this.references(hash)) > 0) continue;
      await this.db.deleteFrom('textures').where('hash', '=', hash).execute();
      this.releases += 1;
      this.forget(hash);
      for (const key of textureBlobKeys(hash)) await this.store.delete(key);
      for (const listener of this.removalListeners) await listener(hash);
      removed.push(hash);
    }
    return removed;
  }

  /**
   * An image derived from a texture: read from the store, or built once from the texture (concurrent callers share the
   * build) and kept; null when the texture is gone.
   */
  async derived(
    hash: string,
    variant: DerivedVariant,
    build: (texture: Buffer) => Promise<Buffer>,
  ): Promise<Buffer | null> {
    const key = derivedKey(hash, variant);
    const stored = await this.store.get(key);
    if (stored) return stored;
    let pending = this.building.get(key);
    if (!pending) {
      pending = (async () => {
        const texture = await this.store.get(hash);
        if (!texture) return null;
        const image = await build(texture);
        await this.store.put(key, image);
        return image;
      })().finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  /** Stores an image derived from a stored texture (made as someone's image work before the texture is used). */
  async putDerived(hash: string, variant: DerivedVariant, image: Buffer): Promise<void> {
    await this.store.put(derivedKey(hash, variant), image);
  }

  /**
   * An image derived from a registered texture when the cache holds it and it needs no check against the database;
   * otherwise undefined.
   */
  cachedDerived(hash: string, variant: DerivedVariant, now = Date.now()): Buffer | undefined {
    const cached = this.cache?.get(derivedCacheKey(hash, variant), now);
    return cached?.fresh ? cached.bytes : undefined;
  }

  /**
   * An image derived from a registered texture (see derived), kept in the byte cache beside the textures; null when the
   * texture is not registered or is withheld.
   */
  async readDerived(
    hash: string,
    variant: DerivedVariant,
    build: (texture: Buffer) => Promise<Buffer>,
    now = Date.now(),
  ): Promise<Buffer | null> {
    return this.readChecked(hash, derivedCacheKey(hash, variant), now, false, () => this.derived(hash, variant, build));
  }

  /**
   * Whether a picture may be served to the public, as its bytes or as an image made from them (a preview, a map, a
   * GIF): it is stored and not withheld (a moderator removed it, or only a banned or deleted player showed it). The one
   * rule: every route that answers picture bytes to the public reads them through readRegistered or readDerived (or
   * their cached forms, which hold only what this admitted and drop what is withheld since); moderators' evidence views
   * read them with read and derived.
   */
  async servable(hash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('textures')
      .select('hash')
      .where('hash', '=', hash)
      .where('withheld_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** When a texture was registered (ms since the epoch), or null when it is not registered. */
  async registeredAt(hash: string): Promise<number | null> {
    const row = await this.db.selectFrom('textures').select('created_at').where('hash', '=', hash).executeTakeFirst();
    return row ? Number(row.created_at) : null;
  }

  /** The stored bytes of a texture, or null, whether it may be served or not (the moderators' evidence). */
  async read(hash: string): Promise<Buffer | null> {
    return this.store.get(hash);
  }

  /**
   * A stored texture as the pipeline made it (its bytes, size and frames), or null when its row or bytes are gone; a
   * withheld one only with `withheld` set.
   */
  async readTexture(hash: string, options: { withheld: boolean }): Promise<EncodedTexture | null> {
    const row = await this.db
      .selectFrom('textures')
      .select(['width', 'height', 'frames'])
      .where('hash', '=', hash)
      .$if(!options.withheld, (query) => query.where('withheld_at', 'is', null))
      .executeTakeFirst();
    const bytes = row ? await this.read(hash) : null;
    return row && bytes ? { hash, bytes, width: row.width, height: row.height, frames: row.frames } : null;
  }

  /**
   * The bytes of a registered texture when the cache holds them and they need no check against the database; otherwise
   * undefined.
   */
  cachedRegistered(hash: string, now = Date.now()): Buffer | undefined {
    const cached = this.cache?.get(hash, now);
    return cached?.fresh ? cached.bytes : undefined;
  }

  /**
   * The bytes of a registered texture that is not withheld (not of a rendered image or anything else in the store), or
   * null; from the cache when it has them (with `recheck`, only once the database confirms the texture is registered).
   */
  async readRegistered(hash: string, now = Date.now(), options: { recheck?: boolean } = {}): Promise<Buffer | null> {
    return this.readChecked(hash, hash, now, options.recheck ?? false, () => this.store.get(hash));
  }

  /**
   * The bytes cached under `key` (the texture's hash, or derivedCacheKey for an image made from it), or null when the
   * texture may not be served: fresh cached bytes are answered without the database unless `recheck`; otherwise the
   * texture is checked with `servable` (one that may not be served drops the key from the cache), the bytes are the
   * cached ones or loaded, and they are cached unless a release ran meanwhile.
   */
  private async readChecked(
    hash: string,
    key: string,
    now: number,
    recheck: boolean,
    load: () => Promise<Buffer | null>,
  ): Promise<Buffer | null> {
    const cached = this.cache?.get(key, now);
    if (cached?.fresh && !recheck) return cached.bytes;
    const releases = this.releases;
    if (!(await this.servable(hash))) {
      this.cache?.delete(key);
      return null;
    }
    const bytes = cached?.bytes ?? (await load());
    if (bytes && releases === this.releases) this.cache?.set(key, bytes, now);
    return bytes;
  }
}
