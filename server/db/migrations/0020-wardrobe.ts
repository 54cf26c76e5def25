// Migration 0020_wardrobe (the name the migrator records): every cape and ears a player has had, to wear again.
import { randomBytes } from 'node:crypto';
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/** Players read at a time when their current capes and ears are put in their wardrobes. */
const BATCH = 1000;

/** Puts every player's current cape and ears in their wardrobe, as uploads of the moment the migration runs. */
async function keepWhatPlayersWear(db: MigrationDb, now: number): Promise<void> {
  let after = '';
  for (;;) {
    const players: Array<{
      uuid: string;
      cape_hash: string | null;
      cape_strip_hash: string | null;
      ears_hash: string | null;
    }> = await db
      .selectFrom('users')
      .select(['uuid', 'cape_hash', 'cape_strip_hash', 'ears_hash'])
      .where('uuid', '>', after)
      .where((eb) => eb.or([eb('cape_hash', 'is not', null), eb('ears_hash', 'is not', null)]))
      .orderBy('uuid')
      .limit(BATCH)
      .execute();
    if (players.length === 0) return;
    const rows = players.flatMap((player) => [
      ...(player.cape_hash
        ? [
            {
              kind: 'cape',
              hash: player.cape_strip_hash ?? player.cape_hash,
              still_hash: player.cape_strip_hash ? player.cape_hash : null,
              uuid: player.uuid,
            },
          ]
        : []),
      ...(player.ears_hash ? [{ kind: 'ears', hash: player.ears_hash, still_hash: null, uuid: player.uuid }] : []),
    ]);
    await db
      .insertInto('wardrobe_items')
      .values(
        rows.map((row) => ({
          id: randomBytes(12).toString('base64url'),
          user_uuid: row.uuid,
          kind: row.kind,
          hash: row.hash,
          still_hash: row.still_hash,
          source: 'upload',
          source_ref: null,
          title: null,
          added_at: now,
        })),
      )
      .execute();
    after = players[players.length - 1]!.uuid;
  }
}

/**
 * `wardrobe_items` keeps each picture a player uploaded, made and used, or wore from the gallery, once per picture
 * (`hash`: an animation's strip, else the still; `still_hash`: an animation's first frame), with where it came from, its
 * title and when it came in; what players wear when it runs comes in as their uploads. `wardrobe_drops` remembers the
 * last item a full wardrobe let go, so the page can say so.
 */
export const wardrobe: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('wardrobe_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('still_hash', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('source_ref', 'text')
      .addColumn('title', 'text')
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('wardrobe_items_picture', ['user_uuid', 'kind', 'hash'])
      .execute();
    await db.schema
      .createIndex('wardrobe_items_added')
      .on('wardrobe_items')
      .columns(['user_uuid', 'added_at'])
      .execute();
    await db.schema.createIndex('wardrobe_items_hash').on('wardrobe_items').column('hash').execute();
    await db.schema.createIndex('wardrobe_items_still').on('wardrobe_items').column('still_hash').execute();
    await db.schema
      .createTable('wardrobe_drops')
      .addColumn('user_uuid', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('added_at', 'bigint', (c) => c.notNull())
      .addColumn('dropped_at', 'bigint', (c) => c.notNull())
      .execute();
    await keepWhatPlayersWear(db, Date.now());
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('wardrobe_drops').execute();
    await db.schema.dropTable('wardrobe_items').execute();
  },
};
