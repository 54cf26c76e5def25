// An admin report queue's reports: each with what was reported beside its title, who reported it and when, the
// reporter's grounds and the report panel.
import type { ReactNode } from 'react';
import { formatDateTime, machineDate } from '../../lib/dates';
import type { ApiAnswer } from '../../lib/client/api';
import { ReportGrounds } from './ReportGrounds';
import { ReportPanel, type ReportAction } from './ReportPanel';

/** What both report queues know of a report. */
type QueuedReport = Pick<
  ApiAnswer<'galleryReports'>['data'][number],
  'id' | 'createdAt' | 'reason' | 'note' | 'reasonKey'
>;

/**
 * The reports as cards, each marked with `testId`: `media` beside the rest; `byline` is followed by " on " and when the
 * report was made.
 */
export function ReportList<Report extends QueuedReport>({
  reports,
  testId,
  media,
  title,
  byline,
  subject,
  actions,
  reasons,
  answer,
}: {
  reports: Report[];
  testId: string;
  media: (report: Report) => ReactNode;
  title: (report: Report) => ReactNode;
  byline: (report: Report) => string;
  /** Who or what the answer acts on, for the confirm question. */
  subject: (report: Report) => string;
  actions: ReportAction[];
  reasons: Record<string, string>;
  answer: (id: number, action: ReportAction, reason: string | null) => Promise<void>;
}) {
  return (
    <ul className="mt-6 grid gap-4">
      {reports.map((report) => (
        <li key={report.id} className="card grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)]" data-testid={testId}>
          {media(report)}
          <div className="min-w-0">
            <p className="font-bold break-words">{title(report)}</p>
            <p className="text-sm text-ink-300">
              {byline(report)} on{' '}
              <time dateTime={machineDate(report.createdAt)}>{formatDateTime(report.createdAt)}</time>
            </p>
            <ReportGrounds reason={report.reason} note={report.note} />
            <div className="mt-3">
              <ReportPanel
                actions={actions}
                reasons={reasons}
                reportedReason={report.reasonKey}
                subject={subject(report)}
                onAnswer={(action, reason) => answer(report.id, action, reason)}
              />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
