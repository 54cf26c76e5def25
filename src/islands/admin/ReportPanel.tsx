// The admin report panel: waiting, then one of the answers with its confirm step and Cancel back to waiting;
// REMOVE and BAN need a reason and start from the reporter's, and changing the answer resets the chosen reason.
import { useState } from 'react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { ReasonSelect } from './ReasonSelect';

/** An answer to a report. */
export type ReportAction = 'IGNORE' | 'REMOVE' | 'BAN' | 'WHITELIST';

const LABELS: Record<ReportAction, string> = { IGNORE: 'Ignore', REMOVE: 'Remove', BAN: 'Ban', WHITELIST: 'Whitelist' };

/**
 * A report queue's answer call: posts `{id, action, reason}` with `call`, shows a refusal through `setError`, and calls
 * `reload` either way (the report may have been answered by someone else meanwhile).
 */
export function reportAnswerer(
  call: 'answerUserReport' | 'answerGalleryReport',
  setError: (error: ErrorDisplayValue | null) => void,
  reload: () => void,
) {
  return async (id: number, action: ReportAction, reason: string | null): Promise<void> => {
    setError(null);
    try {
      await apiCall(call, { body: { id, action, reason } });
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    }
    reload();
  };
}

/** The panel for one report; `onAnswer` sends the answer and resolves when done (the list then reloads). */
export function ReportPanel({
  actions,
  reasons,
  reportedReason,
  subject,
  onAnswer,
}: {
  actions: ReportAction[];
  reasons: Record<string, string>;
  /** The reporter's reason key, chosen as the reason when the moderator picks Remove or Ban (null: none). */
  reportedReason: string | null;
  /** Who or what the answer acts on, for the confirm question. */
  subject: string;
  onAnswer: (action: ReportAction, reason: string | null) => Promise<void>;
}) {
  const [chosen, setChosen] = useState<ReportAction | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const needsReason = chosen === 'REMOVE' || chosen === 'BAN';

  const choose = (action: ReportAction | null) => {
    setChosen(action);
    const startsFromReport =
      (action === 'REMOVE' || action === 'BAN') && reportedReason !== null && Object.hasOwn(reasons, reportedReason);
    setReason(startsFromReport ? reportedReason : '');
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await onAnswer(chosen!, needsReason ? reason : null);
      choose(null);
    } finally {
      setBusy(false);
    }
  };

  if (!chosen) {
    return (
      <div className="flex flex-wrap gap-2">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'BAN' ? 'btn-danger px-3 py-1' : 'btn-secondary px-3 py-1'}
            onClick={() => choose(action)}
          >
            {LABELS[action]}
          </button>
        ))}
      </div>
    );
  }
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border border-ink-700 p-3"
      role="group"
      aria-label={`${LABELS[chosen]} ${subject}`}
    >
      <p className="text-sm">
        {LABELS[chosen]} {subject}?
      </p>
      {needsReason && <ReasonSelect reasons={reasons} value={reason} onChange={setReason} />}
      <div className="flex gap-2">
        <button
          type="button"
          className="btn-danger px-3 py-1"
          disabled={busy || (needsReason && !reason)}
          onClick={confirm}
        >
          {busy ? 'Working…' : `Confirm ${LABELS[chosen].toLowerCase()}`}
        </button>
        <button type="button" className="btn-secondary px-3 py-1" disabled={busy} onClick={() => choose(null)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
