// Every setting the server reads, from the sections' tables: the configuration's zod schema and the variables' docs
// both come from here.
import { z } from 'zod';
import { ACCOUNT_SETTINGS } from './settings-accounts.ts';
import { SERVER_SETTINGS } from './settings-server.ts';
import { SITE_SETTINGS } from './settings-site.ts';
import { TEXTURE_SETTINGS } from './settings-textures.ts';
import { docsOf, schemasOf } from './setting.ts';

/** Every setting of the server's configuration, by environment variable. */
export const SETTINGS = { ...SERVER_SETTINGS, ...ACCOUNT_SETTINGS, ...TEXTURE_SETTINGS, ...SITE_SETTINGS };

/** The environment variables the server reads: each one's type, check and default. */
export const configSchema = z.object(schemasOf(SETTINGS));

/** A variable of the server's configuration. */
export type ServerVariable = keyof typeof SETTINGS;

/** Every variable the server's schema reads, described. */
export const SERVER_VARIABLES = docsOf(SETTINGS);
