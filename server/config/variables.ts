// What the variables read outside the server's configuration do, in words, beside those the settings' tables describe:
// the sources of docs/configuration.md (npm run docs:config).
import type { VariableDoc } from './setting.ts';

export { SERVER_VARIABLES, type ServerVariable } from './settings.ts';
export { VARIABLE_GROUPS, type VariableDoc, type VariableGroup } from './setting.ts';

/**
 * A variable read outside the server's schema: by the site build, the start script or the tests; its default is written
 * out.
 */
export interface OtherVariableDoc extends VariableDoc {
  default: string;
  /** The file that reads it. */
  readBy: string;
}

/** Variables read outside server/config/index.ts, described with their defaults and the file that reads them. */
export const OTHER_VARIABLES: Record<string, OtherVariableDoc> = {
  SKIP_SITE_BUILD: {
    group: 'Server and storage',
    default: 'unset',
    readBy: 'server/main.ts',
    description: '`true`: never build at start (serve `SITE_DIR` as it is)',
  },
  PUBLIC_AUTH_SERVER_HOST: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description:
      'game auth server address shown on the code login page and `/auth`; empty: no `/auth` page, and the code login asks for a code from staff',
  },
  PUBLIC_GAME_SERVER_HOST: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'companion game server address (home page card, the daily server advert); empty shows neither',
  },
  PUBLIC_DISCORD_URL: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'community chat invite; empty shows no Discord links',
  },
  PUBLIC_SKIN_URL: {
    group: 'Site (built into the pages)',
    default: '`https://crafatar.com/skins/{uuid}`',
    readBy: 'src/lib/skin.ts',
    description: 'skin service for the 3D previews (a default skin when it fails)',
  },
  PUBLIC_AVATAR_URL: {
    group: 'Site (built into the pages)',
    default: '`https://crafatar.com/avatars/{uuid}?size={size}&overlay`',
    readBy: 'src/lib/site.ts',
    description: 'profile-image service template',
  },
  PUBLIC_TUTORIAL_VIDEO_ID: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'video id of the tutorial (embedded on click); empty shows a help link instead',
  },
  PUBLIC_SUPPORT_EMAIL: {
    group: 'Site (built into the pages)',
    default: 'empty',
    readBy: 'src/lib/site.ts',
    description: 'support address (premium, privacy and help pages); empty shows no support address',
  },
  TEST_DATABASE_URL: {
    group: 'Tests',
    default: '`postgres://postgres@127.0.0.1:5432/test`',
    readBy: 'support/backends.ts',
    description: 'PostgreSQL server the API tests create their databases on',
  },
  TEST_BACKENDS: {
    group: 'Tests',
    default: '`sqlite,postgres`',
    readBy: 'support/backends.ts',
    description: 'which databases the API tests run on: `sqlite`, `postgres`, or both comma-separated',
  },
};
