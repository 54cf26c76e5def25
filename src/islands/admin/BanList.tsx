// /admin/bans/user: banned players, fifteen a page, each with an Unban button and its confirm step.
import { AdminList, AdminTable } from './AdminList';
import { apiCall } from '../../lib/client/api';
import { usePagedList } from './paged-list';
import { RowConfirm } from './RowConfirm';

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
              cell: (row) => (
                <RowConfirm
                  asking={confirming === row.uuid}
                  busy={busy}
                  label="Unban"
                  confirmLabel={`Confirm unban of ${row.username}`}
                  busyLabel="Unbanning…"
                  onAsk={() => setConfirming(row.uuid)}
                  onConfirm={() => unban(row.uuid)}
                  onCancel={() => setConfirming(null)}
                />
              ),
            },
          ]}
        />
      )}
    </AdminList>
  );
}
