// /admin/reports/user: the open player reports, oldest first, each with the reported cape and ears as they were and the
// report panel (Ignore, Remove, Ban); the list reloads after every answer.
import { useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { AdminList } from './AdminList';
import { useBanReasons } from './ReasonSelect';
import { ReportList } from './ReportList';
import { reportAnswerer } from './ReportPanel';

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
    <AdminList
      titleId="user-reports-title"
      title="User reports"
      error={error}
      loadingLabel="Loading the reports"
      empty="No open player reports."
      rows={reports}
    >
      {(rows) => (
        <ReportList
          reports={rows}
          testId="user-report"
          media={(report) => (
            <div className="flex items-start gap-3">
              {report.cape ? (
                <img
                  src={report.cape}
                  alt={`${report.username}'s reported cape`}
                  className="w-32 rounded bg-ink-950 [image-rendering:pixelated]"
                />
              ) : (
                <span className="text-sm text-ink-400">No cape</span>
              )}
              {report.ears && (
                <img
                  src={report.ears}
                  alt={`${report.username}'s reported ears`}
                  className="w-14 rounded bg-ink-950 [image-rendering:pixelated]"
                />
              )}
            </div>
          )}
          title={(report) => <a href={`/user/${report.uuid}`}>{report.username}</a>}
          byline={(report) => `Reported by ${report.reported_by_username}`}
          subject={(report) => report.username}
          actions={['IGNORE', 'REMOVE', 'BAN']}
          reasons={reasons}
          answer={answer}
        />
      )}
    </AdminList>
  );
}
