// /admin/edit-user/:username?: find a player, read their record, and act on them: refresh the
// cache, remove the cape or ears (each behind a confirmation dialog), ban or delete (both behind the confirm box). A
// success banner shows 3 s and the record reloads; an unknown player's message shows 3 s, then the page returns to
// /admin/edit-user.
import { formatDate, machineDate } from '../../lib/dates';
import { useEffect, useState, type FormEvent } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { CAPE_FLAG_LABELS, type CapeFlag } from '../../lib/audit-labels';
import { countOf } from '../../lib/plural';
import { ConfirmButton } from '../shared/ConfirmButton';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { TextureImage } from '../shared/TextureImage';
import { ReasonSelect, useBanReasons } from './ReasonSelect';
import { isUsername, USERNAME_MAX, USERNAME_PATTERN, usernameCharacters } from '../../lib/ids';

/** How long the success banner and the unknown-player message show. */
const BANNER_MS = 3000;
const UNKNOWN_MESSAGE = "That user doesn't exist or isn't registered.";
/** The cape flags the record shows, as switches while the player has a cape (they mean nothing without one). */
const FLAGS = Object.entries(CAPE_FLAG_LABELS) as Array<[CapeFlag, string]>;

/** The textures a moderator can delete, each behind a confirmation (the picture is blocklisted for everyone). */
const REMOVALS = [
  { slot: 'cape', noun: 'cape', has: 'hasCape', call: 'deleteUserCape' },
  { slot: 'ears', noun: 'ears', has: 'hasEars', call: 'deleteUserEars' },
] as const;

const EDIT_USER_PATH = new RegExp(`^/admin/edit-user/(${USERNAME_PATTERN})/?$`);

/** The username in /admin/edit-user/{username}, or null. */
function usernameFromPath(pathname: string): string | null {
  return EDIT_USER_PATH.exec(pathname)?.[1] ?? null;
}

