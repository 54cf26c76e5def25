// /admin/reports/gallery: reports of gallery textures, fifteen a page, each with the texture's preview and the report
// panel (Ignore, Remove, Ban the author, Whitelist); the list reloads after every answer.
import { AdminList } from './AdminList';
import { apiCall, apiUrl } from '../../lib/client/api';
import { usePagedList } from './paged-list';
import { useBanReasons } from './ReasonSelect';
import { ReportList } from './ReportList';
import { reportAnswerer } from './ReportPanel';

/** The gallery report queue island. */
export default function GalleryReports() {
  const { list, error, setError, reload, goTo } = usePagedList((page) =>
    apiCall('galleryReports', { query: { page } }),
  );
  const reasons = useBanReasons();
  const answer = reportAnswerer('answerGalleryReport', setError, reload);

  return (
    <AdminList
      titleId="gallery-reports-title"
      title="Gallery reports"
      error={error}
      loadingLabel="Loading the reports"
      empty="No gallery reports."
      rows={list?.data}
      pager={list && { links: list.links, onPage: goTo }}
    >
      {(rows) => (
        <ReportList
          reports={rows}
          testId="gallery-report"
          media={(report) => (
            <a href={`/gallery/${report.hash}`}>
              <img
                src={apiUrl('galleryPreview', { hash: report.hash })}
                alt={`Preview of ${report.title}`}
                className="w-full rounded bg-ink-950"
                loading="lazy"
              />
            </a>
          )}
          title={(report) => report.title}
          byline={(report) => `By ${report.username}, reported by ${report.reported_by_username}`}
          subject={(report) => report.title}
          actions={['IGNORE', 'REMOVE', 'BAN', 'WHITELIST']}
          reasons={reasons}
          answer={answer}
        />
      )}
    </AdminList>
  );
}
