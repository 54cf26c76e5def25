// /account/apps: the launchers and mods the player connected with a code, newest first, each with when it was connected
// and last used, what it may do, and a Revoke button that asks first and signs the app out at once.
import { useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { APP_SCOPES } from '../../lib/app-scopes';
import { formatDate, formatDateTime, machineDate } from '../../lib/dates';
import { ConfirmButton } from '../shared/ConfirmButton';
import { ErrorDisplay } from '../shared/ErrorDisplay';

/** A connected app, as the list call answers it. */
type ConnectedApp = ApiAnswer<'connectedApps'>['apps'][number];

/** One connected app: its name, dates, what it may do, and its Revoke button. */
function AppCard({ app, busy, onRevoke }: { app: ConnectedApp; busy: boolean; onRevoke: () => void }) {
  const titleId = `app-${app.id}-name`;
  return (
    <li className="card min-w-0" data-testid="connected-app">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="text-xl font-bold break-words">
            {app.name}
          </h2>
          <p className="mt-1 text-sm text-ink-300">
            Connected <time dateTime={machineDate(app.connectedAt)}>{formatDate(app.connectedAt)}</time> · last used{' '}
            <time dateTime={machineDate(app.lastUsedAt)}>{formatDateTime(app.lastUsedAt)}</time>
          </p>
        </div>
        <ConfirmButton
          label="Revoke"
          className="btn-danger px-4"
          disabled={busy}
          title={`Revoke ${app.name}?`}
          cancelLabel="Keep it"
          confirmLabel="Revoke access"
          onConfirm={onRevoke}
        >
          {app.name} is signed out at once and can no longer act on your account. To use it again, sign in to it with a
          new code.
        </ConfirmButton>
      </div>
      <p className="mt-4 text-sm font-semibold">It may:</p>
      <ul className="mt-1 list-disc space-y-1 pl-6 text-sm">
        {app.scopes.map((scope) => (
          <li key={scope}>{APP_SCOPES[scope]}</li>
        ))}
      </ul>
    </li>
  );
}

/** The connected apps island. */
export default function ConnectedApps() {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  // Moves after every revoke, so the list is read again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    apiCall('connectedApps').then(
      (answer) => setApps(answer.apps),
      (failure: unknown) => setError(describeApiError(errorBody(failure))),
    );
  }, [version]);

  const revoke = async (app: ConnectedApp) => {
    setBusy(true);
    setError(null);
    setNotice('');
    try {
      await apiCall('revokeApp', { body: { id: app.id } });
      setNotice(`${app.name} can no longer use your account.`);
      setVersion((count) => count + 1);
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    }
    setBusy(false);
  };

  return (
    <section className="mx-auto max-w-3xl" aria-labelledby="apps-title">
      <h1 id="apps-title" className="text-3xl font-extrabold">
        Connected apps
      </h1>
      <p className="mt-3 text-ink-300">
        Launchers and mods you signed in to with a code. Each acts on your account only as listed below. Revoke one to
        sign it out at once. To connect an app, enter the code it shows on <a href="/device">the code page</a>.
      </p>
      <p role="status" className="mt-4 empty:hidden rounded-lg border border-green-500/50 bg-green-500/10 px-4 py-3">
        {notice}
      </p>
      <ErrorDisplay error={error} />
      {!apps && !error && (
        <div className="card mt-6 h-40 animate-pulse" aria-busy="true" aria-label="Loading your apps" />
      )}
      {apps && apps.length === 0 && (
        <p className="card mt-6 text-ink-300" data-testid="no-connected-apps">
          No app is connected to your account.
        </p>
      )}
      {apps && apps.length > 0 && (
        <ul className="mt-6 grid gap-4">
          {apps.map((app) => (
            <AppCard key={app.id} app={app} busy={busy} onRevoke={() => void revoke(app)} />
          ))}
        </ul>
      )}
    </section>
  );
}