/** The edit user island. */
export default function EditUser() {
  const [username] = useState(() => usernameFromPath(location.pathname));
  const [query, setQuery] = useState(username ?? '');
  const [record, setRecord] = useState<ApiAnswer<'adminUser'> | null>(null);
  const [unknown, setUnknown] = useState(false);
  const [version, setVersion] = useState(0);
  const [banner, setBanner] = useState<string | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const reasons = useBanReasons();
  const [reason, setReason] = useState('');

  useEffect(() => {
    if (!username) return;
    apiCall('adminUser', { params: { username } }).then(setRecord, (failure: unknown) => {
      const described = describeApiError(errorBody(failure));
      if (described.kind === 'message' && described.message === UNKNOWN_MESSAGE) setUnknown(true);
      else setError(described);
    });
  }, [username, version]);

  useEffect(() => {
    if (!unknown) return;
    const timer = window.setTimeout(() => location.assign('/admin/edit-user'), BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [unknown]);

  useEffect(() => {
    if (!banner) return;
    const timer = window.setTimeout(() => setBanner(null), BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [banner]);

  const find = (event: FormEvent) => {
    event.preventDefault();
    if (isUsername(query)) location.assign(`/admin/edit-user/${query}`);
  };

  /** Sends an action; `done` is the banner (or makes it from the answer); `after` replaces reloading the record. */
  const act = async <T,>(send: () => Promise<T>, done: string | ((answer: T) => string), after?: () => void) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await send();
      setBanner(typeof done === 'string' ? done : done(answer));
      setConfirmed(false);
      if (after) after();
      else setVersion((count) => count + 1);
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="edit-user-title">
      <h1 id="edit-user-title" className="text-3xl font-extrabold">
        Edit user
      </h1>
      <form className="mt-6 flex flex-col gap-3 sm:flex-row" onSubmit={find}>
        <label className="sr-only" htmlFor="edit-user-name">
          Username
        </label>
        <input
          id="edit-user-name"
          className="flex-1 rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 focus:border-brand-400 focus:outline-none"
          placeholder="Username"
          maxLength={USERNAME_MAX}
          value={query}
          onChange={(event) => setQuery(usernameCharacters(event.target.value))}
        />
        <button type="submit" className="btn-primary" disabled={query === ''}>
          Find
        </button>
      </form>
      {banner && (
        <p
          role="status"
          className="mt-4 rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3 text-green-100"
          data-testid="admin-banner"
        >
          {banner}
        </p>
      )}
      {unknown && (
        <p role="alert" className="mt-4 rounded-lg border border-red-500/50 bg-red-500/10 px-4 py-3 text-red-200">
          {UNKNOWN_MESSAGE}
        </p>
      )}
      <ErrorDisplay error={error} />
      {username && !record && !unknown && !error && (
        <div className="card mt-6 h-48 animate-pulse" aria-busy="true" aria-label="Loading the player" />
      )}
      {record && (
        <div className="card mt-6" data-testid="admin-user-record">
          <h2 className="text-2xl font-extrabold">
            <a href={`/user/${record.uuid}`}>{record.username}</a>
            {record.banned && (
              <span className="ml-3 rounded bg-red-600 px-2 py-0.5 align-middle text-sm font-bold">Banned</span>
            )}
          </h2>
          <div className="mt-4 flex flex-wrap gap-4" data-testid="admin-user-pictures">
            {(['cape', 'ears'] as const).map((slot) => (
              <figure key={slot} className="flex flex-col gap-1 text-sm">
                {record[slot] ? (
                  <TextureImage url={record[slot]} alt={`${record.username}'s ${slot}`} />
                ) : (
                  <div className="grid aspect-[2/1] w-44 place-items-center rounded-lg border border-dashed border-ink-600 text-ink-300">
                    No {slot}
                  </div>
                )}
                <figcaption className="text-ink-300">{slot === 'cape' ? 'Cape' : 'Ears'}</figcaption>
              </figure>
            ))}
          </div>
          <dl className="mt-4 grid grid-cols-[7rem_minmax(0,1fr)] gap-y-2 text-sm">
            <dt className="text-ink-300">UUID</dt>
            <dd className="font-mono break-all">{record.uuid}</dd>
            <dt className="text-ink-300">Created</dt>
            <dd>
              {record.createdAt ? (
                <time dateTime={machineDate(record.createdAt)}>{formatDate(record.createdAt)}</time>
              ) : (
                'Unknown'
              )}
            </dd>
            {FLAGS.map(([flag, label]) => (
              <div key={flag} className="contents">
                <dt className="text-ink-300">{label}</dt>
                <dd>
                  {record.hasCape ? (
                    <button
                      type="button"
                      role="switch"
                      aria-checked={record.profile[flag]}
                      aria-label={label}
                      disabled={busy}
                      className={`inline-flex items-center gap-2 rounded-full border px-3 py-0.5 font-semibold ${
                        record.profile[flag]
                          ? 'border-brand-400 bg-brand-500 text-white'
                          : 'border-ink-600 text-ink-200 hover:bg-ink-800'
                      }`}
                      onClick={() =>
                        act(
                          () =>
                            apiCall('setUserCapeFlags', { body: { uuid: record.uuid, [flag]: !record.profile[flag] } }),
                          `${label} is now ${record.profile[flag] ? 'off' : 'on'}.`,
                        )
                      }
                    >
                      {record.profile[flag] ? 'On' : 'Off'}
                    </button>
                  ) : (
                    'No cape'
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <div className="mt-6 flex flex-wrap gap-3">
            <button
              type="button"
              className="btn-secondary"
              disabled={busy}
              onClick={() =>
                act(() => apiCall('dropUserCache', { body: { uuid: record.uuid } }), 'The cached profile was dropped.')
              }
            >
              Refresh cache
            </button>
            {REMOVALS.map(({ slot, noun, has, call }) => (
              <ConfirmButton
                key={slot}
                label={`Delete ${noun}`}
                className="btn-secondary"
                disabled={busy || !record[has]}
                title={`Delete ${record.username}'s ${noun}?`}
                cancelLabel={`Keep the ${noun}`}
                confirmLabel={`Delete ${noun}`}
                onConfirm={() =>
                  act(
                    () => apiCall(call, { body: { uuid: record.uuid } }),
                    ({ players }) =>
                      `The ${noun} ${slot === 'ears' ? 'were' : 'was'} removed from ${countOf(players, 'player')}.`,
                  )
                }
              >
                The picture goes on the blocklist, so nobody can upload it again, and every player wearing it loses it
                at once. This can't be undone.
              </ConfirmButton>
            ))}
          </div>
          <fieldset className="mt-6 min-w-0 rounded-lg border border-red-500/40 p-4">
            <legend className="px-1 text-sm font-bold text-red-200">Ban or delete</legend>
            <ReasonSelect reasons={reasons} value={reason} onChange={setReason} />
            <label className="mt-4 flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                className="mt-1 h-4 w-4 accent-red-600"
                checked={confirmed}
                onChange={(event) => setConfirmed(event.target.checked)}
              />
              <span>I am sure: this acts on {record.username} at once.</span>
            </label>
            <div className="mt-4 flex flex-wrap gap-3">
              <button
                type="button"
                className="btn-danger"
                disabled={busy || !confirmed || !reason || record.banned}
                onClick={() =>
                  act(
                    () => apiCall('banUser', { body: { uuid: record.uuid, confirm: true, reason } }),
                    `${record.username} was banned.`,
                  )
                }
              >
                Ban
              </button>
              <button
                type="button"
                className="btn-danger"
                disabled={busy || !confirmed}
                onClick={() =>
                  act(
                    () => apiCall('deleteUser', { body: { uuid: record.uuid, confirm: true } }),
                    `${record.username} was deleted.`,
                    () => window.setTimeout(() => location.assign('/admin/edit-user'), BANNER_MS),
                  )
                }
              >
                Delete account
              </button>
            </div>
          </fieldset>
        </div>
      )}
    </section>
  );
}
