// Unit tests for the mod API's in-process profile cache (server/mod/profiles.ts): ids, invalidation and in-flight
// loads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import { upsertUser } from '../../../server/db/users.ts';
import { parsePlayerId, ProfileCache } from '../../../server/mod/profiles.ts';

const BASE = 'https://cdn.example/textures';
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/** A Kysely plugin that holds every query result until release() is called (to interleave a load with a change). */
class HoldResults implements KyselyPlugin {
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;
  /** Resolves when a query result is being held. */
  held: Promise<void> = Promise.resolve();
  private signalHeld: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
    this.held = new Promise((resolve) => (this.signalHeld = resolve));
  }

  release(): void {
    this.open();
  }

  transformQuery(args: Parameters<KyselyPlugin['transformQuery']>[0]) {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.signalHeld();
    await this.gate;
    return args.result;
  }
}

describe('ProfileCache', () => {
  let dir: string;
  let db: Db;
  let writer: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-profile-cache-'));
    db = openDatabase(`sqlite:${path.join(dir, 'cloakroom.db')}`);
    await migrateToLatest(db);
    writer = openDatabase(`sqlite:${path.join(dir, 'cloakroom.db')}`);
  });

  afterAll(async () => {
    await db?.destroy();
    await writer?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function newPlayer(uuid: string, username: string, capeHash: string | null): Promise<void> {
    await upsertUser(db, uuid, username);
    await db.updateTable('users').set({ cape_hash: capeHash }).where('uuid', '=', uuid).execute();
  }

  it('parses uuids with or without dashes and usernames; anything else is null', () => {
    expect(parsePlayerId('0123456789ABCDEF0123456789abcdef')).toEqual({ uuid: '0123456789abcdef0123456789abcdef' });
    expect(parsePlayerId('01234567-89ab-cdef-0123-456789abcdef')).toEqual({ uuid: '0123456789abcdef0123456789abcdef' });
    expect(parsePlayerId('Some_Name')).toEqual({ username: 'some_name' });
    for (const bad of ['', 'a'.repeat(17), 'bad-name', 'space name', '0123456789abcdef0123456789abcdef0'])
      expect(parsePlayerId(bad), bad).toBeNull();
  });

  it('keeps serving a cached profile until invalidated, by uuid and by name', async () => {
    const uuid = '1'.repeat(32);
    await newPlayer(uuid, 'CachedOne', HASH_A);
    const cache = new ProfileCache(db, BASE, 100);
    expect(JSON.parse((await cache.get(uuid))!.json).cape_url).toBe(`${BASE}/${HASH_A}`);
    expect((await cache.get('cachedone'))!.uuid).toBe(uuid);
    await db.updateTable('users').set({ cape_hash: HASH_B }).where('uuid', '=', uuid).execute();
    expect(JSON.parse((await cache.get(uuid))!.json).cape_url, 'no notice yet: still cached').toBe(`${BASE}/${HASH_A}`);
    cache.invalidate(uuid);
    expect(JSON.parse((await cache.get(uuid))!.json).cape_url).toBe(`${BASE}/${HASH_B}`);
    expect(JSON.parse((await cache.get('CACHEDONE'))!.json).cape_url).toBe(`${BASE}/${HASH_B}`);
  });

  it('reloads a profile once its time to live has passed, without a change notice', async () => {
    const uuid = '8'.repeat(32);
    await newPlayer(uuid, 'Expiring8', HASH_A);
    const cache = new ProfileCache(db, BASE, 100, 60_000);
    const now = Date.now();
    await cache.get(uuid, now);
    await db.updateTable('users').set({ cape_hash: HASH_B }).where('uuid', '=', uuid).execute();
    expect(JSON.parse((await cache.get(uuid, now + 59_000))!.json).cape_url).toBe(`${BASE}/${HASH_A}`);
    expect(JSON.parse((await cache.get(uuid, now + 60_000))!.json).cape_url).toBe(`${BASE}/${HASH_B}`);
  });

  it('answers cached() only for a fresh entry under its 32-hex lowercase uuid, loading nothing', async () => {
    const uuid = '9'.repeat(32);
    await newPlayer(uuid, 'Cached9', HASH_A);
    const cache = new ProfileCache(db, BASE, 100, 60_000);
    expect(cache.cached(uuid), 'not asked for yet').toBeUndefined();
    const now = Date.now();
    const loaded = await cache.get(uuid, now);
    expect(cache.cached(uuid, now)).toBe(loaded);
    expect(cache.cached('Cached9', now), 'a name is not a key').toBeUndefined();
    expect(cache.cached(uuid, now + 60_000), 'expired').toBeUndefined();
  });

  it('does not find a renamed player under the old name, also after the cache had dropped their profile', async () => {
    const uuid = '3'.repeat(32);
    await newPlayer(uuid, 'OldName', HASH_A);
    const cache = new ProfileCache(db, BASE, 2);
    expect((await cache.get('OldName'))?.uuid).toBe(uuid);
    // Two other players push the profile out of the cache (at most 2); the name's entry stays.
    await newPlayer('4'.repeat(32), 'Other4', null);
    await newPlayer('5'.repeat(32), 'Other5', null);
    await cache.get('4'.repeat(32));
    await cache.get('5'.repeat(32));
    await upsertUser(db, uuid, 'NewName');
    cache.invalidate(uuid);
    expect((await cache.get(uuid))?.uuid).toBe(uuid);
    expect(await cache.get('OldName')).toBeNull();
    expect((await cache.get('newname'))?.uuid).toBe(uuid);
  });

  it('serves a player asked by uuid also by name, and players without textures all get the same body and ETag', async () => {
    const first = '6'.repeat(32);
    const second = '7'.repeat(32);
    await newPlayer(first, 'Plain6', null);
    await newPlayer(second, 'Plain7', null);
    const cache = new ProfileCache(db, BASE, 100);
    const byUuid = await cache.get(first);
    expect((await cache.get('PLAIN6'))?.etag).toBe(byUuid!.etag);
    const other = await cache.get(second);
    expect(other!.json).toBe(byUuid!.json);
    expect(other!.etag).toBe(byUuid!.etag);
    expect(JSON.parse(other!.json)).toEqual({
      capeGlint: false,
      upsideDown: false,
      animatedCape: false,
      cape_url: null,
      animated_cape_url: null,
      ear_url: null,
    });
  });

  it('does not keep a profile loaded before an invalidation that arrived while it was loading', async () => {
    const uuid = '2'.repeat(32);
    await newPlayer(uuid, 'RacingOne', HASH_A);
    const plugin = new HoldResults();
    const cache = new ProfileCache(db.withPlugin(plugin), BASE, 100);

    plugin.hold();
    const loading = cache.get(uuid); // a game client asks; the row (cape A) is read, its result held
    await plugin.held;
    // The player uploads cape B (through another handle: the held one keeps its only SQLite connection busy).
    await writer.updateTable('users').set({ cape_hash: HASH_B }).where('uuid', '=', uuid).execute();
    cache.invalidate(uuid); // ...and the upload route announces the change
    plugin.release();
    await loading;

    const next = await cache.get(uuid);
    expect(JSON.parse(next!.json).cape_url, 'a later request must see the new cape').toBe(`${BASE}/${HASH_B}`);
  });
});
