// The OptiFine-style cape server client: `GET {base}/capes/{name}.png` answers a player's cape, or 404 when they have
// none.
import { fetchOutside, OUTSIDE_IMAGE_MAX_BYTES } from './outside-fetch.ts';

/** A player's OptiFine cape PNG, or null when they have none; OutsideServiceError when the cape server fails. */
export async function fetchOptifineCape(baseUrl: string, username: string, timeoutMs = 5000): Promise<Buffer | null> {
  const answer = await fetchOutside({
    service: 'The cape server',
    url: `${baseUrl}/capes/${encodeURIComponent(username)}.png`,
    maxBytes: OUTSIDE_IMAGE_MAX_BYTES,
    timeoutMs,
  });
  if (answer.status === 404) return null;
  if (!answer.ok) throw answer.unexpected();
  return answer.body;
}
