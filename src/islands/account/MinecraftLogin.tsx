// /account/login/minecraft: the 6-digit game code login, naming the app being connected when the player came from
// /device.
import { useState, type FormEvent } from 'react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { storeLogin } from '../../lib/client/session';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { ConnectingApp } from './ConnectingApp';
import { currentRef } from '../shared/query';
import { useClientValue, useHydrated } from '../shared/useClientValue';

/** The message for a wrong login code. */
export const WRONG_CODE_MESSAGE = 'That code is incorrect. Please try again.';

/** Keeps only digits, at most six. */
export function sanitizeCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

/** The code login form; without an auth server (empty authServerHost) the code comes from staff. */
export default function MinecraftLogin({ authServerHost }: { authServerHost: string }) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const ref = useClientValue(currentRef, undefined);

  // Until the island has hydrated, a click would submit the bare form; the button waits for the script.
  const ready = useHydrated();

  const copyAddress = () => {
    navigator.clipboard?.writeText(authServerHost).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (code.length !== 6) {
      setError({ kind: 'message', message: 'Enter the 6-digit code the server gave you.' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await apiCall('checkAuth', { body: { code, ref } });
      if (result.success) {
        storeLogin(result.user, result.firstLogin);
        location.assign(result.ref || ref || '/');
        return;
      }
      setError({ kind: 'message', message: WRONG_CODE_MESSAGE });
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    }
    setBusy(false);
  };

  return (
    <form className="card mx-auto max-w-md" onSubmit={submit} noValidate>
      <h1 className="text-3xl font-extrabold">Login using Minecraft</h1>
      <ConnectingApp returnTo={ref} />
      <ol className="mt-4 list-decimal space-y-2 pl-5 text-ink-300">
        {authServerHost ? (
          <li>
            Join{' '}
            <button
              type="button"
              onClick={copyAddress}
              className="rounded bg-ink-800 px-2 py-0.5 font-mono text-ink-100 hover:bg-ink-700"
              title="Click to copy"
              data-testid="auth-server-address"
            >
              {authServerHost}
            </button>{' '}
            in the game with Direct Connect.
            {copied && (
              <span className="ml-2 text-xs text-green-400" role="status">
                Copied!
              </span>
            )}
          </li>
        ) : (
          <li>Ask the site&apos;s staff for a login code.</li>
        )}
        <li>Type the 6-digit code {authServerHost ? 'it shows you' : 'you got'} below.</li>
      </ol>
      <label htmlFor="login-code" className="mt-6 block text-sm font-semibold">
        Code
      </label>
      <input
        id="login-code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        value={code}
        onChange={(event) => setCode(sanitizeCode(event.target.value))}
        placeholder="123456"
        className="mt-2 w-full rounded-lg border border-ink-600 bg-ink-800 px-4 py-3 text-center font-mono text-3xl tracking-[0.5em] text-ink-100 outline-none focus:border-brand-400"
        autoFocus
      />
      <button type="submit" className="btn-primary mt-4 w-full py-3" disabled={busy || !ready}>
        {busy ? 'Checking…' : 'Confirm identity'}
      </button>
      <ErrorDisplay error={error} />
      {authServerHost && (
        <p className="mt-4 text-xs text-ink-300">
          Need help? See <a href="/auth">how to get a code</a>.
        </p>
      )}
    </form>
  );
}
