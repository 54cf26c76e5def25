// /account/login: the Microsoft and game-code login choices, the gallery warning, the Microsoft callback exchange and the message of a login step that sent the player back.
import { useEffect, useState } from 'react';
import { api, API_URL } from '../../lib/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/api-client';
import { loginErrorMessage } from '../../lib/login-errors';
import { storeUser } from '../../lib/session';
import type { OAuthCallbackResult } from '../../lib/types';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { currentRef, dropQueryParams } from '../shared/query';
import { useClientValue } from '../shared/useClientValue';

/** What the Microsoft sign-in page adds to the login page's address besides `code`: dropped once read. */
const MICROSOFT_RESPONSE_PARAMS = ['code', 'state', 'session_state', 'error', 'error_description', 'error_uri'];

let sentBackReason: string | null | undefined;
let exchangeStarted = false;

/** The message of the login step that sent the player back here (`?error=<reason>`, ours or Microsoft's), read from the address the page opened with. */
function sentBackMessage(): string | null {
  sentBackReason ??= new URLSearchParams(location.search).get('error');
  return loginErrorMessage(sentBackReason);
}

/** The login page's body. */
export default function LoginPage({ siteName }: { siteName: string }) {
  const ref = useClientValue(currentRef, undefined);
  const hasCode = useClientValue(() => new URLSearchParams(location.search).has('code'), false);
  const [failed, setFailed] = useState(false);
  const exchanging = hasCode && !failed;
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  const sentBack = useClientValue(sentBackMessage, null);

  // The reason has been read: clean it (and what Microsoft sent with it) from the address bar, so a reload does not show it again.
  useEffect(() => {
    if (new URLSearchParams(location.search).has('error')) dropQueryParams(...MICROSOFT_RESPONSE_PARAMS);
  }, []);

  // Back from the Microsoft sign-in page with a code: finish the login (once, even if the effect runs twice).
  useEffect(() => {
    const query = new URLSearchParams(location.search);
    const code = query.get('code');
    if (!code || exchangeStarted) return;
    exchangeStarted = true;
    const wanted = currentRef();
    api<OAuthCallbackResult>('/api/account/oauth/callback', { method: 'POST', body: { code, state: query.get('state') ?? undefined } })
      .then(({ user, ref: returned }) => {
        storeUser(user);
        location.assign(returned || wanted || '/');
      })
      .catch((failure) => {
        setError(describeApiError(errorBody(failure), 'The Microsoft login failed. Please try again.'));
        dropQueryParams(...MICROSOFT_RESPONSE_PARAMS);
        setFailed(true);
      });
  }, []);

  const refQuery = ref ? `?ref=${encodeURIComponent(ref)}` : '';
  return (
    <div className="card mx-auto max-w-md">
      <h1 className="text-3xl font-extrabold">Login or Register</h1>
      <p className="mt-2 text-ink-300">Use your game account. There is no separate password.</p>
      {ref?.includes('gallery') && (
        <div role="note" className="mt-4 rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
          Some mods steal images from our gallery. The gallery is for {siteName} users only, so please log in to see it.
        </div>
      )}
      {exchanging ? (
        <p className="mt-6 flex items-center gap-2 text-ink-300" role="status">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-brand-400 border-t-transparent" /> Logging you in…
        </p>
      ) : (
        <div className="mt-6 flex flex-col gap-3">
          <a className="btn-primary py-3" href={`${API_URL}/api/account/oauth/redirect${refQuery}`}>
            Login with Microsoft
          </a>
          <a className="btn-secondary py-3" href={`/account/login/minecraft${refQuery}`}>
            Login using Minecraft
          </a>
        </div>
      )}
      <ErrorDisplay error={error ?? (sentBack ? { kind: 'message', message: sentBack } : null)} />
      <p className="mt-6 text-xs text-ink-300">
        By logging in you agree to our <a href="/legal/terms">Terms of Service</a> and <a href="/legal/privacy">Privacy Policy</a>.
      </p>
    </div>
  );
}
