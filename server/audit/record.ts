// The audit log of admin actions: one row per action, written in the same transaction as the action itself.
import type { Transaction } from 'kysely';
import { countOf } from '../../src/lib/plural.ts';
import type { Database } from '../db/schema.ts';

/** The moderator doing an action. */
export interface Moderator {
  uuid: string;
  username: string;
}

/** What an admin did, to whom or to which texture, and why. */
export interface AdminAction {
  action: string;
  target?: { uuid: string; username: string } | null;
  targetHash?: string | null;
  reason?: string | null;
  detail?: string | null;
  /** A small picture of the texture the action is about (see auditThumbnail), kept with the row. */
  thumbnail?: string | null;
}

/** A name as the audit log's filters compare it: in lower case, whatever its letters. */
export function auditNameKey(name: string): string {
  return name.toLowerCase();
}

/** Writes the audit row of an action inside the action's transaction. */
export async function recordAdminAction(
  trx: Transaction<Database>,
  moderator: Moderator,
  action: AdminAction,
  now = Date.now(),
): Promise<void> {
  await trx
    .insertInto('admin_audit')
    .values({
      created_at: now,
      admin_uuid: moderator.uuid,
      admin_name: moderator.username,
      admin_name_lower: auditNameKey(moderator.username),
      action: action.action,
      target_uuid: action.target?.uuid ?? null,
      target_name: action.target?.username ?? null,
      target_name_lower: action.target ? auditNameKey(action.target.username) : null,
      target_hash: action.targetHash ?? null,
      reason: action.reason ?? null,
      detail: action.detail ?? null,
      thumbnail: action.thumbnail ?? null,
    })
    .execute();
}

/**
 * The detail of a removal's audit row: its own detail, if any, then how many players lost the picture ("2 players lost
 * it").
 */
export function removalDetail(playersWhoLostIt: number, detail?: string): string {
  const lost = `${countOf(playersWhoLostIt, 'player')} lost it`;
  return detail ? `${detail}; ${lost}` : lost;
}
