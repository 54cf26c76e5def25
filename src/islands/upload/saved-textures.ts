// The player's saved cape and ears, read from the mod API: what the upload pages show and what Cancel restores.
import { API_URL } from '../../lib/client/api';
import type { ModProfile } from '../../lib/schemas/types';
import type { CapeTexture } from '../shared/preview/images';

/** The player's saved textures, as the mod API serves them. */
export interface SavedTextures {
  cape: CapeTexture | null;
  ears: string | null;
}

/**
 * The saved textures in a mod API profile, as other players see them: the animated strip when it plays (animatedCape),
 * else the still cape.
 */
export function savedFromProfile(profile: ModProfile | null): SavedTextures {
  if (!profile) return { cape: null, ears: null };
  const cape: CapeTexture | null =
    profile.animatedCape && profile.animated_cape_url
      ? { kind: 'strip', url: profile.animated_cape_url }
      : profile.cape_url
        ? { kind: 'image', url: profile.cape_url }
        : null;
  return { cape, ears: profile.ear_url ?? null };
}

/** Reads a player's saved textures from the mod API (GET /profile/{uuid}); a 404 (never seen) means none. */
export async function fetchSavedTextures(uuid: string, signal?: AbortSignal): Promise<SavedTextures> {
  const response = await fetch(`${API_URL}/profile/${encodeURIComponent(uuid)}`, { cache: 'no-store', signal });
  if (response.status === 404) return savedFromProfile(null);
  if (!response.ok) throw new Error(`The profile answered ${response.status}`);
  return savedFromProfile((await response.json()) as ModProfile);
}
