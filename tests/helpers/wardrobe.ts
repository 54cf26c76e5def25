// The wardrobe as tests use it: emptying a player's wardrobe, after which nothing of theirs keeps a texture.
import { expect } from 'vitest';
import type { CookieJar } from './cookie-jar.ts';

/** Removes every item of the player's wardrobe, as the wardrobe page's Remove does. */
export async function emptyWardrobe(jar: CookieJar): Promise<void> {
  const { items } = (await (await jar.get('/api/wardrobe')).json()) as { items: Array<{ id: string }> };
  for (const item of items) expect((await jar.post('/api/wardrobe/remove', { id: item.id })).status).toBe(200);
}
