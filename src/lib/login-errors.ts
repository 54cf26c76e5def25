// Why a login step sent the player back to the login page (`/account/login?error=<reason>`), and what the page says for each.

/** What the login page says for each reason. */
export const LOGIN_ERRORS = {
  microsoft_unavailable: 'Microsoft login is not configured on this server yet. You can still log in with a code from the game: use Login using Minecraft.',
} as const;

/** A reason the login page knows. */
export type LoginErrorReason = keyof typeof LOGIN_ERRORS;

/** The login page's address that shows a reason's message, keeping the path to return to after the login. */
export function loginErrorPath(reason: LoginErrorReason, ref?: string): string {
  const query = new URLSearchParams({ error: reason });
  if (ref) query.set('ref', ref);
  return `/account/login?${query}`;
}

/** The message for the login page's `error` parameter, or null when there is none or it is not a known reason. */
export function loginErrorMessage(reason: string | null): string | null {
  return reason !== null && Object.hasOwn(LOGIN_ERRORS, reason) ? LOGIN_ERRORS[reason as LoginErrorReason] : null;
}
