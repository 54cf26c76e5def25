// The Mojang profile API client: resolves a username to its uuid.
import { normalizeUuid } from '../../src/lib/ids.ts';
import { fetchOutside, OUTSIDE_IMAGE_MAX_BYTES, OUTSIDE_JSON_MAX_BYTES } from './outside-fetch.ts';

/** A game profile as the Mojang API names it. */
export interface MojangProfile {
  uuid: string;
  username: string;
}

/** How long each call to the game's services may take, body included. */
const CALL_TIMEOUT_MS = 5000;
const PROFILE_API = 'The Mojang API';
const SESSION_SERVER = 'The session server';
const SKIN_SERVER = 'The skin server';

/**
 * Looks a username up at `<baseUrl>/users/profiles/minecraft/<name>`; null when no such player exists;
 * OutsideServiceError when the API fails.
 */
export async function fetchProfileByName(
  baseUrl: string,
  username: string,
  timeoutMs = CALL_TIMEOUT_MS,
): Promise<MojangProfile | null> {
  const answer = await fetchOutside({
    service: PROFILE_API,
    url: `${baseUrl}/users/profiles/minecraft/${encodeURIComponent(username)}`,
    headers: { accept: 'application/json' },
    maxBytes: OUTSIDE_JSON_MAX_BYTES,
    timeoutMs,
  });
  if (answer.status === 204 || answer.status === 404) return null;
  if (!answer.ok) throw answer.unexpected();
  const body = answer.json() as { id?: unknown; name?: unknown } | null;
  const uuid = typeof body?.id === 'string' ? normalizeUuid(body.id) : null;
  if (!uuid || typeof body?.name !== 'string') throw answer.unexpected('a body that is not a profile');
  return { uuid, username: body.name };
}

/**
 * The host the game's skin files are served from; a session answer pointing anywhere else (but the session server
 * itself) is not followed.
 */
const SKIN_HOST = 'textures.minecraft.net';

/**
 * The skin URL in a session-server profile answer (its base64 `textures` property), or null when the player has none.
 */
export function skinUrlFromSessionProfile(body: unknown): string | null {
  const properties = (body as { properties?: Array<{ name?: unknown; value?: unknown }> } | null)?.properties;
  const textures = Array.isArray(properties) ? properties.find((property) => property.name === 'textures') : undefined;
  if (typeof textures?.value !== 'string') return null;
  try {
    const decoded = JSON.parse(Buffer.from(textures.value, 'base64').toString('utf8')) as {
      textures?: { SKIN?: { url?: unknown } };
    };
    const url = decoded.textures?.SKIN?.url;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

/** Where the skin services are and how their answers' addresses are checked. */
export interface SkinServices {
  apiUrl: string;
  sessionUrl: string;
  /** Whether a skin URL may point at a private address (a local stand-in). */
  allowPrivateAddresses: boolean;
  timeoutMs?: number;
}

/**
 * A player's skin PNG by username: the profile API for the uuid, the session server's profile for the skin URL, then
 * the skin file (only from the game's skin host or the session server's own origin, by the outside address rule). Null
 * when there is no such player or no skin; OutsideServiceError when a service fails.
 */
export async function fetchSkinByName(services: SkinServices, username: string): Promise<Buffer | null> {
  const timeoutMs = services.timeoutMs ?? CALL_TIMEOUT_MS;
  const profile = await fetchProfileByName(services.apiUrl, username, timeoutMs);
  if (!profile) return null;
  const session = await fetchOutside({
    service: SESSION_SERVER,
    url: `${services.sessionUrl}/session/minecraft/profile/${profile.uuid}`,
    maxBytes: OUTSIDE_JSON_MAX_BYTES,
    timeoutMs,
  });
  if (session.status === 204 || session.status === 404) return null;
  if (!session.ok) throw session.unexpected();
  const skinUrl = skinUrlFromSessionProfile(session.jsonOrNull());
  if (!skinUrl) return null;
  const skin = await fetchOutside({
    service: SKIN_SERVER,
    url: skinUrl,
    rule: { hosts: [SKIN_HOST, new URL(services.sessionUrl).origin], allowPrivate: services.allowPrivateAddresses },
    maxBytes: OUTSIDE_IMAGE_MAX_BYTES,
    timeoutMs,
  });
  if (!skin.ok) throw skin.unexpected();
  return skin.body;
}
