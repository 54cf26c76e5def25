// /account/apps: the connections of launchers and mods the player made with a code, newest first. An app signed in to
// twice (two computers) has a card per connection, each saying when it was made and last used and, where the app has
// several, which one of them it is. Revoke asks first and ends that connection only, and the line after it says whether
// the app can still use the account through its other connections.
import { useEffect, useRef, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { APP_SCOPES } from '../../lib/app-scopes';
import { formatDateTime, machineDate } from '../../lib/dates';
import { countOf } from '../../lib/plural';
import { ConfirmButton } from '../shared/ConfirmButton';
import { ErrorDisplay } from '../shared/ErrorDisplay';

/** A connection of an app, as the list call answers it. */
type ConnectedApp = ApiAnswer<'connectedApps'>['apps'][number];

/** A connection as its card shows it: how many connections its app has, and when it was made, in words. */
interface ConnectionView {
  app: ConnectedApp;
  /** How many connections the app has, this one included. */
  ofApp: number;
  /** When it was made: to the minute, or to the second when another connection of the app was made in that minute. */
  connected: string;
}

/** The cards' views of the connections: each with its app's number of connections and when it was made. */
function connectionViews(apps: ConnectedApp[]): ConnectionView[] {
  const sameApp = (app: ConnectedApp) => apps.filter((other) => other.clientId === app.clientId);
  return apps.map((app) => {
    const siblings = sameApp(app);
    const minute = formatDateTime(app.connectedAt);
    const sharedMinute = siblings.some((other) => other.id !== app.id && formatDateTime(other.connectedAt) === minute);
    return {
      app,
      ofApp: siblings.length,
      connected: sharedMinute ? formatDateTime(app.connectedAt, { seconds: true }) : minute,
    };
  });
}

/** What the revoke dialog says happens to this connection, and to the app's other ones. */
function revokeWarning({ app, ofApp, connected }: ConnectionView): string {
  const others = ofApp - 1;
  if (others > 0) {
    const keep = others === 1 ? 'keeps working until you revoke it' : 'keep working until you revoke them';
    return `This connection, made ${connected}, is signed out at once. The ${countOf(others, 'other connection')} of ${app.name} ${keep} too.`;
  }
  return `This connection, made ${connected}, is signed out at once, and ${app.name} can no longer act on your account. To use it again, sign in to it with a new code.`;
}

/** What the page says once a connection is revoked: the app is out, or still in through its other connections. */
function revokedNotice(appName: string, remainingConnections: number): string {
  if (remainingConnections === 0) return `${appName} can no longer use your account.`;
  return `This connection of ${appName} is revoked. ${countOf(remainingConnections, 'other connection')} of ${appName} can still use your account.`;
}

/** One connection: its app's name, which of the app's connections it is, its dates, what it may do, and Revoke. */
function ConnectionCard({ view, busy, onRevoke }: { view: ConnectionView; busy: boolean; onRevoke: () => void }) {
  const { app, ofApp, connected } = view;
  const titleId = `app-${app.id}-name`;
  return (
    <li className="card min-w-0" data-testid="connected-app">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="text-xl font-bold break-words">
            {app.name}
          </h2>
          {ofApp > 1 && (
            <p className="mt-1 text-sm font-semibold text-brand-400" data-testid="connection-of">
              One of {ofApp} connections of {app.name}
            </p>
          )}
          <p className="mt-1 text-sm text-ink-300" data-testid="connection-dates">
            Connected <time dateTime={machineDate(app.connectedAt)}>{connected}</time>
            <br />
            Last used <time dateTime={machineDate(app.lastUsedAt)}>{formatDateTime(app.lastUsedAt)}</time>
          </p>
        </div>
        <ConfirmButton
          label="Revoke"
          accessibleName={`Revoke the connection of ${app.name} made ${connected}`}
          className="btn-danger px-4"
          disabled={busy}
          title={`Revoke this connection of ${app.name}?`}
          cancelLabel="Keep it"
          confirmLabel="Revoke this connection"
          onConfirm={onRevoke}
        >
          {revokeWarning(view)}
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
  const heading = useRef<HTMLHeadingElement>(null);

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
      const answer = await apiCall('revokeApp', { body: { id: app.id } });
      setNotice(revokedNotice(answer.appName, answer.remainingConnections));
      setVersion((count) => count + 1);
      // The card and its button are gone: keyboard and screen reader users go on from the top of the page.
      heading.current?.focus();
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    }
    setBusy(false);
  };

  return (
    <section className="mx-auto max-w-3xl" aria-labelledby="apps-title">
      <h1 id="apps-title" ref={heading} tabIndex={-1} className="text-3xl font-extrabold focus:outline-none">
        Connected apps
      </h1>
      <p className="mt-3 text-ink-300">
        Launchers and mods you signed in to with a code. Each sign-in is a connection of its own, so an app you signed
        in to on two computers is listed twice. Each acts on your account only as listed below. Revoke a connection to
        sign it out at once; the app&apos;s other connections keep working. To connect an app, enter the code it shows
        on <a href="/device">the code page</a>.
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
          {connectionViews(apps).map((view) => (
            <ConnectionCard key={view.app.id} view={view} busy={busy} onRevoke={() => void revoke(view.app)} />
          ))}
        </ul>
      )}
    </section>
  );
}
