// Schema migrations, in order; each runs on SQLite and on PostgreSQL alike.
import { type Kysely, type Migration } from 'kysely';

/** The group every new account joins. */
export const PLAYER_GROUP_ID = 1;
/** The group `cloakroom code --admin` puts an account in. */
export const ADMIN_GROUP_ID = 2;

const accounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('groups')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('emoji', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db
      .insertInto('groups')
      .values([
        { id: PLAYER_GROUP_ID, name: 'Player', emoji: '', admin: 0 },
        { id: ADMIN_GROUP_ID, name: 'Admin', emoji: '🛡️', admin: 1 },
      ])
      .execute();
    await db.schema
      .createTable('users')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_lower', 'text', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(PLAYER_GROUP_ID).references('groups.id'))
      .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_username_lower').on('users').column('username_lower').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_uuid').execute();
    await db.schema
      .createTable('login_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_codes_user').on('login_codes').column('user_uuid').execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['login_codes', 'sessions', 'users', 'groups']) await db.schema.dropTable(table).execute();
  },
};

const textures: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('textures')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('frames', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('users').addColumn('cape_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('cape_strip_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('ears_hash', 'text').execute();
    for (const column of ['cape_hash', 'cape_strip_hash', 'ears_hash']) {
      await db.schema.createIndex(`users_${column}`).on('users').column(column).execute();
    }
    await db.schema
      .createTable('premium')
      .addColumn('user_uuid', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('animated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('glint', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dinnerbone', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('boost_only', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('glint_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dinnerbone_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('premium').execute();
    for (const column of ['cape_hash', 'cape_strip_hash', 'ears_hash']) {
      await db.schema.dropIndex(`users_${column}`).execute();
      await db.schema.alterTable('users').dropColumn(column).execute();
    }
    await db.schema.dropTable('textures').execute();
  },
};

/** All migrations by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_textures': textures,
};

