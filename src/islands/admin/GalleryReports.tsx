// /admin/reports/gallery: reports of gallery textures, fifteen a page, each with the texture's preview and the report
// panel (Ignore, Remove, Ban the author, Whitelist); the list reloads after every answer.
import { formatDateTime, machineDate } from '../../lib/dates';
import { apiCall } from '../../lib/api';
import { apiPath } from '../../lib/api-calls';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { Pager } from './Pager';
import { usePagedList } from './paged-list';
import { useBanReasons } from './ReasonSelect';
import { ReportGrounds } from './ReportGrounds';
import { ReportPanel, reportAnswerer } from './ReportPanel';

/** The gallery report queue island. */
export default function GalleryReports() {
  const { list, error, setError, reload, goTo } = usePagedList((page) => apiCall('galleryReports', { query: { page } }));
  const reasons = useBanReasons();
  const answer = reportAnswerer('answerGalleryReport', setError, reload);

  return (
    <section aria-labelledby="gallery-reports-title">
      <h1 id="gallery-reports-title" className="text-3xl font-extrabold">
        Gallery reports
      </h1>
      <ErrorDisplay error={error} />
      {!list && !error && <div className="card mt-6 h-48 animate-pulse" aria-busy="true" aria-label="Loading the reports" />}
      {list && list.data.length === 0 && <p className="card mt-6 text-ink-300">No gallery reports.</p>}
      <ul className="mt-6 grid gap-4">
        {list?.data.map((report) => (
          <li key={report.id} className="card grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)]" data-testid="gallery-report">
            <a href={`/gallery/${report.hash}`}>
              <img
                src={apiPath('galleryPreview', { hash: report.hash })}
                alt={`Preview of ${report.title}`}
                className="w-full rounded bg-ink-950"
                loading="lazy"
              />
            </a>
            <div className="min-w-0">
              <p className="font-bold break-words">{report.title}</p>
              <p className="text-sm text-ink-300">
                By {report.username}, reported by {report.reported_by_username} on{' '}
                <time dateTime={machineDate(report.createdAt)}>{formatDateTime(report.createdAt)}</time>
              </p>
              <ReportGrounds reason={report.reason} note={report.note} />
              <div className="mt-3">
                <ReportPanel
                  actions={['IGNORE', 'REMOVE', 'BAN', 'WHITELIST']}
                  reasons={reasons}
                  reportedReason={report.reasonKey}
                  subject={report.title}
                  onAnswer={(action, reason) => answer(report.id, action, reason)}
                />
              </div>
            </div>
          </li>
        ))}
      </ul>
      {list && <Pager links={list.links} onPage={goTo} />}
    </section>
  );
}
