// The public origin of the mod API (PUBLIC_BASE_URL): where players' games fetch capes, known to the server and the
// built site alike.

/** The port the server listens on when PORT is not set. */
export const DEFAULT_PORT = 4321;

/**
 * The origin players' games reach: PUBLIC_BASE_URL without a trailing slash, else this machine on the server's port.
 */
export function publicBaseUrl(configured: string | undefined, port: number | string | undefined): string {
  const base =
    configured !== undefined && configured !== ''
      ? configured
      : `http://localhost:${port !== undefined && port !== '' ? port : DEFAULT_PORT}`;
  return base.replace(/\/+$/, '');
}
