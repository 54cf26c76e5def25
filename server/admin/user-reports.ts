// The player report queue: open reports with the reported textures as they were, and a moderator's answer to one
// (IGNORE, REMOVE the reported cape and ears from every player wearing them, or BAN), audited with the answer; REMOVE
// puts the reported textures on the blocklist in the same transaction.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AssignmentContext } from '../textures/library/assign.ts';
import { recordAdminAction, type Moderator } from '../audit/record.ts';
import { removePictures, type RemovalContext } from './picture-removal.ts';
import { auditThumbnail } from './audit-thumbnail.ts';
import { evidenceDataUrl } from './evidence.ts';
import { BAN_REASONS } from '../../src/lib/ban-reasons.ts';
import { listedReasonKey, reportReasonText } from '../../src/lib/report-rules.ts';
import { banPlayer, type BanRefusal } from './bans.ts';

/** How many open reports the queue shows at once (oldest first). */
export const USER_REPORT_QUEUE_SIZE = 50;

/** An open report as the queue shows it: the textures as data URLs of PNGs, or null. */
export interface QueuedUserReport {
  id: number;
  uuid: string;
  username: string;
  reported_by_username: string;
  cape: string | null;
  ears: string | null;
  reason: string | null;
  reasonKey: string | null;
  note: string | null;
  createdAt: number;
}

/** What a moderator may answer a player report with. */
export type UserReportAction = 'IGNORE' | 'REMOVE' | 'BAN';

/** Why an answer did nothing: the report is gone or answered, or the ban was refused. */
export type UserReportRefusal = 'gone' | BanRefusal;

/** The oldest open player reports with their copies of the reported textures. */
export async function openUserReports(context: AssignmentContext): Promise<QueuedUserReport[]> {
  const rows = await context.db
    .selectFrom('user_reports')
    .innerJoin('users as player', 'player.uuid', 'user_reports.user_uuid')
    .innerJoin('users as reporter', 'reporter.uuid', 'user_reports.reporter_uuid')
    .select([
      'user_reports.id',
      'player.uuid',
      'player.username',
      'reporter.username as reported_by_username',
      'user_reports.cape_hash',
      'user_reports.ears_hash',
      'user_reports.reason_key',
      'user_reports.note',
      'user_reports.created_at',
    ])
    .where('user_reports.resolved_at', 'is', null)
    .orderBy('user_reports.id')
    .limit(USER_REPORT_QUEUE_SIZE)
    .execute();
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      uuid: row.uuid,
      username: row.username,
      reported_by_username: row.reported_by_username,
      cape: await evidenceDataUrl(context.library, row.cape_hash),
      ears: await evidenceDataUrl(context.library, row.ears_hash),
      reason: reportReasonText(row.reason_key),
      reasonKey: listedReasonKey(row.reason_key),
      note: row.note,
      createdAt: Number(row.created_at),
    })),
  );
}

/**
 * Answers an open report; `reasonKey` is needed for REMOVE and BAN (the caller checks it). Returns why not, or null
 * when done.
 */
export async function answerUserReport(
  context: RemovalContext,
  moderator: Moderator,
  answer: { id: number; action: UserReportAction; reasonKey: string | null },
  now = Date.now(),
): Promise<UserReportRefusal | null> {
  const { db } = context;
  const report = await db
    .selectFrom('user_reports')
    .innerJoin('users', 'users.uuid', 'user_reports.user_uuid')
    .select([
      'user_reports.user_uuid',
      'user_reports.reporter_uuid',
      'user_reports.cape_hash',
      'user_reports.cape_strip_hash',
      'user_reports.ears_hash',
    ])
    .select('users.username')
    .where('user_reports.id', '=', answer.id)
    .where('user_reports.resolved_at', 'is', null)
    .executeTakeFirst();
  if (!report) return 'gone';
  if (answer.action === 'BAN') {
    return banPlayer(
      context,
      moderator,
      { uuid: report.user_uuid, reasonKey: answer.reasonKey!, reportedBy: report.reporter_uuid },
      now,
    );
  }
  const reason = answer.reasonKey ? BAN_REASONS[answer.reasonKey]! : null;
  const target = { uuid: report.user_uuid, username: report.username };
  const action = `USER_REPORT_${answer.action}`;
  const detail = `report ${answer.id}`;
  const close = async (trx: Transaction<Database>) => {
    const closed = await trx
      .updateTable('user_reports')
      .set({ resolved_at: now, resolved_by: moderator.uuid, resolution: answer.action })
      .where('id', '=', answer.id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    // Another moderator answered it meanwhile: undo this answer's changes.
    if (Number(closed.numUpdatedRows) === 0) throw new ReportAnsweredMeanwhile();
  };
  try {
    if (answer.action === 'REMOVE') {
      // REMOVE judges the reported textures: they go on the blocklist, and off every player wearing them (the reported
      // player too if they still do), even when the player has changed them since. The audit row shows the reported
      // cape (or the ears, when no cape was reported).
      const pictures = [
        ...(report.cape_hash ? [{ hash: report.cape_hash, stripHash: report.cape_strip_hash }] : []),
        ...(report.ears_hash ? [{ hash: report.ears_hash }] : []),
      ];
      await removePictures(
        context,
        moderator,
        { pictures, audit: { action, target, detail }, reason: reason!, alsoInTransaction: close },
        now,
      );
    } else {
      const thumbnail = await auditThumbnail(context, report.cape_hash ?? report.ears_hash);
      const targetHash = report.cape_hash ?? report.ears_hash;
      await db.transaction().execute(async (trx) => {
        await close(trx);
        await recordAdminAction(trx, moderator, { action, target, targetHash, thumbnail, reason, detail }, now);
      });
    }
  } catch (error) {
    if (error instanceof ReportAnsweredMeanwhile) return 'gone';
    throw error;
  }
  return null;
}

/** Thrown inside an answer's transaction when the report was answered by someone else first. */
class ReportAnsweredMeanwhile extends Error {}
