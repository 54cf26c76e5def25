// What an app signed in with the device flow (a launcher, a mod) may do for a player: each scope, and what the
// approval page and the connected apps list say it allows. The one list of scopes: the server's checks, the
// authorization server's metadata and the pages all read it.

/** Every scope an app may ask for, with what it lets the app do, in the words the player reads. */
export const APP_SCOPES = {
  'wardrobe:read': 'See your wardrobe: the capes and ears in it and what you wear',
  'wardrobe:write': 'Choose what you wear: wear, take off, rename and remove capes and ears in your wardrobe',
  'textures:upload': 'Upload capes and ears into your wardrobe',
} as const;

/** A scope an app may ask for. */
export type AppScope = keyof typeof APP_SCOPES;

/** Every scope, in the table's order. */
export const APP_SCOPE_NAMES = Object.keys(APP_SCOPES) as [AppScope, ...AppScope[]];

/** Whether a text is one of the scopes. */
export function isAppScope(value: string): value is AppScope {
  return Object.hasOwn(APP_SCOPES, value);
}

/**
 * The scopes a space-separated scope parameter names, each once and in the table's order; null when it names none or
 * one that does not exist.
 */
export function parseAppScopes(text: string): AppScope[] | null {
  const named = text.split(' ').filter(Boolean);
  if (named.length === 0 || !named.every(isAppScope)) return null;
  return APP_SCOPE_NAMES.filter((scope) => named.includes(scope));
}
