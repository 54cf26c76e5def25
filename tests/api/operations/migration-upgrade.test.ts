// Upgrading a database that holds data: a database migrated to 0014_creation_makers gets players (one with a session,
// one without), textures, a gallery item, both kinds of report and an audit row as that schema had them; migrating to
// the latest keeps every row and fills what the newer migrations add as they intend (0015 report reasons and notes and
// the audit thumbnail, 0016 last_login_at, 0017 answers_at and the mod_changes log, 0018 withheld_at, 0019 wears, 0020
// the wardrobe, 0023 the audit names in lower case).
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrations/migrate.ts';
import type { MigrationDb } from '../../../server/db/migrations/helpers.ts';
import { migrations } from '../../../server/db/migrations/index.ts';
import { backends, type TestDatabase } from '../../../support/backends.ts';

/** The migration the old data is written at: the newer ones are what this test upgrades through. */
const OLD_SCHEMA = '0014_creation_makers';
/** When the players' accounts were made (ms); 0017 starts their answers at that second. */
const CREATED_AT = 1_700_000_123_456;
const RETURNING = { uuid: '0123456789abcdef0123456789abcdef', username: 'Returning_One' };
const IDLE = { uuid: 'fedcba9876543210fedcba9876543210', username: 'IdleOne' };
const CAPE = 'a'.repeat(64);
const GALLERY = 'b'.repeat(64);

