// API tests for Redis outages: the server starts without Redis, logins, uploads and change notices keep working while
// it is down (limits and notices stay within the process), Redis is used again once it is back, and a change whose
// notice was lost reaches the other processes from the change log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBackend, runsOnPostgres, type TestDatabase } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import {
  createUserWithCode,
  loginNewUser,
  newBrowser,
  randomUsername,
  startServer,
  unusedCode,
  type TestServer,
} from '../../helpers/server.ts';
import { closedPort, startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { waitFor } from '../../../support/wait.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

async function uploadCape(jar: CookieJar, colour: number): Promise<string> {
  const response = await jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(colour)));
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { cape: string }).cape;
}

async function capeUrl(server: TestServer, uuid: string): Promise<unknown> {
  return (await modProfile(server.url, uuid)).cape_url;
}

describe.skipIf(!runsOnPostgres)('with Redis unreachable from the start', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await postgresBackend.createDatabase();
    server = await startServer(database.url, {
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      LOGIN_ATTEMPTS_PER_MINUTE: '2',
      TRUST_PROXY: '1',
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('starts, logs in, uploads and registers players', async () => {
    const { jar, uuid } = await loginNewUser(server);
    const cape = await uploadCape(jar, 1);
    expect(await capeUrl(server, uuid)).toBe(cape);
    const internal = await fetch(`${server.url}/api/internal/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer none' },
      body: JSON.stringify({ uuid, username: 'x' }),
    });
    expect(internal.status, 'refused for the key, not for Redis').toBe(401);
  });

  it('still limits code logins per address, in the process', async () => {
    const jar = await newBrowser(server);
    const client = { 'x-forwarded-for': '198.51.100.7' };
    for (let attempt = 1; attempt <= 2; attempt++) {
      const response = await jar.post('/api/account/checkauth', { code: await unusedCode(server.db) }, client);
      expect(response.status, `attempt ${attempt}`).toBe(200);
    }
    const { code } = await createUserWithCode(server.db, randomUsername());
    expect((await jar.post('/api/account/checkauth', { code }, client)).status).toBe(429);
  });
});

/** How often the servers below read the change log (MOD_CATCH_UP_S). */
const CATCH_UP_MS = 2000;

/** Two servers on one database: one reaching Redis through a proxy a test can stop, one straight. */
interface TwoServers {
  dataDir: string;
  proxy: TcpProxy;
  throughProxy: TestServer;
  direct: TestServer;
}

/**
 * Gives a describe block two servers (made in a beforeAll, closed in an afterAll; read them from a hook or test)
 * reading the change log every `catchUpS`; with `answerFiles`, each as the one process of a host of its own, with its
 * own answer directory.
 */
function twoServersForSuite(options: { catchUpS: number; answerFiles: boolean }): TwoServers {
  const suite = {} as TwoServers & { database: TestDatabase };
  beforeAll(async () => {
    suite.database = await postgresBackend.createDatabase();
    suite.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-redis-outage-'));
    suite.proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    const env = {
      DATA_DIR: suite.dataDir,
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      REDIS_PREFIX: `cloakroom-test-${randomBytes(6).toString('hex')}:`,
      MOD_CATCH_UP_S: String(options.catchUpS),
    };
    const answers = (host: string): Record<string, string> =>
      options.answerFiles ? { ANSWER_FILES_DIR: path.join(suite.dataDir, `answers-${host}`) } : {};
    suite.throughProxy = await startServer(suite.database.url, {
      ...env,
      REDIS_URL: `redis://127.0.0.1:${suite.proxy.port}`,
      ...answers('a'),
    });
    suite.direct = await startServer(suite.database.url, {
      ...env,
      REDIS_URL: 'redis://127.0.0.1:6379',
      ...answers('b'),
    });
  });
  afterAll(async () => {
    await suite.throughProxy?.close();
    await suite.direct?.close();
    await suite.proxy?.stop();
    await suite.database?.drop();
    if (suite.dataDir) fs.rmSync(suite.dataDir, { recursive: true, force: true });
  });
  return suite;
}

describe.skipIf(!runsOnPostgres)('with Redis going away and coming back', () => {
  // No catch-up from the change log within the test: what reaches the other process came through Redis.
  const servers = twoServersForSuite({ catchUpS: 3600, answerFiles: false });

  /** Uploads new capes on one server until the other serves the latest one (Redis carried the notice), or 10 s pass. */
  async function noticeReaches(jar: CookieJar, uuid: string, firstColour: number): Promise<boolean> {
    const deadline = Date.now() + 10_000;
    for (let colour = firstColour; Date.now() < deadline; colour++) {
      const cape = await uploadCape(jar, colour);
      for (let poll = 0; poll < 10; poll++) {
        if ((await capeUrl(servers.direct, uuid)) === cape) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return false;
  }

  it('keeps answering while Redis is down and uses it again once it is back', async () => {
    const { jar, uuid } = await loginNewUser(servers.throughProxy);
    await capeUrl(servers.direct, uuid); // cached by the other process
    expect(await noticeReaches(jar, uuid, 10), 'notices cross processes while Redis is up').toBe(true);

    await servers.proxy.stop();
    const cape = await uploadCape(jar, 30);
    expect(await capeUrl(servers.throughProxy, uuid), 'the uploading process serves the new cape').toBe(cape);
    const { jar: second } = await loginNewUser(servers.throughProxy, randomUsername());
    expect((await second.get('/api/user')).status).toBe(200);
    expect((await jar.request('DELETE', '/api/upload-cape')).status).toBe(200);

    await servers.proxy.start();
    expect(await noticeReaches(jar, uuid, 40), 'notices cross processes again after Redis came back').toBe(true);
  });
});

describe.skipIf(!runsOnPostgres)('catching up from the change log while Redis is down', () => {
  const servers = twoServersForSuite({ catchUpS: CATCH_UP_MS / 1000, answerFiles: true });

  it(`a change made while Redis is down reaches the other host's memory and answer files from the change log within a catch-up (${CATCH_UP_MS / 1000} s here)`, async () => {
    const { jar, uuid, username } = await loginNewUser(servers.throughProxy, randomUsername());
    await servers.proxy.stop();
    try {
      // Made on the process that cannot reach Redis: no notice reaches the other.
      const cape = await uploadCape(jar, 60);
      const hash = cape.split('/').pop()!;
      const otherFiles = path.join(servers.dataDir, 'answers-b');
      await waitFor(async () => (await capeUrl(servers.direct, uuid)) === cape, 'the other process showing the cape', {
        timeoutMs: CATCH_UP_MS + 3000,
      });
      await waitFor(() => fs.existsSync(path.join(otherFiles, 'capes', `${username}.png`)), 'the other host’s files', {
        timeoutMs: 5000,
      });
      expect(fs.existsSync(path.join(otherFiles, 'textures', hash))).toBe(true);
      expect(JSON.parse(fs.readFileSync(path.join(otherFiles, 'profile', uuid), 'utf8'))).toMatchObject({
        cape_url: cape,
      });
    } finally {
      await servers.proxy.start();
    }
  });
});
