// Reading the player out of a /user/{name or uuid} or /user/{uuid}/report path.

/** The player named in a /user/{id} or /user/{id}/report path, or null for /user and /user/report. */
export function playerIdFromPath(pathname: string): string | null {
  const match = /^\/user\/([A-Za-z0-9_-]{1,36})(?:\/report)?\/?$/.exec(pathname);
  return match && match[1] !== 'report' ? decodeURIComponent(match[1]!) : null;
}

/** Whether a search box entry may be looked up: 1–16 letters, digits and underscores. */
export function isSearchableName(value: string): boolean {
  return /^[A-Za-z0-9_]{1,16}$/.test(value);
}
