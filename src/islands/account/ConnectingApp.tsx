// What a login page says when the player came from /device: they are logging in to connect an app, named by the code
// in the address the login returns to (`?ref=/device?user_code=…`), and they come back to approve it.
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/client/api';
import { isUserCode, normalizeUserCode } from '../../lib/device-codes';

/**
 * The code of the /device address a login returns to: its eight letters, '' for /device without a code that could be
 * one, or null when the login returns elsewhere.
 */
export function deviceCodeOf(returnTo: string | undefined): string | null {
  if (!returnTo) return null;
  const address = new URL(returnTo, 'http://site.invalid');
  if (address.pathname.replace(/\/+$/, '') !== '/device') return null;
  const code = normalizeUserCode(address.searchParams.get('user_code') ?? '');
  return isUserCode(code) ? code : '';
}

/** The line "Log in to connect <App>…" when the login returns to /device; nothing otherwise. */
export function ConnectingApp({ returnTo }: { returnTo: string | undefined }) {
  const code = deviceCodeOf(returnTo);
  const [appName, setAppName] = useState<string | null>(null);

  // The app's name, when the code is still waiting for the player; an unknown or expired one keeps the plain line
  // (the code page says what is wrong with it after the login).
  useEffect(() => {
    if (!code) return;
    let current = true;
    apiCall('deviceApp', { query: { code } }).then(
      (answer) => {
        if (current) setAppName(answer.appName);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [code]);

  if (code === null) return null;
  return (
    <p
      className="mt-4 rounded-lg border border-brand-500/50 bg-brand-500/10 px-4 py-3 break-words"
      data-testid="connecting-app"
    >
      <strong>Log in to connect {appName ?? 'an app'} to your account.</strong>{' '}
      {appName ? 'You come back to check its code and approve it.' : 'You come back to the code page after logging in.'}
    </p>
  );
}
