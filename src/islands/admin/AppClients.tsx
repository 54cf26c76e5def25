// /admin/oauth-clients: the apps (launchers, mods) registered to sign players in with a code, fifteen a page, each with
// its client_id, when it was registered, how many connections players made with it, and a Remove button that asks
// first.
import { AdminList, AdminTable } from './AdminList';
import { apiCall } from '../../lib/client/api';
import { formatDate, machineDate } from '../../lib/dates';
import { countOf } from '../../lib/plural';
import { ConfirmButton } from '../shared/ConfirmButton';
import { usePagedList } from './paged-list';

/** The registered apps island. */
export default function AppClients() {
  const { list, error, goTo, busy, act } = usePagedList((page) => apiCall('appClients', { query: { page } }));
  const remove = (clientId: string) => act(() => apiCall('removeAppClient', { body: { clientId } }));

  return (
    <AdminList
      titleId="apps-title"
      title="Launcher apps"
      above={
        <p className="mt-2 text-ink-300">
          Launchers and mods that sign players in with a code. Register one on the server with{' '}
          <code className="rounded bg-ink-800 px-1.5 py-0.5">npx cloakroom oauth-client add &quot;NAME&quot;</code>,
          which prints the client_id to build into the app.
        </p>
      }
      error={error}
      loadingLabel="Loading the registered apps"
      empty="No app is registered."
      rows={list?.data}
      pager={list && { links: list.links, onPage: goTo }}
    >
      {(rows) => (
        <AdminTable
          width="narrow"
          rows={rows}
          rowKey={(row) => row.clientId}
          rowTestId="app-client-row"
          columns={[
            { header: 'App', className: 'font-semibold break-words', cell: (row) => row.name },
            {
              header: 'Client ID',
              cell: (row) => <span className="font-mono break-all">{row.clientId}</span>,
            },
            {
              header: 'Registered',
              className: 'whitespace-nowrap',
              cell: (row) => <time dateTime={machineDate(row.createdAt)}>{formatDate(row.createdAt)}</time>,
            },
            { header: 'Connections', cell: (row) => row.connections.toLocaleString('en') },
            {
              header: 'Actions',
              hiddenHeader: true,
              className: 'text-right max-md:text-left',
              cell: (row) => (
                <ConfirmButton
                  label="Remove"
                  className="btn-secondary px-3 py-1"
                  disabled={busy}
                  title={`Remove ${row.name}?`}
                  cancelLabel="Keep it"
                  confirmLabel="Remove the app"
                  onConfirm={() => void remove(row.clientId)}
                >
                  {row.name} can no longer sign anyone in, and every player who connected it is signed out at once (
                  {countOf(row.connections, 'connection')}).
                </ConfirmButton>
              ),
            },
          ]}
        />
      )}
    </AdminList>
  );
}
