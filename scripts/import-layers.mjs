// The import layers of the code base, from the top down: a module may import its own layer's unit or any layer below
// it, never one above. Read by eslint.config.js (its rule `layers/imports-run-one-way`) and scripts/import-graph.ts.

/** The feature folders under server/: each a unit, importing another feature only where FEATURE_USES lists it. */
const FEATURES = [
  'admin',
  'accounts',
  'creators',
  'gallery',
  'users',
  'mod',
  'premium',
  'integrations',
  'auth',
  'wardrobe',
];

/**
 * The features that build on other features (and so come before them): the admin tools on accounts, the gallery, the
 * mod API's profiles, premium features and the apps players connected (a ban ends their connections); deleting or
 * registering an account on sessions and app connections, the gallery and Mojang; the creators on the gallery; premium
 * on the outside fetch (server/integrations/outside-fetch.ts) for its calls to PayPal and Stripe. Any other import
 * between two features is refused.
 */
export const FEATURE_USES = {
  'server/admin/': ['server/accounts/', 'server/gallery/', 'server/mod/', 'server/premium/', 'server/auth/'],
  'server/accounts/': ['server/auth/', 'server/gallery/', 'server/integrations/'],
  'server/creators/': ['server/gallery/'],
  'server/premium/': ['server/integrations/'],
};

/**
 * Each layer: a name, and its units, each the path prefixes (from the repository root) of its modules. Two modules of
 * one layer import each other only when they share a unit (or, for features, where FEATURE_USES says so); each route
 * group (a file or a folder under server/routes/) is a unit of its own, so no route group imports another.
 */
export const IMPORT_LAYERS = [
  { name: 'entry', units: [['server/main.ts', 'server/app.ts', 'server/setup/', 'server/commands/']] },
  { name: 'routes', units: [['server/routes/']], groupIsUnit: true },
  { name: 'operations', units: [['server/operations/', 'server/site/']] },
  { name: 'features', units: FEATURES.map((feature) => [`server/${feature}/`]), uses: FEATURE_USES },
  { name: 'texture core', units: [['server/textures/']] },
  {
    name: 'platform',
    units: [['server/db/', 'server/storage/', 'server/redis/', 'server/http/', 'server/events/', 'server/audit/']],
  },
  // The image job queue sits below the rest of the platform, so it never imports server/http/; it reads only config/.
  { name: 'image job queue', units: [['server/image-jobs/']] },
  { name: 'configuration', units: [['server/config/']] },
  { name: 'shared (browser and server)', units: [['src/lib/']] },
];

/** The route group of a route module: its folder under server/routes/ (`server/routes/admin/`), or the file itself. */
function routeGroupOf(file) {
  const [group, ...rest] = file.slice('server/routes/'.length).split('/');
  return rest.length > 0 ? `server/routes/${group}/` : file;
}

/** The layer index (0 = top), unit and layer of a repository path, or undefined for a path outside every layer. */
export function layerOf(file) {
  for (const [index, layer] of IMPORT_LAYERS.entries()) {
    for (const prefixes of layer.units) {
      if (prefixes.some((prefix) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix))) {
        return { index, unit: layer.groupIsUnit ? routeGroupOf(file) : prefixes[0], name: layer.name, layer };
      }
    }
  }
  return undefined;
}

/**
 * Whether `from` may import `to`: downward by the layers, inside one unit, or to a feature it uses; `src/` never
 * imports `server/`, and `server/` never imports `tests/`, `bench/` or `support/`.
 */
export function importAllowed(from, to) {
  if (from.startsWith('src/') && to.startsWith('server/')) return false;
  if (from.startsWith('server/') && (to.startsWith('tests/') || to.startsWith('bench/') || to.startsWith('support/')))
    return false;
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === undefined || b === undefined) return true;
  if (a.unit === b.unit || b.index > a.index) return true;
  return a.index === b.index && (a.layer.uses?.[a.unit] ?? []).includes(b.unit);
}
