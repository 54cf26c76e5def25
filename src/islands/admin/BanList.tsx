// /admin/bans/user: banned players, fifteen a page, each with an Unban button and its confirm step.
import { apiCall } from '../../lib/api';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { Pager } from './Pager';
import { usePagedList } from './paged-list';

/** The ban list island. */
export default function BanList() {
  const { list, error, goTo, confirming, setConfirming, busy, act } = usePagedList((page) => apiCall('userBans', { query: { page } }));
  const unban = (uuid: string) => act(() => apiCall('unbanUser', { body: { uuid } }));

  return (
    <section aria-labelledby="bans-title">
      <h1 id="bans-title" className="text-3xl font-extrabold">
        Ban list
      </h1>
      <ErrorDisplay error={error} />
      {!list && !error && <div className="card mt-6 h-48 animate-pulse" aria-busy="true" aria-label="Loading the ban list" />}
      {list && list.data.length === 0 && <p className="card mt-6 text-ink-300">Nobody is banned.</p>}
      {list && list.data.length > 0 && (
        <div className="card relative mt-6 max-w-full overflow-x-auto p-0">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <thead className="border-b border-ink-800 text-ink-300">
              <tr>
                <th className="px-4 py-3">Player</th>
                <th className="px-4 py-3">Reason</th>
                <th className="px-4 py-3">Reported by</th>
                <th className="px-4 py-3">Banned by</th>
                <th className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((row) => (
                <tr key={row.id} className="border-b border-ink-800 last:border-0" data-testid="ban-row">
                  <td className="px-4 py-3 font-semibold">
                    <a href={`/user/${row.uuid}`}>{row.username}</a>
                  </td>
                  <td className="px-4 py-3">{row.reason_text}</td>
                  <td className="px-4 py-3">{row.reported_by_username ?? '—'}</td>
                  <td className="px-4 py-3">{row.banned_by_username ?? '—'}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    {confirming === row.uuid ? (
                      <span className="inline-flex gap-2">
                        <button type="button" className="btn-danger px-3 py-1" disabled={busy} onClick={() => unban(row.uuid)}>
                          {busy ? 'Unbanning…' : `Confirm unban of ${row.username}`}
                        </button>
                        <button type="button" className="btn-secondary px-3 py-1" disabled={busy} onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </span>
                    ) : (
                      <button type="button" className="btn-secondary px-3 py-1" onClick={() => setConfirming(row.uuid)}>
                        Unban
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && <Pager links={list.links} onPage={goTo} />}
    </section>
  );
}
