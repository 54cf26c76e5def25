// The picture an admin action's audit row shows: the texture map of the stored texture it acted on.
import type { BlocklistContext } from '../textures/library/blocklist.ts';

/**
 * A small picture of a stored texture for its audit row (its texture map as a PNG data URL), or null when it is not
 * stored.
 */
export async function auditThumbnail(context: BlocklistContext, hash: string | null): Promise<string | null> {
  const bytes = hash ? await context.library.read(hash) : null;
  if (!bytes) return null;
  const map = await context.imageJobs.run('textureMap', bytes, null);
  return `data:image/png;base64,${Buffer.from(map).toString('base64')}`;
}
