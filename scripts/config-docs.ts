// Builds docs/configuration.md from the settings' tables (gathered in server/config/settings.ts) and the variables read
// elsewhere (server/config/variables.ts).
import prettier from 'prettier';
import { z } from 'zod';
import { configSchema } from '../server/config/index.ts';
import {
  OTHER_VARIABLES,
  SERVER_VARIABLES,
  VARIABLE_GROUPS,
  type ServerVariable,
  type VariableDoc,
} from '../server/config/variables.ts';

/** Where the generated file lives, from the repository root. */
export const CONFIGURATION_DOC = 'docs/configuration.md';

/** The default the schema gives a variable, as text; undefined when it has none. */
export function schemaDefault(name: ServerVariable): string | undefined {
  const field = configSchema.shape[name];
  return field instanceof z.ZodDefault ? String(field.def.defaultValue) : undefined;
}

/**
 * The default as the docs show it: the description's words (which must contain the schema's default), the schema's
 * default, or "unset".
 */
function shownDefault(name: string, doc: VariableDoc, fromSchema: string | undefined): string {
  if (doc.default !== undefined) {
    if (fromSchema !== undefined && !doc.default.includes(fromSchema)) {
      throw new Error(`${name}: the described default ${doc.default} does not show the schema's default ${fromSchema}`);
    }
    return doc.default;
  }
  return fromSchema === undefined ? 'unset' : `\`${fromSchema}\``;
}

/** The text of docs/configuration.md, formatted as Prettier formats it. */
export async function configurationMarkdown(): Promise<string> {
  const entries: { name: string; doc: VariableDoc; shown: string }[] = [];
  for (const name of Object.keys(configSchema.shape) as ServerVariable[]) {
    const doc = SERVER_VARIABLES[name];
    if (!doc?.description.trim()) throw new Error(`${name} has no description in its settings' table`);
    entries.push({ name, doc, shown: shownDefault(name, doc, schemaDefault(name)) });
  }
  for (const name of Object.keys(SERVER_VARIABLES)) {
    if (!(name in configSchema.shape)) throw new Error(`${name} is described but not in the config schema`);
  }
  for (const [name, doc] of Object.entries(OTHER_VARIABLES)) {
    if (!doc.description.trim()) throw new Error(`${name} has no description in server/config/variables.ts`);
    entries.push({ name, doc, shown: `${doc.default}; read by \`${doc.readBy}\`` });
  }
  const lines = [
    '# Configuration',
    '',
    '<!-- Written by `npm run docs:config` from the settings tables (gathered in server/config/settings.ts) and server/config/variables.ts; edit those, not this file. -->',
    '',
    'Every setting is an environment variable, and the defaults work on a fresh machine. `PUBLIC_*` settings are baked into the',
    'static site at build time (`npm start` rebuilds it when they change). A bad value stops the server at start with a message',
    'naming the variable.',
  ];
  for (const group of VARIABLE_GROUPS) {
    const inGroup = entries.filter((entry) => entry.doc.group === group);
    if (inGroup.length === 0) continue;
    lines.push('', `## ${group}`, '');
    for (const { name, doc, shown } of inGroup) lines.push(`- \`${name}\` (default ${shown}): ${doc.description}.`);
  }
  const options = (await prettier.resolveConfig(CONFIGURATION_DOC)) ?? {};
  return prettier.format(lines.join('\n') + '\n', { ...options, plugins: [], parser: 'markdown' });
}
