// How the gallery words a number of textures.

/** "1 texture", "25 textures", or "1,000+ textures" when the count is a lower bound. */
export function textureCount(total: number, atLeast = false): string {
  if (total === 1 && !atLeast) return '1 texture';
  return `${total.toLocaleString('en')}${atLeast ? '+' : ''} textures`;
}
