// The Mojang profile API client: resolves a username to its uuid.
import { normalizeUuid } from '../auth/player-ids.ts';

/** A game profile as the Mojang API names it. */
export interface MojangProfile {
  uuid: string;
  username: string;
}

/** Raised when the Mojang API cannot be reached or answers something unexpected. */
export class MojangUnavailableError extends Error {}

/** Looks a username up at `<baseUrl>/users/profiles/minecraft/<name>`; null when no such player exists. */
export async function fetchProfileByName(baseUrl: string, username: string, timeoutMs = 5000): Promise<MojangProfile | null> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/users/profiles/minecraft/${encodeURIComponent(username)}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new MojangUnavailableError(`The Mojang API could not be reached: ${(error as Error).message}`);
  }
  if (response.status === 204 || response.status === 404) return null;
  if (!response.ok) throw new MojangUnavailableError(`The Mojang API answered ${response.status}`);
  const body = (await response.json().catch(() => null)) as { id?: unknown; name?: unknown } | null;
  const uuid = typeof body?.id === 'string' ? normalizeUuid(body.id) : null;
  if (!uuid || typeof body?.name !== 'string') throw new MojangUnavailableError('The Mojang API answered an unexpected body');
  return { uuid, username: body.name };
}
