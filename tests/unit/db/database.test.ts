// The SQLite connection: a transaction holds the write lock from its start, so another connection's write in the
// middle of it waits (or fails) instead of making the transaction's own write fail with SQLITE_BUSY.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';

describe('SQLite transactions', () => {
  const opened: Db[] = [];
  let dir = '';
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keep their write when another connection writes between their read and their write', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloakroom-db-'));
    const url = `sqlite:${path.join(dir, 'cloakroom.db')}`;
    const server = openDatabase(url);
    const other = openDatabase(url);
    opened.push(server, other);
    await migrateToLatest(server);
    // The other connection (a CLI run, say) gives up quickly instead of blocking this thread for the full timeout.
    await sql`PRAGMA busy_timeout = 50`.execute(other);
    const user = (name: string) => ({
      uuid: name.padEnd(32, '0'),
      username: name,
      username_lower: name,
      created_at: 1,
    });

    await server.transaction().execute(async (trx) => {
      await trx.selectFrom('users').selectAll().execute();
      await expect(other.insertInto('users').values(user('b')).execute()).rejects.toThrow(/locked|busy/i);
      await trx.insertInto('users').values(user('a')).execute();
    });
    expect((await server.selectFrom('users').select('username').execute()).map((row) => row.username)).toEqual(['a']);
    await other.insertInto('users').values(user('b')).execute();
  });
});
