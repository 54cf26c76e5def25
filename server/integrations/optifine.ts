// The OptiFine-style cape server client: `GET {base}/capes/{name}.png` answers a player's cape, or 404 when they have none.

/** Raised when the cape server cannot be reached or answers something unexpected. */
export class OptifineUnavailableError extends Error {}

/** Largest cape file we read. */
const MAX_CAPE_BYTES = 1_000_000;

/** A player's OptiFine cape PNG, or null when they have none. */
export async function fetchOptifineCape(baseUrl: string, username: string, timeoutMs = 5000): Promise<Buffer | null> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/capes/${encodeURIComponent(username)}.png`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (error) {
    throw new OptifineUnavailableError(`The cape server could not be reached: ${(error as Error).message}`);
  }
  if (response.status === 404) return null;
  if (!response.ok) throw new OptifineUnavailableError(`The cape server answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_CAPE_BYTES) throw new OptifineUnavailableError('The cape file is too big');
  return bytes;
}
