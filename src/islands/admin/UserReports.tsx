// /admin/reports/user: the open player reports, oldest first, each with the reported cape and ears as they were and the
// report panel (Ignore, Remove, Ban); the list reloads after every answer.
import { formatDateTime, machineDate } from '../../lib/dates';
import { useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { useBanReasons } from './ReasonSelect';
import { ReportGrounds } from './ReportGrounds';
import { ReportPanel, reportAnswerer } from './ReportPanel';

/** The player report queue island. */
export default function UserReports() {
  const [reports, setReports] = useState<ApiAnswer<'userReports'> | null>(null);
  const reasons = useBanReasons();
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    apiCall('userReports').then(setReports, (failure: unknown) => setError(describeApiError(errorBody(failure))));
  }, [version]);

  const answer = reportAnswerer('answerUserReport', setError, () => setVersion((count) => count + 1));

  return (
    <section aria-labelledby="user-reports-title">
      <h1 id="user-reports-title" className="text-3xl font-extrabold">
        User reports
      </h1>
      <ErrorDisplay error={error} />
      {!reports && !error && <div className="card mt-6 h-48 animate-pulse" aria-busy="true" aria-label="Loading the reports" />}
      {reports && reports.length === 0 && <p className="card mt-6 text-ink-300">No open player reports.</p>}
      <ul className="mt-6 grid gap-4">
        {reports?.map((report) => (
          <li key={report.id} className="card grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)]" data-testid="user-report">
            <div className="flex items-start gap-3">
              {report.cape ? (
                <img src={report.cape} alt={`${report.username}'s reported cape`} className="w-32 rounded bg-ink-950 [image-rendering:pixelated]" />
              ) : (
                <span className="text-sm text-ink-400">No cape</span>
              )}
              {report.ears && (
                <img src={report.ears} alt={`${report.username}'s reported ears`} className="w-14 rounded bg-ink-950 [image-rendering:pixelated]" />
              )}
            </div>
            <div className="min-w-0">
              <p className="font-bold">
                <a href={`/user/${report.uuid}`}>{report.username}</a>
              </p>
              <p className="text-sm text-ink-300">
                Reported by {report.reported_by_username} on <time dateTime={machineDate(report.createdAt)}>{formatDateTime(report.createdAt)}</time>
              </p>
              <ReportGrounds reason={report.reason} note={report.note} />
              <div className="mt-3">
                <ReportPanel
                  actions={['IGNORE', 'REMOVE', 'BAN']}
                  reasons={reasons}
                  reportedReason={report.reasonKey}
                  subject={report.username}
                  onAnswer={(action, reason) => answer(report.id, action, reason)}
                />
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
