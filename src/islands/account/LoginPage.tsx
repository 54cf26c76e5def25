// /account/login: the Microsoft and game-code login choices, the gallery warning, the app being connected (from
// /device), the Microsoft callback exchange and the message of a login step that sent the player back.
import { useEffect, useState } from 'react';
import { apiCall, apiUrl } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { loginErrorMessage } from '../../lib/login-errors';
import { isSafeRef } from '../../lib/routes';
import { storeLogin } from '../../lib/client/session';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { ConnectingApp } from './ConnectingApp';
import { currentRef, dropQueryParams, setQueryParam } from '../shared/query';
import { useClientValue } from '../shared/useClientValue';

/** What the Microsoft sign-in page adds to the login page's address besides `code`: dropped once read. */
const MICROSOFT_RESPONSE_PARAMS = ['code', 'state', 'session_state', 'error', 'error_description', 'error_uri'];
/**
 * Where a Microsoft login was going, kept in this tab while the player is on Microsoft's pages (the redirect URI is
 * fixed, so ref cannot ride along).
 */
const MICROSOFT_REF_KEY = 'microsoft_login_ref';

let sentBackReason: string | null | undefined;
let refKeptOnReturn: { ref: string | undefined } | undefined;
let exchangeStarted = false;

/**
 * The message of the login step that sent the player back here (`?error=<reason>`, ours or Microsoft's), read from the
 * address the page opened with.
 */
function sentBackMessage(): string | null {
  sentBackReason ??= new URLSearchParams(location.search).get('error');
  return loginErrorMessage(sentBackReason);
}

/** Keeps the ref of a Microsoft login that is starting (or forgets an older one). */
function keepRefForMicrosoft(ref: string | undefined): void {
  try {
    if (ref) sessionStorage.setItem(MICROSOFT_REF_KEY, ref);
    else sessionStorage.removeItem(MICROSOFT_REF_KEY);
  } catch {
    // Storage can be off (private modes): the login still works, only a failed one forgets the ref.
  }
}

/** Takes the kept ref back after Microsoft's pages (once), when it is a path on this site. */
function takeKeptRef(): string | undefined {
  try {
    const kept = sessionStorage.getItem(MICROSOFT_REF_KEY);
    sessionStorage.removeItem(MICROSOFT_REF_KEY);
    return isSafeRef(kept) ? kept : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ref kept for a Microsoft login that has come back to this page (with `code` or `error`), read once when the page
 * opens.
 */
function refKeptForReturn(): string | undefined {
  if (!refKeptOnReturn) {
    const query = new URLSearchParams(location.search);
    refKeptOnReturn = { ref: query.has('code') || query.has('error') ? takeKeptRef() : undefined };
  }
  return refKeptOnReturn.ref;
}

/**
 * Back on the login page without a login: the address loses what Microsoft sent and gets the kept ref again (for the
 * warning and a retry).
 */
function cleanAddress(keptRef: string | undefined): void {
  dropQueryParams(...MICROSOFT_RESPONSE_PARAMS);
  if (keptRef && !currentRef()) setQueryParam('ref', keptRef);
}

/** One message from the server reads like the page's own messages ("Error: …"); several stay a list. */
function loginFailureDisplay(body: unknown): ErrorDisplayValue {
  const display = describeApiError(body, 'The Microsoft login failed. Please try again.');
  return display.kind === 'fields' && display.messages.length === 1
    ? { kind: 'message', message: display.messages[0]! }
    : display;
}

/** The login page's body. */
export default function LoginPage({ siteName }: { siteName: string }) {
  const keptRef = useClientValue(refKeptForReturn, undefined);
  const ref = useClientValue(currentRef, undefined) ?? keptRef;
  const hasCode = useClientValue(() => new URLSearchParams(location.search).has('code'), false);
  const [failed, setFailed] = useState(false);
  const exchanging = hasCode && !failed;
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  const sentBack = useClientValue(sentBackMessage, null);

  // The reason has been read: clean it from the address bar, so a reload does not show it again.
  useEffect(() => {
    if (new URLSearchParams(location.search).has('error')) cleanAddress(refKeptForReturn());
  }, []);

  // Back from the Microsoft sign-in page with a code: finish the login (once, even if the effect runs twice).
  useEffect(() => {
    const query = new URLSearchParams(location.search);
    const code = query.get('code');
    if (!code || exchangeStarted) return;
    exchangeStarted = true;
    apiCall('microsoftCallback', { body: { code, state: query.get('state') ?? undefined } })
      .then(({ user, ref: returned, firstLogin }) => {
        storeLogin(user, firstLogin);
        location.assign(returned || '/');
      })
      .catch((failure) => {
        setError(loginFailureDisplay(errorBody(failure)));
        cleanAddress(refKeptForReturn());
        setFailed(true);
      });
  }, []);

  const refQuery = ref ? `?ref=${encodeURIComponent(ref)}` : '';
  return (
    <div className="card mx-auto max-w-md">
      <h1 className="text-3xl font-extrabold">Login or Register</h1>
      <ConnectingApp returnTo={ref} />
      <p className="mt-2 text-ink-300">Use your game account. There is no separate password.</p>
      {ref?.includes('gallery') && (
        <div
          role="note"
          className="mt-4 rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm text-amber-100"
        >
          Some mods steal images from our gallery. The gallery is for {siteName} users only, so please log in to see it.
        </div>
      )}
      {exchanging ? (
        <p className="mt-6 flex items-center gap-2 text-ink-300" role="status">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-brand-400 border-t-transparent" /> Logging
          you in…
        </p>
      ) : (
        <div className="mt-6 flex flex-col gap-3">
          <a
            className="btn-primary py-3"
            href={`${apiUrl('microsoftLogin')}${refQuery}`}
            onClick={() => keepRefForMicrosoft(ref)}
          >
            Login with Microsoft
          </a>
          <a className="btn-secondary py-3" href={`/account/login/minecraft${refQuery}`}>
            Login using Minecraft
          </a>
        </div>
      )}
      <ErrorDisplay error={error ?? (sentBack ? { kind: 'message', message: sentBack } : null)} />
      <p className="mt-6 text-xs text-ink-300">
        By logging in you agree to our <a href="/legal/terms">Terms of Service</a> and{' '}
        <a href="/legal/privacy">Privacy Policy</a>.
      </p>
    </div>
  );
}
