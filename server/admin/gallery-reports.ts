// The gallery report queue: reports of gallery textures, a page at a time, and a moderator's answer to one (IGNORE,
// REMOVE the texture, BAN its author and remove it, or WHITELIST it so it can no longer be reported), audited; a
// removed texture goes on the blocklist and off every player wearing it in the same transaction.
import type { Transaction } from 'kysely';
import { rowsPage } from '../db/rows-page.ts';
import type { Database } from '../db/schema.ts';
import type { AssignmentContext } from '../textures/library/assign.ts';
import { recordAdminAction, type AdminAction, type Moderator } from '../audit/record.ts';
import { removePictures, type RemovalContext } from './picture-removal.ts';
import { auditThumbnail } from './audit-thumbnail.ts';
import { BAN_REASONS } from '../../src/lib/ban-reasons.ts';
import { listedReasonKey, reportReasonText } from '../../src/lib/report-rules.ts';
import { banPlayer } from './bans.ts';
import type { UserReportRefusal } from './user-reports.ts';

/** A gallery report as the queue shows it (id, reporter, author and hash, with the item's title). */
export interface QueuedGalleryReport {
  id: number;
  reported_by_username: string;
  username: string;
  hash: string;
  title: string;
  reason: string | null;
  reasonKey: string | null;
  note: string | null;
  createdAt: number;
}

/** What a moderator may answer a gallery report with. */
export type GalleryReportAction = 'IGNORE' | 'REMOVE' | 'BAN' | 'WHITELIST';

/** One page of gallery reports (oldest first) and how many there are. */
export async function galleryReportPage(
  context: AssignmentContext,
  page: number,
  perPage: number,
): Promise<{ rows: QueuedGalleryReport[]; total: number }> {
  const { rows, total } = await rowsPage(
    context.db.selectFrom('gallery_reports'),
    (reports) =>
      reports
        .innerJoin('gallery_items', 'gallery_items.hash', 'gallery_reports.hash')
        .innerJoin('users as author', 'author.uuid', 'gallery_items.author_uuid')
        .innerJoin('users as reporter', 'reporter.uuid', 'gallery_reports.reporter_uuid')
        .select([
          'gallery_reports.id',
          'reporter.username as reported_by_username',
          'author.username',
          'gallery_items.hash',
          'gallery_items.title',
          'gallery_reports.reason_key',
          'gallery_reports.note',
          'gallery_reports.created_at',
        ])
        .orderBy('gallery_reports.id'),
    page,
    perPage,
  );
  return {
    rows: rows.map(({ created_at, reason_key, ...row }) => ({
      ...row,
      reason: reportReasonText(reason_key),
      reasonKey: listedReasonKey(reason_key),
      createdAt: Number(created_at),
    })),
    total,
  };
}

/**
 * Answers a gallery report; `reasonKey` is needed for REMOVE and BAN (the caller checks it). Returns why not, or null
 * when done.
 */
export async function answerGalleryReport(
  context: RemovalContext,
  moderator: Moderator,
  answer: { id: number; action: GalleryReportAction; reasonKey: string | null },
  now = Date.now(),
): Promise<UserReportRefusal | null> {
  const { db } = context;
  const report = await db
    .selectFrom('gallery_reports')
    .innerJoin('gallery_items', 'gallery_items.hash', 'gallery_reports.hash')
    .innerJoin('users', 'users.uuid', 'gallery_items.author_uuid')
    .select([
      'gallery_reports.hash',
      'gallery_items.strip_hash',
      'gallery_reports.reporter_uuid',
      'users.uuid',
      'users.username',
    ])
    .where('gallery_reports.id', '=', answer.id)
    .executeTakeFirst();
  if (!report) return 'gone';
  const action: AdminAction = {
    action: `GALLERY_REPORT_${answer.action}`,
    target: { uuid: report.uuid, username: report.username },
    targetHash: report.hash,
    reason: answer.reasonKey ? BAN_REASONS[answer.reasonKey]! : null,
    detail: `report ${answer.id}`,
  };
  // IGNORE and WHITELIST write their audit row here (a removal writes its own), with the picture's thumbnail.
  const thumbnail =
    answer.action === 'IGNORE' || answer.action === 'WHITELIST' ? await auditThumbnail(context, report.hash) : null;
  const audit = (trx: Transaction<Database>) => recordAdminAction(trx, moderator, { ...action, thumbnail }, now);
  if (answer.action === 'IGNORE') {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('gallery_reports').where('id', '=', answer.id).execute();
      await audit(trx);
    });
  } else if (answer.action === 'WHITELIST') {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('gallery_items').set({ whitelisted: 1 }).where('hash', '=', report.hash).execute();
      await trx.deleteFrom('gallery_reports').where('hash', '=', report.hash).execute();
      await audit(trx);
    });
  } else {
    if (answer.action === 'BAN') {
      const refusal = await banPlayer(
        context,
        moderator,
        { uuid: report.uuid, reasonKey: answer.reasonKey!, reportedBy: report.reporter_uuid },
        now,
      );
      if (refusal && refusal !== 'already-banned') return refusal;
    }
    // The reported texture goes (with its reports) whether the author is banned too or not, and off every player
    // wearing it.
    await removePictures(
      context,
      moderator,
      {
        pictures: [{ hash: report.hash, stripHash: report.strip_hash }],
        audit: { action: action.action, target: action.target, detail: action.detail },
        reason: action.reason!,
      },
      now,
    );
  }
  return null;
}
