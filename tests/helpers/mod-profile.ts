// A player's profile as the mod reads it from the mod API: the JSON of a player who has something to show, and for
// anyone else (the mod API answers 404: no cape, no ears, no premium feature, or no such player) what the mod then
// shows: nothing.
import { expect } from 'vitest';
import type { ModProfile } from '../../src/lib/schemas/types.ts';
import { NOTHING_SHOWN } from '../../server/mod/player-answers.ts';

/** GET /profile/{id} on `baseUrl`: the profile (200), or NOTHING_SHOWN (404); any other status fails the test. */
export async function modProfile(baseUrl: string, id: string): Promise<ModProfile> {
  const response = await fetch(`${baseUrl}/profile/${id}`);
  expect([200, 404], `GET /profile/${id}`).toContain(response.status);
  return response.status === 404 ? NOTHING_SHOWN : ((await response.json()) as ModProfile);
}
