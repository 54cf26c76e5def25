// Stored textures as moderators see them: withheld or not (a removed picture, a banned player's cape), from the store.
import type { TextureLibrary } from '../textures/library/texture-library.ts';

/** A stored texture's bytes as a PNG data URL for an admin page, withheld or not; null when there is none. */
export async function evidenceDataUrl(library: TextureLibrary, hash: string | null): Promise<string | null> {
  const bytes = hash ? await library.read(hash) : null;
  return bytes ? `data:image/png;base64,${bytes.toString('base64')}` : null;
}
