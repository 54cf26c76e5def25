// /admin/ai-cape-logs: the AI cape creator's requests, newest first: when, who, the start of the prompt and the cape it
// made; the pager names five pages either side of the current one.
import { formatDateTime, machineDate } from '../../lib/dates';
import { AdminList } from './AdminList';
import { apiCall, apiUrl, type ApiAnswer } from '../../lib/client/api';
import type { PageLink } from '../../lib/schemas/types';
import { usePagedList } from './paged-list';

/** How many pages the pager names either side of the current one. */
const PAGE_WINDOW = 5;

/** The pager links of a log page: Previous, the pages within five of this one, Next. */
export function aiLogLinks(pages: ApiAnswer<'aiCapeLogs'>['pages']): PageLink[] {
  const last = Math.max(1, Math.ceil(pages.total_count / pages.per_page));
  const current = pages.current_page;
  const link = (label: string, target: number): PageLink => ({
    label,
    url: target >= 1 && target <= last && target !== current ? `?page=${target}` : null,
    active: label === String(current),
  });
  const numbers = [];
  for (let target = Math.max(1, current - PAGE_WINDOW); target <= Math.min(last, current + PAGE_WINDOW); target++)
    numbers.push(link(String(target), target));
  return [link('Previous', current - 1), ...numbers, link('Next', current + 1)];
}

/** The AI cape log island. */
export default function AiCapeLogs() {
  const { list, error, goTo } = usePagedList((page) => apiCall('aiCapeLogs', { query: { page } }));

  return (
    <AdminList
      titleId="ai-logs-title"
      title="AI cape logs"
      error={error}
      loadingLabel="Loading the AI cape logs"
      empty="Nobody has asked the AI cape creator for a cape yet."
      rows={list?.logs}
      pager={list && { links: aiLogLinks(list.pages), onPage: goTo }}
    >
      {(rows) => (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {rows.map((log) => (
            <li key={log.id} className="card grid min-w-0 gap-3 sm:grid-cols-[8rem_minmax(0,1fr)]" data-testid="ai-log">
              {log.hasImage ? (
                <img
                  src={apiUrl('aiCapeLogImage', { id: log.id })}
                  alt={`The cape made for request ${log.id}`}
                  width={128}
                  height={64}
                  className="w-32 rounded bg-ink-950 [image-rendering:pixelated]"
                />
              ) : (
                <span className="flex h-16 w-32 items-center justify-center rounded bg-ink-950 text-xs text-ink-400">
                  No image
                </span>
              )}
              <div className="min-w-0">
                <p className="font-semibold break-words">“{log.request_head}”</p>
                <p className="mt-1 text-sm text-ink-300">
                  #{log.id} · {log.username ?? 'Deleted account'} ·{' '}
                  <time dateTime={machineDate(log.created_at)}>{formatDateTime(log.created_at)}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminList>
  );
}
