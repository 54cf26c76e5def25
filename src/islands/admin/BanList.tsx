// /admin/bans/user: banned players, fifteen a page, each with an Unban button and its confirm step.
import { AdminList, AdminTable } from './AdminList';
import { apiCall } from '../../lib/client/api';
import { usePagedList } from './paged-list';

/** The ban list island. */
export default function BanList() {
  const { list, error, goTo, confirming, setConfirming, busy, act } = usePagedList((page) =>
    apiCall('userBans', { query: { page } }),
  );
  const unban = (uuid: string) => act(() => apiCall('unbanUser', { body: { uuid } }));

  return (
    <AdminList
      titleId="bans-title"
      title="Ban list"
      error={error}
      loadingLabel="Loading the ban list"
      empty="Nobody is banned."
      rows={list?.data}
      pager={list && { links: list.links, onPage: goTo }}
    >
      {(rows) => (
        <AdminTable
          width="narrow"
          rows={rows}
          rowKey={(row) => row.id}
          rowTestId="ban-row"
          columns={[
            {
              header: 'Player',
              className: 'font-semibold',
              cell: (row) => <a href={`/user/${row.uuid}`}>{row.username}</a>,
            },
            { header: 'Reason', cell: (row) => row.reason_text },
            { header: 'Reported by', cell: (row) => row.reported_by_username ?? '—' },
            { header: 'Banned by', cell: (row) => row.banned_by_username ?? '—' },
            {
              header: 'Actions',
              hiddenHeader: true,
              className: 'text-right whitespace-nowrap max-md:text-left max-md:whitespace-normal',
              cell: (row) =>
                confirming === row.uuid ? (
                  <span className="inline-flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn-danger px-3 py-1"
                      disabled={busy}
                      onClick={() => unban(row.uuid)}
                    >
                      {busy ? 'Unbanning…' : `Confirm unban of ${row.username}`}
                    </button>
                    <button
                      type="button"
                      className="btn-secondary px-3 py-1"
                      disabled={busy}
                      onClick={() => setConfirming(null)}
                    >
                      Cancel
                    </button>
                  </span>
                ) : (
                  <button type="button" className="btn-secondary px-3 py-1" onClick={() => setConfirming(row.uuid)}>
                    Unban
                  </button>
                ),
            },
          ]}
        />
      )}
    </AdminList>
  );
}
