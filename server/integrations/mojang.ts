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

/** The host the game's skin files are served from; a session answer pointing anywhere else (but the session server itself) is not followed. */
const SKIN_HOST = 'textures.minecraft.net';
/** Largest skin file we read. */
const MAX_SKIN_BYTES = 1_000_000;

/** The skin URL in a session-server profile answer (its base64 `textures` property), or null when the player has none. */
export function skinUrlFromSessionProfile(body: unknown): string | null {
  const properties = (body as { properties?: Array<{ name?: unknown; value?: unknown }> } | null)?.properties;
  const textures = Array.isArray(properties) ? properties.find((property) => property.name === 'textures') : undefined;
  if (typeof textures?.value !== 'string') return null;
  try {
    const decoded = JSON.parse(Buffer.from(textures.value, 'base64').toString('utf8')) as { textures?: { SKIN?: { url?: unknown } } };
    const url = decoded.textures?.SKIN?.url;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

/** Fetches with a timeout, turning a network failure into MojangUnavailableError. */
async function fetchOrUnavailable(url: string, timeoutMs: number, what: string): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (error) {
    throw new MojangUnavailableError(`${what} could not be reached: ${(error as Error).message}`);
  }
}

/**
 * A player's skin PNG by username: the profile API for the uuid, the session server's profile for the skin URL, then
 * the skin file (only from the game's skin host or the session server's own origin). Null when there is no such player
 * or no skin; MojangUnavailableError when a service fails.
 */
export async function fetchSkinByName(apiUrl: string, sessionUrl: string, username: string, timeoutMs = 5000): Promise<Buffer | null> {
  const profile = await fetchProfileByName(apiUrl, username, timeoutMs);
  if (!profile) return null;
  const session = await fetchOrUnavailable(`${sessionUrl}/session/minecraft/profile/${profile.uuid}`, timeoutMs, 'The session server');
  if (session.status === 204 || session.status === 404) return null;
  if (!session.ok) throw new MojangUnavailableError(`The session server answered ${session.status}`);
  const skinUrl = skinUrlFromSessionProfile(await session.json().catch(() => null));
  if (!skinUrl) return null;
  let parsed: URL;
  try {
    parsed = new URL(skinUrl);
  } catch {
    return null;
  }
  const allowed = parsed.hostname === SKIN_HOST || parsed.origin === new URL(sessionUrl).origin;
  if (!allowed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new MojangUnavailableError(`The session server pointed at ${parsed.origin}`);
  const skin = await fetchOrUnavailable(parsed.href, timeoutMs, 'The skin server');
  if (!skin.ok) throw new MojangUnavailableError(`The skin server answered ${skin.status}`);
  const bytes = Buffer.from(await skin.arrayBuffer());
  if (bytes.length > MAX_SKIN_BYTES) throw new MojangUnavailableError('The skin file is too big');
  return bytes;
}
