// Where a stored texture is served: the one place that knows the content-addressed /textures/{hash} layout.

/** The path of a stored texture on the mod API (`/textures/{hash}`), as the gallery's answers give it. */
export function texturePath(hash: string): string {
  return `/textures/${hash}`;
}

/** The absolute URL of a stored texture under the public base URL, as players' games and the upload answers get it. */
export function textureUrl(publicBaseUrl: string, hash: string): string {
  return `${publicBaseUrl}${texturePath(hash)}`;
}
