// The bytes of registered textures kept in memory for the mod API: least recently used first out, bounded by total
// bytes.

/** A texture held in memory, and when to ask the database again whether it is still registered. */
interface CachedTexture {
  bytes: Buffer;
  checkAfter: number;
}

/**
 * What a lookup found: fresh bytes (serve them), bytes due for a check (serve them once the row is confirmed), or
 * nothing.
 */
export type TextureLookup = { bytes: Buffer; fresh: boolean } | null;

/**
 * Registered textures' bytes by hash. A hash's bytes never change (content-addressed); what can change is whether the
 * texture is still registered: this process's library forgets a released hash at once, and an entry is re-checked
 * against the database after `recheckMs`, which bounds how long a release made by another process goes unnoticed.
 */
export class TextureCache {
  private readonly entries = new Map<string, CachedTexture>();
  private bytesHeld = 0;

  constructor(
    readonly maxBytes: number,
    private readonly recheckMs = 60_000,
  ) {}

  /** The bytes cached for a hash (marked most recently used), with whether they may be served without a check. */
  get(hash: string, now = Date.now()): TextureLookup {
    const entry = this.entries.get(hash);
    if (!entry) return null;
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return { bytes: entry.bytes, fresh: entry.checkAfter > now };
  }

  /**
   * Keeps a texture's bytes (confirmed registered at `now`), dropping the least recently used ones beyond the budget.
   */
  set(hash: string, bytes: Buffer, now = Date.now()): void {
    this.delete(hash);
    if (bytes.length > this.maxBytes) return;
    this.entries.set(hash, { bytes, checkAfter: now + this.recheckMs });
    this.bytesHeld += bytes.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytesHeld <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytesHeld -= entry.bytes.length;
    }
  }

  /** Forgets a texture (released, or no longer registered). */
  delete(hash: string): void {
    const entry = this.entries.get(hash);
    if (!entry) return;
    this.entries.delete(hash);
    this.bytesHeld -= entry.bytes.length;
  }

  /** How many bytes of textures are held. */
  get size(): number {
    return this.bytesHeld;
  }
}
