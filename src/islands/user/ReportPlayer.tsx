// /user/{uuid}/report: who is reported, the terms checkbox and the Report button; then the thank-you state.
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import type { PlayerLookup } from '../../lib/schemas/types';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { ReportGroundsFields, useReportGrounds } from '../shared/ReportGroundsFields';
import { playerIdFromPath } from './player-path';

/** The report form island. */
export default function ReportPlayer() {
  const [id] = useState(() => playerIdFromPath(location.pathname));
  const [player, setPlayer] = useState<PlayerLookup | null>(null);
  const [loadError, setLoadError] = useState<ErrorDisplayValue | null>(
    id ? null : { kind: 'message', message: 'Choose a player to report from their profile.' },
  );
  const [terms, setTerms] = useState(false);
  const grounds = useReportGrounds();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [sent, setSent] = useState(false);

  useEffect(() => {
    if (!id) return;
    apiCall('playerLookup', { params: { id } }).then(setPlayer, (failure: unknown) =>
      setLoadError(describeApiError(errorBody(failure))),
    );
  }, [id]);

  const report = async () => {
    if (!player || !grounds.grounds) return;
    setBusy(true);
    setError(null);
    try {
      // The button is enabled only once the terms box is ticked.
      await apiCall('reportPlayer', {
        body: { uuid: player.uuid, terms: true, reason: grounds.grounds.reasonKey, note: grounds.grounds.note },
      });
      setSent(true);
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    } finally {
      setBusy(false);
    }
  };

  if (loadError) {
    return (
      <div className="card mx-auto max-w-lg">
        <h1 className="text-3xl font-extrabold">Report a user</h1>
        <ErrorDisplay error={loadError} />
        <a href="/user" className="btn-secondary mt-6">
          Find a player
        </a>
      </div>
    );
  }
  if (!player)
    return (
      <div className="card mx-auto h-64 max-w-lg animate-pulse" aria-busy="true" aria-label="Loading the player" />
    );
  if (sent) {
    return (
      <div className="card mx-auto max-w-lg" role="status" data-testid="report-sent">
        <h1 className="text-3xl font-extrabold">Thank you</h1>
        <p className="mt-4 text-ink-200">
          Your report of {player.username} was sent. A moderator will look at their cape and ears as they are now.
        </p>
        <a href={`/user/${player.uuid}`} className="btn-secondary mt-6">
          Back to {player.username}
        </a>
      </div>
    );
  }
  return (
    <div className="card mx-auto max-w-lg">
      <h1 className="text-3xl font-extrabold">Report {player.username}</h1>
      <p className="mt-4 text-ink-300">
        Report a player whose cape or ears break our <a href="/legal/rules">rules</a>. A copy of what they wear now is
        kept for the moderators, even if they change it.
      </p>
      <div className="mt-6 flex flex-col gap-4">
        <ReportGroundsFields state={grounds} />
      </div>
      <label className="mt-4 flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={terms}
          onChange={(event) => setTerms(event.target.checked)}
        />
        <span>
          I have read the <a href="/legal/terms">terms</a>, and this report is made in good faith.
        </span>
      </label>
      <button
        type="button"
        className="btn-danger mt-6 w-full py-3"
        disabled={!terms || !grounds.grounds || busy}
        onClick={report}
      >
        {busy ? 'Sending…' : `Report ${player.username}`}
      </button>
      <ErrorDisplay error={error} />
    </div>
  );
}
