// docs/configuration.md is what `npm run docs:config` writes, and every variable has a description.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../server/config/index.ts';
import { OTHER_VARIABLES, SERVER_VARIABLES } from '../../../server/config/variables.ts';
import { CONFIGURATION_DOC, configurationMarkdown } from '../../../scripts/config-docs.ts';

describe('docs/configuration.md', () => {
  it('is what npm run docs:config writes (run it after changing a settings table or server/config/variables.ts)', async () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8')).toBe(await configurationMarkdown());
  });

  it('describes every variable of the config schema, and only those', () => {
    const described = Object.keys(SERVER_VARIABLES).sort();
    expect(described).toEqual(Object.keys(configSchema.shape).sort());
    for (const [name, doc] of Object.entries(SERVER_VARIABLES)) expect(doc.description.trim(), name).not.toBe('');
  });

  it('describes variables read elsewhere only where the named file reads them', () => {
    for (const [name, doc] of Object.entries(OTHER_VARIABLES)) {
      expect(doc.description.trim(), name).not.toBe('');
      expect(readFileSync(doc.readBy, 'utf8'), `${name} in ${doc.readBy}`).toContain(name);
    }
  });
});

describe('deploy/cloakroom.env.example', () => {
  const example = readFileSync('deploy/cloakroom.env.example', 'utf8');
  /** The variables the file names, set (`NAME=`) or offered commented out (`#NAME=`). */
  const listed = new Set([...example.matchAll(/^#?([A-Z0-9_]+)=/gm)].map((match) => match[1]));

  it('lists every PUBLIC_* setting a site has, so an operator sees each one', () => {
    const settings = [...Object.keys(SERVER_VARIABLES), ...Object.keys(OTHER_VARIABLES)].filter((name) =>
      name.startsWith('PUBLIC_'),
    );
    expect(settings.filter((name) => !listed.has(name))).toEqual([]);
  });

  it("sets the community's own services, whose empty defaults hide them", () => {
    for (const name of [
      'PUBLIC_SITE_NAME',
      'PUBLIC_AUTH_SERVER_HOST',
      'PUBLIC_GAME_SERVER_HOST',
      'PUBLIC_DISCORD_URL',
      'PUBLIC_SUPPORT_EMAIL',
    ]) {
      expect(example, name).toMatch(new RegExp(`^${name}=\\S`, 'm'));
    }
  });
});
