// The mod API's change log: every change to a player's or a texture's answers gets a number, so a process that missed
// change notices (a Redis outage, a restart, a host that was down) catches up from the database. A player's change also
// moves their answers' version second (users.answers_at) on, never past the clock: the time every host gives their
// answer files and every answer's Last-Modified.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import { isPlayerUuid } from '../../src/lib/ids.ts';

/** A logged change: its number and what changed (a player's uuid or a texture's hash). */
export interface LoggedChange {
  seq: number;
  subject: string;
  createdAt: number;
}

/**
 * How long the log keeps a change: a host whose directory is further behind is rebuilt instead (`cloakroom answers
 * rebuild`).
 */
export const CHANGE_LOG_KEEP_MS = 7 * 24 * 60 * 60_000;

/** How a player's answers second moves: `distinctSeconds` where answer files are written (see moveAnswersSecond). */
export interface ChangeLogOptions {
  distinctSeconds: boolean;
}

/** Logs a change to a subject's answers (a player's: their version second moves on) and resolves to its number. */
export async function recordChange(db: Db, subject: string, options: ChangeLogOptions): Promise<number> {
  if (isPlayerUuid(subject)) await moveAnswersSecond(db, subject, options.distinctSeconds);
  const row = await db
    .insertInto('mod_changes')
    .values({ subject, created_at: Date.now() })
    .returning('seq')
    .executeTakeFirstOrThrow();
  return Number(row.seq);
}

/**
 * Moves a player's answers second on to the clock's second, never past it (an answer's Last-Modified is never later
 * than the moment it was made) and never back. Where answer files are written (`distinct`), it moves strictly: nginx's
 * ETag of a file is its time and size, so two versions must never share a second, and a second change within one
 * second waits for the next second. Without them, two changes in one second share it: the app's ETag is the answer's
 * content hash, which tells them apart. A second further ahead than the next (written by a host whose clock runs fast)
 * moves on by one, so no file goes back in time.
 */
async function moveAnswersSecond(db: Db, uuid: string, distinct: boolean): Promise<void> {
  for (;;) {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    const moved = await db
      .updateTable('users')
      .set({ answers_at: second })
      .where('uuid', '=', uuid)
      .where((eb) => eb.or([eb('answers_at', 'is', null), eb('answers_at', '<', second)]))
      .executeTakeFirst();
    // Without answer files, a second already reached (or run ahead of this host's clock) stays as it is.
    if (Number(moved.numUpdatedRows) > 0 || !distinct) return;
    const player = await db.selectFrom('users').select('answers_at').where('uuid', '=', uuid).executeTakeFirst();
    if (!player || player.answers_at === null) return;
    if (player.answers_at > second + 1) {
      await db
        .updateTable('users')
        .set((eb) => ({ answers_at: eb('answers_at', '+', 1) }))
        .where('uuid', '=', uuid)
        .execute();
      return;
    }
    await sleep(Math.max(0, (player.answers_at + 1) * 1000 - now));
  }
}

/** The changes after `seq`, oldest first, at most `limit`. */
export async function changesAfter(db: Db, seq: number, limit: number): Promise<LoggedChange[]> {
  const rows = await db
    .selectFrom('mod_changes')
    .select(['seq', 'subject', 'created_at'])
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ seq: Number(row.seq), subject: row.subject, createdAt: Number(row.created_at) }));
}

/** The number of the latest change (0 when none was logged). */
export async function latestChange(db: Db): Promise<number> {
  const row = await db
    .selectFrom('mod_changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The number of the oldest change the log still holds (null when it is empty). */
export async function oldestChange(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('mod_changes')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
}

/** Drops the changes older than the log keeps; resolves to how many. */
export async function pruneChanges(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .deleteFrom('mod_changes')
    .where('created_at', '<', now - CHANGE_LOG_KEEP_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
