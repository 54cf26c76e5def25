// Reading the audit log: newest first, optionally only the actions of one actor (a moderator, a player, an app or a
// service, by name or uuid) or only those on one player; each entry says what kind of actor did it.
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { AdminAuditTable } from '../db/schema.ts';
import type { AuditActorKind } from '../../src/lib/audit-labels.ts';
import { isPlayerUuid } from '../../src/lib/ids.ts';
import { rowsPage } from '../db/rows-page.ts';
import { actorKindOf } from './actors.ts';
import { auditNameKey } from './record.ts';

/**
 * An audit row as the audit page shows it: the table's columns, with the time as `createdAt` and what kind of actor did
 * it.
 */
export type AuditEntry = Omit<Selectable<AdminAuditTable>, 'created_at' | 'admin_name_lower' | 'target_name_lower'> & {
  createdAt: number;
  actor_kind: AuditActorKind;
};

/** Who an audit filter names: a 32-hex uuid matches the uuid, anything else the name at the time (any case). */
function filterOn(value: string): { column: 'uuid' | 'name'; value: string } {
  return isPlayerUuid(value) ? { column: 'uuid', value } : { column: 'name', value: auditNameKey(value) };
}

/** One page of the audit log and how many rows match. */
export async function auditPage(
  db: Db,
  filters: { admin?: string | undefined; player?: string | undefined },
  page: number,
  perPage: number,
): Promise<{ rows: AuditEntry[]; total: number }> {
  let query = db.selectFrom('admin_audit');
  if (filters.admin) {
    const admin = filterOn(filters.admin);
    query =
      admin.column === 'uuid'
        ? query.where('admin_uuid', '=', admin.value)
        : query.where('admin_name_lower', '=', admin.value);
  }
  if (filters.player) {
    const player = filterOn(filters.player);
    query =
      player.column === 'uuid'
        ? query.where('target_uuid', '=', player.value)
        : query.where('target_name_lower', '=', player.value);
  }
  const { rows, total } = await rowsPage(
    query,
    (matching) =>
      matching
        .select([
          'id',
          'created_at',
          'admin_uuid',
          'admin_name',
          'action',
          'target_uuid',
          'target_name',
          'target_hash',
          'reason',
          'detail',
          'thumbnail',
        ])
        .orderBy('id', 'desc'),
    page,
    perPage,
  );
  return {
    rows: rows.map(({ created_at, ...row }) => ({
      ...row,
      createdAt: Number(created_at),
      actor_kind: actorKindOf(row),
    })),
    total,
  };
}
