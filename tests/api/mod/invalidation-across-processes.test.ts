// API tests for invalidation across processes through Redis (postgres): a profile, and the layouts other mods read,
// changed on one server show on another that had them cached.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBackend, runsOnPostgres, type TestDatabase } from '../../../support/backends.ts';
import { loginNewUser, startServer, type TestServer } from '../../helpers/server.ts';
import { frameColour, sha256Hex, solidPng } from '../../../support/textures.ts';
import { hashOf, uploadTexture as upload } from '../../helpers/mod-api.ts';
import { modProfile } from '../../helpers/mod-profile.ts';
import { ensureRedis, REDIS_URL } from '../../helpers/redis.ts';

/** Distinct valid capes, made once for the file (the same as profile.test.ts's; the tests upload the 6th and 7th). */
const capes: Buffer[] = [];

beforeAll(async () => {
  for (let i = 0; i < 8; i++) capes.push(await solidPng(64, 32, frameColour(40 + i)));
});

describe.skipIf(!runsOnPostgres)('profile invalidation across processes through Redis (postgres)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let serverA: TestServer;
  let serverB: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    await ensureRedis();
    database = await postgresBackend.createDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-redis-test-'));
    // One shared texture directory, as two instances behind a load balancer would share a bucket. No catch-up from the
    // change log within the test: what reaches the other process came through Redis.
    env = { LOGIN_ATTEMPTS_PER_MINUTE: '1000', DATA_DIR: dataDir, MOD_CATCH_UP_S: '3600' };
    serverA = await startServer(database.url, { ...env, REDIS_URL });
    serverB = await startServer(database.url, { ...env, REDIS_URL });
  });

  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Polls a profile on a server until `done` holds or 2 s pass; returns the last one (as the mod reads it). */
  async function pollProfile(
    server: TestServer,
    id: string,
    done: (profile: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 2_000;
    for (;;) {
      const profile = (await modProfile(server.url, id)) as unknown as Record<string, unknown>;
      if (done(profile) || Date.now() > deadline) return profile;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a cape uploaded on server A shows on server B within 2 s, though B had the old profile cached', async () => {
    const { jar, uuid, username } = await loginNewUser(serverA);
    const first = await upload(jar, 'cape', capes[5]!);
    // A control process without Redis, started now: it knows the player from the database, and hears of no change.
    const serverWithoutRedis = await startServer(database.url, env);
    try {
      // Warm the caches on B (by uuid and by name; the upload's notice reaches it within the poll) and on the control.
      for (const server of [serverB, serverWithoutRedis]) {
        expect((await pollProfile(server, uuid, (profile) => profile.cape_url === first)).cape_url).toBe(first);
        expect((await pollProfile(server, username, (profile) => profile.cape_url === first)).cape_url).toBe(first);
      }

      const second = await upload(jar, 'cape', capes[6]!);
      expect((await pollProfile(serverB, uuid, (profile) => profile.cape_url === second)).cape_url).toBe(second);
      expect((await pollProfile(serverB, username, (profile) => profile.cape_url === second)).cape_url).toBe(second);
      const texture = await fetch(`${serverB.url}${new URL(second).pathname}`);
      expect(texture.status).toBe(200);
      expect(texture.headers.get('content-type')).toBe('image/png');

      // Control: without Redis the other process keeps its cached profile, so B's freshness came through Redis.
      expect((await pollProfile(serverWithoutRedis, uuid, () => true)).cape_url).toBe(first);
    } finally {
      await serverWithoutRedis.close();
    }

    await jar.request('DELETE', '/api/upload-cape');
    expect((await pollProfile(serverB, uuid, (profile) => profile.cape_url === null)).cape_url).toBeNull();
  });
});

describe.skipIf(!runsOnPostgres)(
  'the layouts other mods read, invalidated across processes through Redis (postgres)',
  () => {
    let database: TestDatabase;
    let dataDir: string;
    let serverA: TestServer;
    let serverB: TestServer;

    beforeAll(async () => {
      await ensureRedis();
      database = await postgresBackend.createDatabase();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-redis-test-'));
      const env = { LOGIN_ATTEMPTS_PER_MINUTE: '1000', DATA_DIR: dataDir, REDIS_URL };
      serverA = await startServer(database.url, env);
      serverB = await startServer(database.url, env);
    });

    afterAll(async () => {
      await serverA?.close();
      await serverB?.close();
      await database?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /**
     * Polls a path on a server until `done` holds of its status and body hash, or 1 s passes; returns the last of them.
     */
    async function poll(
      server: TestServer,
      urlPath: string,
      done: (status: number, hash: string) => boolean,
    ): Promise<{ status: number; hash: string }> {
      const deadline = Date.now() + 1_000;
      for (;;) {
        const response = await fetch(`${server.url}${urlPath}`);
        const seen = { status: response.status, hash: sha256Hex(Buffer.from(await response.arrayBuffer())) };
        if (done(seen.status, seen.hash) || Date.now() > deadline) return seen;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    it('a cape changed or removed on server A shows on B within a second on every layout, though B had them cached', async () => {
      const { jar, username } = await loginNewUser(serverA);
      await upload(jar, 'cape', capes[5]!);
      const layouts = [
        `/capes/${username}.png`,
        `/capes/${username}.gif`,
        `/capes/strip/${username}.png`,
        `/elytras/${username}.png`,
        `/csl-minecraftcapes/${username}`,
        `/csl/${username}.json`,
      ];
      const before = new Map<string, string>();
      for (const layout of layouts) {
        // Asked until B shows the cape (the upload's notice reaches it within the poll), then once more from its cache.
        for (let i = 0; i < 2; i++) before.set(layout, (await poll(serverB, layout, (status) => status === 200)).hash);
      }
      const second = hashOf(await upload(jar, 'cape', capes[6]!));
      for (const layout of layouts) {
        const seen = await poll(serverB, layout, (status, hash) => status === 200 && hash !== before.get(layout));
        expect(seen.status, layout).toBe(200);
        expect(seen.hash, layout).not.toBe(before.get(layout));
      }
      expect((await poll(serverB, `/capes/${username}.png`, () => true)).hash).toBe(second);
      await jar.request('DELETE', '/api/upload-cape');
      for (const layout of layouts.slice(0, 5))
        expect((await poll(serverB, layout, (status) => status === 404)).status, layout).toBe(404);
    });
  },
);
