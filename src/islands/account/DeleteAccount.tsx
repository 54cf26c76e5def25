// /account/delete: the warning, the confirmation box and the Delete button.
import { useState } from 'react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { leaveFlash } from '../../lib/client/flash';
import { forgetUser } from '../../lib/client/session';
import { ErrorDisplay } from '../shared/ErrorDisplay';

/** What the home page says after the account is deleted. */
export const ACCOUNT_DELETED = 'Your account has been deleted. Thank you for using the site.';

/** The account deletion form. */
export default function DeleteAccount({ discordUrl }: { discordUrl: string }) {
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      // The button is enabled only once the box is ticked.
      await apiCall('deleteAccount', { body: { confirm: true } });
      forgetUser();
      leaveFlash(ACCOUNT_DELETED);
      location.assign('/');
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
      setBusy(false);
    }
  };

  return (
    <div className="card mx-auto max-w-lg">
      <h1 className="text-3xl font-extrabold">Delete your account</h1>
      <div role="note" className="mt-4 rounded-lg border border-red-500/50 bg-red-500/10 px-4 py-3 text-red-100">
        This removes everything: your cape, your ears, your gallery textures and likes, and every premium feature you
        bought. It cannot be undone, and purchases are not refunded.
      </div>
      {discordUrl && (
        <p className="mt-4 text-ink-300">
          Having trouble instead? Ask us on{' '}
          <a href={discordUrl} rel="noopener">
            Discord
          </a>{' '}
          first.
        </p>
      )}
      <label className="mt-6 flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4 accent-red-600"
          checked={confirmed}
          onChange={(event) => setConfirmed(event.target.checked)}
        />
        <span>I understand that my account and everything in it will be deleted for good.</span>
      </label>
      <button type="button" className="btn-danger mt-6 w-full py-3" disabled={!confirmed || busy} onClick={remove}>
        {busy ? 'Deleting…' : 'Delete my account'}
      </button>
      <ErrorDisplay error={error} />
    </div>
  );
}
