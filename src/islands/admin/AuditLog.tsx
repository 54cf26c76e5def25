// /admin/audit: every audited action, newest first, fifteen a page, each with who did it and what they are (a
// moderator, a player on their own account, a launcher app, the system), narrowed to who acted and/or a player (name or
// uuid); the filters live in the address so a view can be shared.
import { formatDateTime, machineDate } from '../../lib/dates';
import { useEffect, useState, type FormEvent } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { AUDIT_ACTOR_KINDS, auditActionLabel, readableAuditDetail } from '../../lib/audit-labels';
import { AdminList, AdminTable, type AdminColumn } from './AdminList';
import { usernameCharacters } from '../../lib/ids';

/** The page and filters in an address's query. */
function readQuery(search: string): { page: number; admin: string; player: string } {
  const params = new URLSearchParams(search);
  return {
    page: Number(params.get('page') ?? 1) || 1,
    admin: params.get('admin') ?? '',
    player: params.get('player') ?? '',
  };
}

/** The query of a view: its page and the filters that are set. */
function queryOf(view: { page: number; admin: string; player: string }): {
  page: number;
  admin?: string;
  player?: string;
} {
  return {
    page: view.page,
    ...(view.admin ? { admin: view.admin } : {}),
    ...(view.player ? { player: view.player } : {}),
  };
}

/** One row of the audit log, as its call answers it. */
type AuditRow = ApiAnswer<'auditLog'>['data'][number];

/** Who did an action: their name, and what they are. */
function ActorCell({ row }: { row: AuditRow }) {
  return (
    <span className="break-words" data-testid="audit-actor">
      {row.admin_name}{' '}
      <span className="inline-block rounded bg-ink-800 px-1.5 py-0.5 text-xs whitespace-nowrap text-ink-100">
        {AUDIT_ACTOR_KINDS[row.actor_kind]}
      </span>
    </span>
  );
}

/** The audit log's columns. */
const COLUMNS: AdminColumn<AuditRow>[] = [
  {
    header: 'When',
    className: 'whitespace-nowrap',
    cell: (row) => <time dateTime={machineDate(row.createdAt)}>{formatDateTime(row.createdAt)}</time>,
  },
  { header: 'By', cell: (row) => <ActorCell row={row} /> },
  { header: 'Action', className: 'font-semibold', cell: (row) => auditActionLabel(row.action) },
  {
    header: 'Player or texture',
    cell: (row) => (
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
    ),
  },
  { header: 'What changed', cell: (row) => readableAuditDetail(row.detail) ?? '—' },
  { header: 'Reason', cell: (row) => row.reason ?? '—' },
];

const INPUT = 'rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 focus:border-brand-400 focus:outline-none';

/**
 * A filter field that takes a name or uuid: a player's (only the characters those may hold), or, with `anyName`, whoever
 * acted (an app or a service too, whose names have spaces).
 */
function NameFilter({
  label,
  value,
  onChange,
  anyName = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  anyName?: boolean;
}) {
  return (
    <label className="flex flex-1 flex-col gap-1 text-sm">
      {label}
      <input
        className={INPUT}
        value={value}
        maxLength={anyName ? 40 : 32}
        placeholder="Name or uuid"
        onChange={(event) => onChange(anyName ? event.target.value : usernameCharacters(event.target.value))}
      />
    </label>
  );
}

/** The audit log island. */
export default function AuditLog() {
  const [view, setView] = useState(() => readQuery(location.search));
  const [admin, setAdmin] = useState(view.admin);
  const [player, setPlayer] = useState(view.player);
  const [list, setList] = useState<ApiAnswer<'auditLog'> | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  useEffect(() => {
    apiCall('auditLog', { query: queryOf(view) }).then(setList, (failure: unknown) =>
      setError(describeApiError(errorBody(failure))),
    );
  }, [view]);

  const show = (next: { page: number; admin: string; player: string }) => {
    history.pushState(
      null,
      '',
      `?${new URLSearchParams(Object.entries(queryOf(next)).map(([key, value]) => [key, String(value)]))}`,
    );
    setError(null);
    setView(next);
  };
  const filter = (event: FormEvent) => {
    event.preventDefault();
    show({ page: 1, admin: admin.trim(), player: player.trim() });
  };

  return (
    <AdminList
      titleId="audit-title"
      title="Audit log"
      above={
        <form className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={filter}>
          <NameFilter label="By" value={admin} onChange={setAdmin} anyName />
          <NameFilter label="Player" value={player} onChange={setPlayer} />
          <button type="submit" className="btn-primary">
            Filter
          </button>
        </form>
      }
      error={error}
      loadingLabel="Loading the audit log"
      empty="No actions match."
      rows={list?.data}
      pager={
        list && {
          links: list.links,
          onPage: (url) => show({ ...view, page: readQuery(new URL(url, location.origin).search).page }),
        }
      }
    >
      {(rows) => (
        <AdminTable width="wide" rows={rows} rowKey={(row) => row.id} rowTestId="audit-row" columns={COLUMNS} />
      )}
    </AdminList>
  );
}
