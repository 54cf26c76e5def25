// /admin/audit: every admin action, newest first, fifteen a page, narrowed to a moderator and/or a player (name or uuid);
// the filters live in the address so a view can be shared.
import { formatDateTime, machineDate } from '../../lib/dates';
import { useEffect, useState, type FormEvent } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { auditActionLabel, readableAuditDetail } from '../../lib/audit-labels';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { Pager } from './Pager';
import { usernameCharacters } from '../../lib/ids';

/** The page and filters in an address's query. */
function readQuery(search: string): { page: number; admin: string; player: string } {
  const params = new URLSearchParams(search);
  return { page: Number(params.get('page') ?? 1) || 1, admin: params.get('admin') ?? '', player: params.get('player') ?? '' };
}

/** The query of a view: its page and the filters that are set. */
function queryOf(view: { page: number; admin: string; player: string }): { page: number; admin?: string; player?: string } {
  return { page: view.page, ...(view.admin ? { admin: view.admin } : {}), ...(view.player ? { player: view.player } : {}) };
}

const INPUT = 'rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 focus:border-brand-400 focus:outline-none';

/** The audit log island. */
export default function AuditLog() {
  const [view, setView] = useState(() => readQuery(location.search));
  const [admin, setAdmin] = useState(view.admin);
  const [player, setPlayer] = useState(view.player);
  const [list, setList] = useState<ApiAnswer<'auditLog'> | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  useEffect(() => {
    apiCall('auditLog', { query: queryOf(view) }).then(setList, (failure: unknown) => setError(describeApiError(errorBody(failure))));
  }, [view]);

  const show = (next: { page: number; admin: string; player: string }) => {
    history.pushState(null, '', `?${new URLSearchParams(Object.entries(queryOf(next)).map(([key, value]) => [key, String(value)]))}`);
    setError(null);
    setView(next);
  };
  const filter = (event: FormEvent) => {
    event.preventDefault();
    show({ page: 1, admin: admin.trim(), player: player.trim() });
  };

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title" className="text-3xl font-extrabold">
        Audit log
      </h1>
      <form className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={filter}>
        <label className="flex flex-1 flex-col gap-1 text-sm">
          Moderator
          <input
            className={INPUT}
            value={admin}
            maxLength={32}
            placeholder="Name or uuid"
            onChange={(event) => setAdmin(usernameCharacters(event.target.value))}
          />
        </label>
        <label className="flex flex-1 flex-col gap-1 text-sm">
          Player
          <input
            className={INPUT}
            value={player}
            maxLength={32}
            placeholder="Name or uuid"
            onChange={(event) => setPlayer(usernameCharacters(event.target.value))}
          />
        </label>
        <button type="submit" className="btn-primary">
          Filter
        </button>
      </form>
      <ErrorDisplay error={error} />
      {!list && !error && <div className="card mt-6 h-48 animate-pulse" aria-busy="true" aria-label="Loading the audit log" />}
      {list && list.data.length === 0 && <p className="card mt-6 text-ink-300">No admin actions match.</p>}
      {list && list.data.length > 0 && (
        <div className="card relative mt-6 max-w-full overflow-x-auto p-0">
          <table className="w-full min-w-[56rem] text-left text-sm">
            <thead className="border-b border-ink-800 text-ink-300">
              <tr>
                <th className="px-4 py-3">When</th>
                <th className="px-4 py-3">Moderator</th>
                <th className="px-4 py-3">Action</th>
                <th className="px-4 py-3">Player or texture</th>
                <th className="px-4 py-3">What changed</th>
                <th className="px-4 py-3">Reason</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((row) => (
                <tr key={row.id} className="border-b border-ink-800 last:border-0" data-testid="audit-row">
                  <td className="px-4 py-3 whitespace-nowrap">
                    <time dateTime={machineDate(row.createdAt)}>{formatDateTime(row.createdAt)}</time>
                  </td>
                  <td className="px-4 py-3">{row.admin_name}</td>
                  <td className="px-4 py-3 font-semibold">{auditActionLabel(row.action)}</td>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      {row.thumbnail && (
                        <img
                          src={row.thumbnail}
                          alt={`The texture: ${row.target_hash?.slice(0, 12) ?? ''}`}
                          title={row.target_hash ?? undefined}
                          className="h-10 w-20 shrink-0 rounded border border-ink-700 bg-ink-950 object-contain [image-rendering:pixelated]"
                        />
                      )}
                      <span className="break-all">{row.target_name ?? row.target_hash?.slice(0, 12) ?? '—'}</span>
                    </div>
                  </td>
                  <td className="px-4 py-3">{readableAuditDetail(row.detail) ?? '—'}</td>
                  <td className="px-4 py-3">{row.reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && <Pager links={list.links} onPage={(url) => show({ ...view, page: readQuery(new URL(url, location.origin).search).page })} />}
    </section>
  );
}
