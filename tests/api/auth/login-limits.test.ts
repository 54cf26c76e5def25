// API tests for the code login's limits behind a reverse proxy: the per-address limit holds whatever X-Forwarded-For a
// client makes up, and the site-wide budget of failed codes stops a guesser spread over many addresses.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  LOGIN_BUDGET_SPENT_MESSAGE,
  TOO_MANY_ATTEMPTS_MESSAGE,
  WRONG_CODE_MESSAGE,
} from '../../../server/routes/account.ts';
import { backends, oneBackend } from '../../../support/backends.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import {
  createUserWithCode,
  newBrowser,
  randomUsername,
  serverForSuite,
  startServer,
  unusedCode,
  type TestServer,
} from '../../helpers/server.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** A made-up address in TEST-NET-3, different each call. */
function randomAddress(): string {
  return `203.0.113.${randomBytes(1)[0]! % 250}`;
}

/**
 * Tries a code as a client whose proxy (one hop) says it is `clientAddress`, after whatever the client itself claimed.
 */
function tryCode(
  jar: CookieJar,
  code: string,
  clientAddress: string,
  claimed = `${randomAddress()}, ${randomAddress()}`,
) {
  return jar.post('/api/account/checkauth', { code }, { 'x-forwarded-for': `${claimed}, ${clientAddress}` });
}

async function wrongGuess(server: TestServer, jar: CookieJar, clientAddress: string) {
  return tryCode(jar, await unusedCode(server.db), clientAddress);
}

describe.each(backends)('code login behind one proxy on $name', (backend) => {
  const suite = serverForSuite(backend, {
    TRUST_PROXY: '1',
    LOGIN_ATTEMPTS_PER_MINUTE: '3',
    LOGIN_FAILURES_PER_MINUTE: '1000',
  });

  it('counts a client by the address its proxy saw, however many addresses it claims in X-Forwarded-For', async () => {
    const jar = await newBrowser(suite.server);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await wrongGuess(suite.server, jar, '198.51.100.1');
      expect(response.status, `attempt ${attempt}`).toBe(200);
      expect(await response.json()).toEqual({ success: false, msg: WRONG_CODE_MESSAGE });
    }
    const { code } = await createUserWithCode(suite.server.db, randomUsername());
    const blocked = await tryCode(jar, code, '198.51.100.1', '10.0.0.1');
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ error: TOO_MANY_ATTEMPTS_MESSAGE });
    expect(jar.cookie('session')).toBeUndefined();

    // Another client behind the same proxy has its own count.
    const other = await tryCode(await newBrowser(suite.server), code, '198.51.100.2');
    expect(((await other.json()) as { success: boolean }).success).toBe(true);
  });
});

describe.each(backends)('the failed code login budget on $name', (backend) => {
  const suite = serverForSuite(backend, {
    TRUST_PROXY: '1',
    LOGIN_ATTEMPTS_PER_MINUTE: '3',
    LOGIN_FAILURES_PER_MINUTE: '5',
  });

  it('stops a guesser spread over many addresses once the minute has seen that many wrong codes, right codes included', async () => {
    const jar = await newBrowser(suite.server);
    const answers: number[] = [];
    for (let client = 1; client <= 12; client++) {
      answers.push((await wrongGuess(suite.server, jar, `198.51.100.${client}`)).status);
    }
    expect(answers, 'every address stays under its own limit of 3').toEqual([
      200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429,
    ]);

    const { code } = await createUserWithCode(suite.server.db, randomUsername());
    const player = await newBrowser(suite.server);
    const blocked = await tryCode(player, code, '192.0.2.50');
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ error: LOGIN_BUDGET_SPENT_MESSAGE });
    expect(player.cookie('session')).toBeUndefined();
    expect(
      await suite.server.db.selectFrom('login_codes').select('code').where('code', '=', code).executeTakeFirst(),
      'the code was not checked',
    ).toBeDefined();
  });
});

describe.each(backends)('right codes and the budget on $name', (backend) => {
  const suite = serverForSuite(backend, { TRUST_PROXY: '1', LOGIN_FAILURES_PER_MINUTE: '2' });

  it('does not spend the budget on right codes or on text that is not a code', async () => {
    for (let login = 1; login <= 4; login++) {
      const { code } = await createUserWithCode(suite.server.db, randomUsername());
      const response = await tryCode(await newBrowser(suite.server), code, `198.51.100.${login}`);
      expect(((await response.json()) as { success: boolean }).success, `login ${login}`).toBe(true);
    }
    const jar = await newBrowser(suite.server);
    for (const notACode of ['abc', '1234567', '']) {
      expect(await (await tryCode(jar, notACode, '198.51.100.9')).json()).toEqual({
        success: false,
        msg: WRONG_CODE_MESSAGE,
      });
    }
    expect((await wrongGuess(suite.server, jar, '198.51.100.10')).status).toBe(200);
    expect((await wrongGuess(suite.server, jar, '198.51.100.11')).status).toBe(200);
    expect((await wrongGuess(suite.server, jar, '198.51.100.12')).status).toBe(429);
  });
});

describe('the failed code login budget with Redis', () => {
  it('is shared by every process on the same Redis', async () => {
    const database = await oneBackend.createDatabase();
    const env = {
      REDIS_URL,
      REDIS_PREFIX: `cloakroom-test-${randomBytes(6).toString('hex')}:`,
      TRUST_PROXY: '1',
      LOGIN_FAILURES_PER_MINUTE: '3',
    };
    const first = await startServer(database.url, env);
    const second = await startServer(database.url, env);
    try {
      const jarOnFirst = await newBrowser(first);
      const jarOnSecond = await newBrowser(second);
      expect((await wrongGuess(first, jarOnFirst, '198.51.100.1')).status).toBe(200);
      expect((await wrongGuess(second, jarOnSecond, '198.51.100.2')).status).toBe(200);
      expect((await wrongGuess(first, jarOnFirst, '198.51.100.3')).status).toBe(200);
      const spent = await wrongGuess(second, jarOnSecond, '198.51.100.4');
      expect(spent.status, 'the second process saw the first one’s failures').toBe(429);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