describe.each(backends)('upgrading a database with data on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await backend.createDatabase();
    db = openDatabase(database.url);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it(`keeps the rows written at ${OLD_SCHEMA} and fills what 0015–0023 add`, async () => {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const upToOld = await migrator.migrateTo(OLD_SCHEMA);
    expect(upToOld.error).toBeUndefined();
    expect(upToOld.results?.at(-1)?.migrationName).toBe(OLD_SCHEMA);

    // The rows as the old schema had them: no column a later migration adds.
    const old = db as unknown as MigrationDb;
    await old
      .insertInto('users')
      .values([
        {
          uuid: RETURNING.uuid,
          username: RETURNING.username,
          username_lower: RETURNING.username.toLowerCase(),
          created_at: CREATED_AT,
          cape_hash: CAPE,
        },
        {
          uuid: IDLE.uuid,
          username: IDLE.username,
          username_lower: IDLE.username.toLowerCase(),
          created_at: CREATED_AT + 1_000,
        },
      ])
      .execute();
    await old
      .insertInto('sessions')
      .values({
        id: 'session-token',
        user_uuid: RETURNING.uuid,
        created_at: CREATED_AT + 5_000,
        expires_at: CREATED_AT + 86_400_000,
      })
      .execute();
    await old
      .insertInto('textures')
      .values([
        { hash: CAPE, kind: 'cape', width: 64, height: 32, frames: 1, bytes: 100, created_at: CREATED_AT },
        { hash: GALLERY, kind: 'gallery', width: 64, height: 32, frames: 1, bytes: 120, created_at: CREATED_AT },
      ])
      .execute();
    await old
      .insertInto('gallery_items')
      .values({
        hash: GALLERY,
        title: 'Old Cape',
        title_lower: 'old cape',
        author_uuid: RETURNING.uuid,
        type: 0,
        created_at: CREATED_AT,
      })
      .execute();
    await old
      .insertInto('gallery_reports')
      .values({ hash: GALLERY, reporter_uuid: IDLE.uuid, created_at: CREATED_AT + 2_000 })
      .execute();
    await old
      .insertInto('user_reports')
      .values({ user_uuid: RETURNING.uuid, reporter_uuid: IDLE.uuid, cape_hash: CAPE, created_at: CREATED_AT + 3_000 })
      .execute();
    await old
      .insertInto('admin_audit')
      .values({
        created_at: CREATED_AT + 4_000,
        admin_uuid: IDLE.uuid,
        admin_name: IDLE.username,
        action: 'BAN',
        target_uuid: RETURNING.uuid,
        target_name: RETURNING.username,
        reason: 'nsfw',
      })
      .execute();

    await migrateToLatest(db);

    const applied = await old.selectFrom('kysely_migration').select('name').orderBy('name').execute();
    expect(applied.map((row) => row.name)).toEqual(Object.keys(migrations));

    // 0016: a player with a session has logged in before (at their account's creation); one without has not.
    // 0017: every player's answers start at their account's creation, in whole seconds.
    const users = await db
      .selectFrom('users')
      .select(['uuid', 'username', 'cape_hash', 'created_at', 'last_login_at', 'answers_at'])
      .orderBy('created_at')
      .execute();
    expect(users).toEqual([
      {
        uuid: RETURNING.uuid,
        username: RETURNING.username,
        cape_hash: CAPE,
        created_at: CREATED_AT,
        last_login_at: CREATED_AT,
        answers_at: Math.floor(CREATED_AT / 1000),
      },
      {
        uuid: IDLE.uuid,
        username: IDLE.username,
        cape_hash: null,
        created_at: CREATED_AT + 1_000,
        last_login_at: null,
        answers_at: Math.floor((CREATED_AT + 1_000) / 1000),
      },
    ]);
    expect(await db.selectFrom('mod_changes').selectAll().execute()).toEqual([]);

    // 0015: reports filed before reasons existed have neither a reason nor a note; old audit rows have no picture.
    const galleryReports = await db
      .selectFrom('gallery_reports')
      .select(['hash', 'reporter_uuid', 'reason_key', 'note'])
      .execute();
    expect(galleryReports).toEqual([{ hash: GALLERY, reporter_uuid: IDLE.uuid, reason_key: null, note: null }]);
    const userReports = await db
      .selectFrom('user_reports')
      .select(['user_uuid', 'cape_hash', 'resolved_at', 'reason_key', 'note'])
      .execute();
    expect(userReports).toEqual([
      { user_uuid: RETURNING.uuid, cape_hash: CAPE, resolved_at: null, reason_key: null, note: null },
    ]);
    const audit = await db
      .selectFrom('admin_audit')
      .select(['action', 'target_uuid', 'reason', 'thumbnail', 'admin_name_lower', 'target_name_lower'])
      .execute();
    // 0023: the names in lower case, as the audit log's filters find them.
    expect(audit).toEqual([
      {
        action: 'BAN',
        target_uuid: RETURNING.uuid,
        reason: 'nsfw',
        thumbnail: null,
        admin_name_lower: 'idleone',
        target_name_lower: 'returning_one',
      },
    ]);

    // What the newest migrations leave alone is as it was.
    // 0018: every texture stays public (withheld_at null); 0019: every item starts with no wears.
    const textures = await db
      .selectFrom('textures')
      .select(['hash', 'kind', 'bytes', 'withheld_at'])
      .orderBy('hash')
      .execute();
    expect(textures).toEqual([
      { hash: CAPE, kind: 'cape', bytes: 100, withheld_at: null },
      { hash: GALLERY, kind: 'gallery', bytes: 120, withheld_at: null },
    ]);
    const items = await db
      .selectFrom('gallery_items')
      .select(['hash', 'title', 'author_uuid', 'hidden', 'wears'])
      .execute();
    expect(items).toEqual([{ hash: GALLERY, title: 'Old Cape', author_uuid: RETURNING.uuid, hidden: 0, wears: 0 }]);
    const sessions = await db.selectFrom('sessions').select(['id', 'user_uuid']).execute();
    expect(sessions).toEqual([{ id: 'session-token', user_uuid: RETURNING.uuid }]);

    // 0020: what a player wore is in their wardrobe, as an upload.
    const wardrobe = await db
      .selectFrom('wardrobe_items')
      .select(['user_uuid', 'kind', 'hash', 'still_hash', 'source'])
      .execute();
    expect(wardrobe).toEqual([
      { user_uuid: RETURNING.uuid, kind: 'cape', hash: CAPE, still_hash: null, source: 'upload' },
    ]);
  });
});
