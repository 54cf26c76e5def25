// /admin/gallery/whitelist: gallery textures marked safe by staff, fifteen a page, each with its preview, author and a
// Remove button with its confirm step (the texture can then be reported again).
import { AdminList } from './AdminList';
import { apiCall, apiUrl } from '../../lib/client/api';
import { usePagedList } from './paged-list';
import { RowConfirm } from './RowConfirm';

/** The gallery whitelist island. */
export default function Whitelist() {
  const { list, error, goTo, confirming, setConfirming, busy, act } = usePagedList((page) =>
    apiCall('whitelist', { query: { page } }),
  );
  const remove = (hash: string) => act(() => apiCall('unwhitelist', { body: { hash } }));

  return (
    <AdminList
      titleId="whitelist-title"
      title="Gallery whitelist"
      above={
        <p className="mt-2 text-ink-300">
          Textures marked safe by staff. Players cannot report them until the mark is removed.
        </p>
      }
      error={error}
      loadingLabel="Loading the whitelist"
      empty="No texture is whitelisted."
      rows={list?.data}
      pager={list && { links: list.links, onPage: goTo }}
    >
      {(rows) => (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {rows.map((row) => (
            <li key={row.hash} className="card flex min-w-0 flex-col gap-3" data-testid="whitelist-row">
              <a href={`/gallery/${row.hash}`}>
                <img
                  src={apiUrl('galleryPreview', { hash: row.hash })}
                  alt={`Preview of ${row.title}`}
                  width={320}
                  height={180}
                  className="w-full rounded-lg bg-ink-950"
                />
              </a>
              <div className="min-w-0">
                <a href={`/gallery/${row.hash}`} className="block truncate font-semibold">
                  {row.title}
                </a>
                <p className="truncate text-sm text-ink-300">
                  by <a href={`/user/${row.author_uuid}`}>{row.author_name}</a>
                </p>
              </div>
              <RowConfirm
                asking={confirming === row.hash}
                busy={busy}
                label="Remove from whitelist"
                confirmLabel="Confirm: remove from the whitelist"
                busyLabel="Removing…"
                inColumn
                onAsk={() => setConfirming(row.hash)}
                onConfirm={() => remove(row.hash)}
                onCancel={() => setConfirming(null)}
              />
            </li>
          ))}
        </ul>
      )}
    </AdminList>
  );
}
