// /user ("Grab a user") and /user/{name or uuid} ("My Profile" on one's own): the search box and the player's card.
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody } from '../../lib/client/api-errors';
import { $user } from '../../lib/client/session';
import type { PlayerLookup as PlayerLookupResult } from '../../lib/schemas/types';
import { PlayerCard } from './PlayerCard';
import { playerIdFromPath } from './player-path';
import { isUsername, USERNAME_MAX, USERNAME_PATTERN, usernameCharacters } from '../../lib/ids';

type LookupState =
  | { kind: 'idle' }
  | { kind: 'loading'; id: string }
  | { kind: 'found'; player: PlayerLookupResult }
  | { kind: 'failed'; messages: string[] };

/** The lookup island. */
export default function PlayerLookup() {
  const user = useStore($user);
  const [id, setId] = useState(() => playerIdFromPath(location.pathname));
  const [query, setQuery] = useState(id && isUsername(id) ? id : '');
  const [state, setState] = useState<LookupState>(id ? { kind: 'loading', id } : { kind: 'idle' });
  /** Moves on every search, so searching the same name again looks it up again. */
  const [attempt, setAttempt] = useState(0);

  /** Shows the player a path names (or the empty search) and looks them up. */
  const show = (next: string | null) => {
    setId(next);
    setAttempt((count) => count + 1);
    setState(next ? { kind: 'loading', id: next } : { kind: 'idle' });
  };

  useEffect(() => {
    const onPop = () => show(playerIdFromPath(location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    apiCall('playerLookup', { params: { id }, signal: controller.signal }).then(
      (player) => {
        setState({ kind: 'found', player });
        // The address names the player by uuid, so it can be shared and stays right after a rename.
        if (location.pathname !== `/user/${player.uuid}`) history.replaceState(null, '', `/user/${player.uuid}`);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        const error = describeApiError(errorBody(failure));
        setState({ kind: 'failed', messages: error.kind === 'message' ? [error.message] : error.messages });
        // A failed search returns to /user, with the error shown.
        history.replaceState(null, '', '/user');
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    const name = query.trim();
    if (!isUsername(name)) return;
    history.pushState(null, '', `/user/${name}`);
    show(name);
  };

  const own = state.kind === 'found' && user?.uuid === state.player.uuid;
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-3xl font-extrabold">{own ? 'My Profile' : 'Grab a user'}</h1>
      <form className="mt-6 flex flex-col gap-3 sm:flex-row" onSubmit={search} role="search">
        <label className="sr-only" htmlFor="player-search">
          Username
        </label>
        <input
          id="player-search"
          className="flex-1 rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 placeholder:text-ink-600 focus:border-brand-400 focus:outline-none"
          placeholder="Username"
          value={query}
          maxLength={USERNAME_MAX}
          pattern={USERNAME_PATTERN}
          title="At most 16 letters, digits and underscores"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setQuery(usernameCharacters(event.target.value))}
        />
        <button type="submit" className="btn-primary" disabled={query.trim() === '' || state.kind === 'loading'}>
          {state.kind === 'loading' ? 'Searching…' : 'Search'}
        </button>
      </form>

      {state.kind === 'idle' && (
        <p className="mt-6 text-ink-300">Type a player's name to see their cape, ears and group.</p>
      )}
      {state.kind === 'loading' && (
        <div
          className="card mt-6 h-80 animate-pulse"
          aria-busy="true"
          aria-label="Looking up the player"
          data-testid="player-loading"
        />
      )}
      {state.kind === 'failed' && (
        <div
          role="alert"
          className="mt-6 rounded-lg border border-red-500/50 bg-red-500/10 px-4 py-3 text-red-200"
          data-testid="lookup-error"
        >
          <h2 className="font-bold">Error</h2>
          <ul className="mt-1 list-disc pl-5">
            {state.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {state.kind === 'found' && <PlayerCard player={state.player} own={own} />}
    </div>
  );
}
