// What the login page and the login calls say when a login fails: the reasons a login step sends the player back with
// (`/account/login?error=<reason>`, Microsoft's own `error` codes included) and the Microsoft login's failures.

/** The message for a banned account, for every login. */
export const BANNED_ACCOUNT_MESSAGE = 'The specified account has been banned for violating our terms of service.';

/**
 * What a call without a live session is answered (401); a 401 with any other message says why the player was logged
 * out.
 */
export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';

/**
 * Why a banned player was logged out, shown on the page they land on: the banned-account message and the ban's reason.
 */
export function bannedLogoutMessage(reason: string | null): string {
  return reason ? `${BANNED_ACCOUNT_MESSAGE} Reason: ${reason}.` : BANNED_ACCOUNT_MESSAGE;
}

/** Why a Microsoft login did not finish, and what the player is told (the callback's `errors`, the page's red box). */
export const MICROSOFT_LOGIN_FAILURES = {
  /**
   * The state or code is wrong, expired (10 minutes) or already used, or the browser is not the one that started the
   * login.
   */
  expired: 'That Microsoft sign-in has expired or was already used. Click Login with Microsoft to try again.',
  /** XSTS XErr 2148916233: the Microsoft account has never signed in to Xbox. */
  noXboxAccount:
    'This Microsoft account has no Xbox profile yet. Sign in once at xbox.com or in the Minecraft Launcher to create one (it is free), then try again.',
  /** XSTS XErr 2148916238: a child account that an adult has not added to a Microsoft family. */
  childAccount:
    'This Microsoft account belongs to a child, so an adult must add it to their Microsoft family (family.microsoft.com) before it can sign in to Xbox. Ask them to, then try again.',
  /** XSTS XErr 2148916235: Xbox is not offered in the account's country. */
  xboxUnavailableInRegion:
    "Xbox is not available in this Microsoft account's country or region, so it cannot log in here.",
  /** XSTS XErr 2148916236 and 2148916237: the account must prove its holder is an adult first. */
  adultVerificationNeeded:
    'This Microsoft account needs adult verification at xbox.com before it can sign in to Xbox. Verify it there, then try again.',
  /** Any other refusal from Xbox. */
  xboxRefused: 'Xbox refused to sign this Microsoft account in. Check the account at xbox.com, then try again.',
  /**
   * The game services know no profile for the account: it does not own Minecraft: Java Edition (or has not picked a
   * name).
   */
  noGame:
    'This Microsoft account does not own Minecraft: Java Edition, or has not chosen a player name yet. Buy the game, or start it once to pick a name, then try again.',
  /** The banned-account message. */
  banned: BANNED_ACCOUNT_MESSAGE,
  /** Microsoft, Xbox or the game services could not be reached or answered something unexpected. */
  unavailable: 'We could not reach Microsoft or Xbox to check your account. Please try again in a few minutes.',
} as const;

/** A reason a Microsoft login failed. */
export type MicrosoftLoginFailure = keyof typeof MICROSOFT_LOGIN_FAILURES;

/** What the login page says for each reason a login step sent the player back with. */
export const LOGIN_ERRORS = {
  microsoft_unavailable:
    'Microsoft login is not configured on this server yet. You can still log in with a code from the game: use Login using Minecraft.',
  /** Microsoft's answer when the player cancels the sign-in (or declines the permissions). */
  access_denied:
    'You cancelled the Microsoft sign-in, so you are not logged in. Click Login with Microsoft to try again.',
} as const;

/** The message for any other error code Microsoft's sign-in page sends back (OAuth 2.0 and OpenID Connect codes). */
export const MICROSOFT_SIGN_IN_ERROR_MESSAGE =
  'Microsoft could not complete the sign-in. Please try again in a moment.';

/** The error codes an OAuth 2.0 / OpenID Connect sign-in page may send back besides access_denied. */
const OAUTH_ERROR_CODES = new Set([
  'invalid_request',
  'unauthorized_client',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_client',
]);

/** A reason the login page knows. */
export type LoginErrorReason = keyof typeof LOGIN_ERRORS;

/** The login page's address that shows a reason's message, keeping the path to return to after the login. */
export function loginErrorPath(reason: LoginErrorReason, ref?: string): string {
  const query = new URLSearchParams({ error: reason });
  if (ref) query.set('ref', ref);
  return `/account/login?${query}`;
}

/**
 * The message for the login page's `error` parameter, or null when there is none or it is not a known reason or OAuth
 * error code.
 */
export function loginErrorMessage(reason: string | null): string | null {
  if (reason === null) return null;
  if (Object.hasOwn(LOGIN_ERRORS, reason)) return LOGIN_ERRORS[reason as LoginErrorReason];
  return OAUTH_ERROR_CODES.has(reason) ? MICROSOFT_SIGN_IN_ERROR_MESSAGE : null;
}
