// Mod API profiles: a player's answers (server/mod/player-answers.ts), loaded from the database and kept in an
// in-process cache.
import type { Db } from '../db/database.ts';
import { isUsername, normalizeUuid } from '../../src/lib/ids.ts';
import { buildPlayerAnswers, loadPlayerRow, type PlayerAnswers } from './player-answers.ts';

/** A cached profile: a player's answers, with the name it was asked for by and when it expires. */
export interface CachedProfile extends PlayerAnswers {
  /** The lowercase name it was asked for by, or null when it was asked for by uuid. */
  nameLower: string | null;
  /** When it expires, in whole seconds on the cache's clock: a small integer, so no boxed number per entry. */
  expiresAt: number;
}

/** How long an unknown player is remembered as unknown. */
const MISSING_TTL_MS = 10_000;

/** A player id from the URL: a uuid (dashes allowed) or a username; null when it is neither. */
export function parsePlayerId(id: string): { uuid: string } | { username: string } | null {
  const uuid = normalizeUuid(id);
  if (uuid) return { uuid };
  return isUsername(id) ? { username: id.toLowerCase() } : null;
}

/** Builds profile bodies from the database and caches them by uuid and username. */
export class ProfileCache {
  private readonly byUuid = new Map<string, CachedProfile>();
  private readonly uuidByName = new Map<string, string>();
  private readonly missing = new Map<string, number>();
  /** Moves on every invalidation, so a load that raced with a change is not cached. */
  private generation = 0;
  private readonly clockStart = Date.now();
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly db: Db,
    private readonly texturesBaseUrl: string,
    private readonly maxEntries: number,
    /** How long a found profile is kept without a change notice (bounds staleness from other writers). */
    private readonly foundTtlMs = 5 * 60_000,
  ) {}

  /**
   * The fresh cached profile of a 32-hex lowercase uuid (what the mod sends), without parsing or loading anything; a
   * find counts as a hit.
   */
  cached(uuid: string, now = Date.now()): CachedProfile | undefined {
    const entry = this.byUuid.get(uuid);
    if (entry === undefined || entry.expiresAt <= this.seconds(now)) return undefined;
    this.hitCount += 1;
    return entry;
  }

  /**
   * The fresh cached profile for any id (uuid, dashed or not, any case, or a name asked for before), without loading
   * anything; a find counts as a hit.
   */
  cachedById(id: string, now = Date.now()): CachedProfile | undefined {
    const direct = this.cached(id, now);
    if (direct) return direct;
    const byUuid = normalizeUuid(id);
    const nameLower = byUuid === null && isUsername(id) ? id.toLowerCase() : null;
    const uuid = byUuid ?? (nameLower === null ? undefined : this.uuidByName.get(nameLower));
    if (uuid === undefined) return undefined;
    const entry = this.byUuid.get(uuid);
    if (entry === undefined || entry.expiresAt <= this.seconds(now)) return undefined;
    // A name's entry may outlive its profile's (each map drops its own oldest): the player may since have been renamed.
    if (nameLower !== null && entry.nameLower !== nameLower) return undefined;
    this.hitCount += 1;
    return entry;
  }

  /** The cached profile for an id, loading it on a miss; null for an unknown player. */
  async get(id: string, now = Date.now()): Promise<CachedProfile | null> {
    const hit = this.cachedById(id, now);
    if (hit) return hit;
    const parsed = parsePlayerId(id);
    if (!parsed) return null;
    const key = 'uuid' in parsed ? parsed.uuid : `name:${parsed.username}`;
    const missingUntil = this.missing.get(key);
    if (missingUntil !== undefined && missingUntil > now) {
      this.hitCount += 1;
      return null;
    }
    this.missCount += 1;
    const generation = this.generation;
    const loaded = await this.load(parsed, now);
    if (generation !== this.generation) return loaded;
    if (!loaded) {
      this.remember(this.missing, key, now + MISSING_TTL_MS);
      return null;
    }
    this.remember(this.byUuid, loaded.uuid, loaded);
    // Names are remembered only when asked by name: the mod asks by uuid, and a million names would cost memory for
    // nothing.
    if ('username' in parsed) this.remember(this.uuidByName, parsed.username, loaded.uuid);
    return loaded;
  }

  /**
   * Forgets everything cached about a player (call on every change to their account, textures or premium), and every
   * "unknown" answer.
   */
  invalidate(uuid: string): void {
    this.generation += 1;
    const entry = this.byUuid.get(uuid);
    this.byUuid.delete(uuid);
    if (entry?.nameLower) this.uuidByName.delete(entry.nameLower);
    this.missing.clear();
  }

  /** Lookups answered from the cache so far (a known player, or one remembered as unknown). */
  get hits(): number {
    return this.hitCount;
  }

  /** Lookups that went to the database so far. */
  get misses(): number {
    return this.missCount;
  }

  /** How many players are cached. */
  get size(): number {
    return this.byUuid.size;
  }

  /** A time on the cache's clock: whole seconds since the cache was made. */
  private seconds(now: number): number {
    return Math.floor((now - this.clockStart) / 1000);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.maxEntries) map.delete(map.keys().next().value!);
  }

  private async load(id: { uuid: string } | { username: string }, now: number): Promise<CachedProfile | null> {
    const row = await loadPlayerRow(this.db, id);
    if (!row) return null;
    return {
      ...buildPlayerAnswers(row, this.texturesBaseUrl),
      nameLower: 'username' in id ? id.username : null,
      expiresAt: this.seconds(now + this.foundTtlMs),
    };
  }
}
