// The import layers of the code base, from the top down: a module may import its own layer's unit or any layer below it,
// never one above. Read by eslint.config.js (which turns it into no-restricted-imports rules) and scripts/import-graph.ts.

/**
 * Each layer: a name, and the path prefixes (from the repository root) of the modules in it. Inside the domain, the
 * folders are ordered too (the first may import the later ones). Two modules of one layer import each other only when
 * they share a unit: a folder of the domain, or the whole of one platform or shared layer; each route group (a file or a
 * folder under server/routes/) is a unit of its own (no route group imports another).
 */
export const IMPORT_LAYERS = [
  { name: 'entry', units: [['server/main.ts', 'server/app.ts', 'server/setup/', 'server/commands/']] },
  { name: 'routes', units: [['server/routes/']], groupIsUnit: true },
  { name: 'operations', units: [['server/operations/', 'server/site/']] },
  { name: 'domain: admin', units: [['server/admin/']] },
  { name: 'domain: accounts', units: [['server/accounts/']] },
  { name: 'domain: creators', units: [['server/creators/']] },
  { name: 'domain: gallery, users, mod, premium', units: [['server/gallery/'], ['server/users/'], ['server/mod/'], ['server/premium/']] },
  { name: 'domain: integrations', units: [['server/integrations/']] },
  { name: 'domain: auth', units: [['server/auth/']] },
  { name: 'domain: texture library', units: [['server/textures/library/']] },
  { name: 'domain: image work', units: [['server/textures/image-work/']] },
  { name: 'domain: generators', units: [['server/textures/generators/']] },
  { name: 'domain: texture pipeline', units: [['server/textures/pipeline/']] },
  {
    name: 'platform',
    units: [['server/db/', 'server/storage/', 'server/redis/', 'server/http/', 'server/config/', 'server/events/', 'server/audit/', 'server/images/']],
  },
  { name: 'shared (browser and server)', units: [['src/lib/']] },
];

/** The route group of a route module: its folder under server/routes/ (`server/routes/admin/`), or the file itself. */
function routeGroupOf(file) {
  const [group, ...rest] = file.slice('server/routes/'.length).split('/');
  return rest.length > 0 ? `server/routes/${group}/` : file;
}

/** The layer index (0 = top) and unit of a repository path, or undefined for a path outside every layer. */
export function layerOf(file) {
  for (const [index, layer] of IMPORT_LAYERS.entries()) {
    for (const [unitIndex, prefixes] of layer.units.entries()) {
      if (prefixes.some((prefix) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix))) {
        return { index, unit: layer.groupIsUnit ? routeGroupOf(file) : `${index}.${unitIndex}`, name: layer.name };
      }
    }
  }
  return undefined;
}

/** Whether `from` may import `to`: downward by the layers, or inside one unit; `src/` never imports `server/`, and `server/` never imports `tests/`, `bench/` or `support/`. */
export function importAllowed(from, to) {
  if (from.startsWith('src/') && to.startsWith('server/')) return false;
  if (from.startsWith('server/') && (to.startsWith('tests/') || to.startsWith('bench/') || to.startsWith('support/'))) return false;
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === undefined || b === undefined) return true;
  return a.unit === b.unit || b.index > a.index;
}
