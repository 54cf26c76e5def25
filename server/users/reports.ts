// Player reports: one open report per reporter and player, each with a copy of the reported player's textures as they
// were (the hashes are references, so a later change of cape or ears cannot remove the evidence).
import type { ReportGrounds } from '../../src/lib/report-rules.ts';
import type { Db } from '../db/database.ts';
import { PLAYER_TEXTURE_SELECTION, playerTextureHashes } from '../textures/library/player-columns.ts';
import type { ReferenceCounter } from '../textures/library/texture-library.ts';

/** Why a report was not filed. */
export type ReportRefusal = 'unknown' | 'self' | 'duplicate';

/**
 * Counts references to a hash from reports' copies of the reported textures (open or closed: a moderator may look
 * back).
 */
export const countReportReferences: ReferenceCounter = async (db, hash) => {
  const row = await db
    .selectFrom('user_reports')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => eb.or([eb('cape_hash', '=', hash), eb('cape_strip_hash', '=', hash), eb('ears_hash', '=', hash)]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
};

/**
 * Files a report of `uuid` by `reporterUuid`, with its grounds and a copy of the player's current textures; returns why
 * not, or null when filed.
 */
export async function reportPlayer(
  db: Db,
  reporterUuid: string,
  uuid: string,
  grounds: ReportGrounds,
  now = Date.now(),
): Promise<ReportRefusal | null> {
  if (reporterUuid === uuid) return 'self';
  return db.transaction().execute(async (trx) => {
    const player = await trx
      .selectFrom('users')
      .select(PLAYER_TEXTURE_SELECTION)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    if (!player) return 'unknown';
    const open = await trx
      .selectFrom('user_reports')
      .select('id')
      .where('user_uuid', '=', uuid)
      .where('reporter_uuid', '=', reporterUuid)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (open) return 'duplicate';
    const textures = playerTextureHashes(player);
    // The open-report index refuses a second row that a concurrent request inserted after the check above.
    const inserted = await trx
      .insertInto('user_reports')
      .values({
        user_uuid: uuid,
        reporter_uuid: reporterUuid,
        cape_hash: textures.cape,
        cape_strip_hash: textures.capeStrip,
        ears_hash: textures.ears,
        reason_key: grounds.reasonKey,
        note: grounds.note,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['user_uuid', 'reporter_uuid']).where('resolved_at', 'is', null).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? null : 'duplicate';
  });
}
