// Who may use the admin area: the API's answer to a player who is not an admin, recognised by the browser.

/** What the API answers (403) when a player who is not an admin calls an admin call. */
export const NOT_ADMIN_MESSAGE = 'This action is unauthorized.';

/** Whether a failed call's answer says the user is not an admin. */
export function isNotAdminAnswer(status: number, body: unknown): boolean {
  return (
    status === 403 && !!body && typeof body === 'object' && (body as { error?: unknown }).error === NOT_ADMIN_MESSAGE
  );
}
