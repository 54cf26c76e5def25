// /admin/registration/generate: a player's one-time login code (what `cloakroom code` prints), for a player who cannot
// reach the game auth server. The username keeps only letters, digits and underscores (at most 16).
import { useState, type FormEvent } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { USERNAME_MAX, usernameCharacters } from '../../lib/ids';

/** The registration code island. */
export default function RegistrationCodes() {
  const [username, setUsername] = useState('');
  const [result, setResult] = useState<ApiAnswer<'generateRegistrationCode'> | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  const generate = async (event: FormEvent) => {
    event.preventDefault();
    if (username === '') return;
    setBusy(true);
    setError(null);
    setResult(null);
    setCopied(false);
    try {
      setResult(await apiCall('generateRegistrationCode', { body: { username } }));
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    } finally {
      setBusy(false);
    }
  };

  const copy = async (code: string) => {
    await navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <section aria-labelledby="registration-title">
      <h1 id="registration-title" className="text-3xl font-extrabold">
        Registration codes
      </h1>
      <p className="mt-2 text-ink-300">
        A one-time code a player enters at <a href="/account/login/minecraft">Login using Minecraft</a>. The account is
        created if it does not exist yet.
      </p>
      <form className="mt-6 flex flex-col gap-3 sm:flex-row" onSubmit={generate}>
        <label className="sr-only" htmlFor="registration-username">
          Username
        </label>
        <input
          id="registration-username"
          className="flex-1 rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 focus:border-brand-400 focus:outline-none"
          placeholder="Username"
          autoComplete="off"
          maxLength={16}
          value={username}
          onChange={(event) => setUsername(usernameCharacters(event.target.value).slice(0, USERNAME_MAX))}
        />
        <button type="submit" className="btn-primary" disabled={username === '' || busy}>
          {busy ? 'Generating…' : 'Generate code'}
        </button>
      </form>
      <ErrorDisplay error={error} />
      {result && (
        <div className="card mt-6" role="status" data-testid="registration-code">
          <p className="text-ink-300">
            Login code for <a href={`/user/${result.uuid}`}>{result.username}</a>
          </p>
          <p className="mt-2 font-mono text-4xl font-extrabold tracking-[0.3em]">{result.code}</p>
          <p className="mt-2 text-sm text-ink-300">It works once and expires in {result.expiresInMinutes} minutes.</p>
          <button type="button" className="btn-secondary mt-4 px-3 py-1" onClick={() => copy(result.code)}>
            {copied ? 'Copied' : 'Copy code'}
          </button>
        </div>
      )}
    </section>
  );
}
